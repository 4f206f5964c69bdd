package stats

import (
	"math/big"
)

// Sums, means and ratios of rationals. big.Rat.Add allocates for every
// addition (it scales both numerators to the product of the denominators
// and reduces the result by a gcd), and evalgate's values are mostly
// integers (pico-units of money, nanoseconds, token counts) and fractions
// with small denominators (scores, halves of a median of an even count).
// So a sum is kept as an int64 numerator over an int64 common denominator
// (the lcm of the denominators seen) and reduced only when a step would
// overflow and once at the end; the first value or step that does not fit
// in 64 bits even after that reduction moves the sum to big.Rat. Every
// step is exact, so the result is the same rational big.Rat.Add gives
// (TestSumMatchesBigRat, FuzzSum), and a big.Rat is always in lowest
// terms, so it has the same numerator and denominator.

// Sum returns the exact sum of xs, or nil when any value is nil.
func Sum(xs []*big.Rat) *big.Rat {
	var s RatSum
	for _, x := range xs {
		if x == nil {
			return nil
		}
		s.Add(x)
	}
	return s.take()
}

// Mean returns the exact arithmetic mean of xs, or nil when xs is empty or
// holds a nil.
func Mean(xs []*big.Rat) *big.Rat {
	if len(xs) == 0 {
		return nil
	}
	var s RatSum
	for _, x := range xs {
		if x == nil {
			return nil
		}
		s.Add(x)
	}
	return s.takeQuo(int64(len(xs)))
}

// Ratio returns num/den, or nil when either is nil or den is not positive:
// the gates' ratios need a positive denominator.
func Ratio(num, den *big.Rat) *big.Rat {
	if num == nil || den == nil || den.Sign() <= 0 {
		return nil
	}
	if a, b, ok := small(num); ok {
		if c, d, ok := small(den); ok {
			// (a/b)/(c/d) = (a·d)/(b·c) with c > 0; both operands are in
			// lowest terms, so after dividing out gcd(a, c) and gcd(b, d)
			// so is the quotient.
			g, h := int64(gcd(absUint64(a), uint64(c))), int64(gcd(uint64(b), uint64(d)))
			p, okP := mulInt64(a/g, d/h)
			q, okQ := mulInt64(b/h, c/g)
			if okP && okQ {
				return lowestRat(p, q)
			}
		}
	}
	return new(big.Rat).Quo(num, den)
}

// RatioOfSums returns Σnum / Σden, the aggregate ratio of the cost and time
// gates (never a mean of per-item ratios). It is nil when a value is nil
// or Σden is not positive.
func RatioOfSums(num, den []*big.Rat) *big.Rat {
	return Ratio(Sum(num), Sum(den))
}

// Cmp compares x and y as x.Cmp(y) does: -1, 0 or +1. When both fit in 64
// bits it compares them by exact 128-bit cross-multiplication instead,
// which does not allocate (big.Rat.Cmp allocates whenever the denominators
// differ).
func Cmp(x, y *big.Rat) int {
	a, b, okX := small(x)
	c, d, okY := small(y)
	if !okX || !okY {
		return x.Cmp(y)
	}
	return ratKey{neg: a < 0, num: absUint64(a), den: uint64(b)}.cmp(
		ratKey{neg: c < 0, num: absUint64(c), den: uint64(d)})
}

// small returns x's numerator and denominator when both fit in an int64,
// without allocating (x.Denom allocates for a zero-value big.Rat).
func small(x *big.Rat) (num, den int64, ok bool) {
	n := x.Num()
	if !n.IsInt64() {
		return 0, 0, false
	}
	if x.IsInt() {
		return n.Int64(), 1, true
	}
	d := x.Denom()
	if !d.IsInt64() {
		return 0, 0, false
	}
	return n.Int64(), d.Int64(), true
}
