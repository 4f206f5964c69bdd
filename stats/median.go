package stats

import (
	"cmp"
	"math/big"
	"math/bits"
	"slices"
)

// Exact medians. evalgate's median of an even count is the mean of the two
// middle values (numpy, R, DuckDB), never the lower middle value that
// gonum's stat.Quantile returns. Every function here works on exact
// rationals, copies its input and never mutates the caller's slice.

// MedianRat returns the median of xs: the middle value of an odd count, the
// mean of the two middle values of an even count. It returns nil for an
// empty or nil-containing slice: a median over a set with a hole is unknown,
// never a median of the rest.
func MedianRat(xs []*big.Rat) *big.Rat {
	if len(xs) == 0 || slices.Contains(xs, nil) {
		return nil
	}
	sorted := slices.Clone(xs)
	sortRats(sorted)
	n := len(sorted)
	if n%2 == 1 {
		return new(big.Rat).Set(sorted[n/2])
	}
	var sum RatSum
	sum.Add(sorted[n/2-1])
	sum.Add(sorted[n/2])
	return sum.takeQuo(2)
}

// MidFraction returns the exact mean of an/ad and bn/bd (ad, bd > 0, not
// necessarily in lowest terms): the median of an even count of fractions,
// without a rational per fraction.
func MidFraction(an, ad, bn, bd int64) *big.Rat {
	var sum RatSum
	if sum.addSmall(an, ad) && sum.addSmall(bn, bd) {
		return sum.takeQuo(2)
	}
	r := new(big.Rat).Add(big.NewRat(an, ad), big.NewRat(bn, bd))
	return r.Quo(r, big.NewRat(2, 1))
}

// MedianInt64 returns the exact median of integer values (durations in
// nanoseconds, money in pico-units) as a rational: the mean of two middle
// integers may be a half. It returns nil for an empty slice.
func MedianInt64(xs []int64) *big.Rat {
	if len(xs) == 0 {
		return nil
	}
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	return MedianSortedInt64(sorted)
}

// MedianSortedInt64 is MedianInt64 of values already sorted ascending,
// for a caller that owns them and has sorted them in place: it neither
// copies nor changes sorted. It returns nil for an empty slice.
func MedianSortedInt64(sorted []int64) *big.Rat {
	n := len(sorted)
	if n == 0 {
		return nil
	}
	if n%2 == 1 {
		return lowestRat(sorted[n/2], 1)
	}
	if sum, ok := AddInt64(sorted[n/2-1], sorted[n/2]); ok {
		return lowestRat(sum, 2)
	}
	// The sum of two int64s may overflow int64; big.Int holds it exactly.
	sum := new(big.Int).Add(big.NewInt(sorted[n/2-1]), big.NewInt(sorted[n/2]))
	return new(big.Rat).SetFrac(sum, big.NewInt(2))
}

// sortRats sorts xs ascending. big.Rat.Cmp allocates whenever the
// denominators differ, so when every numerator and denominator fits in 64
// bits the values are compared by exact 128-bit cross-multiplication
// instead; the order is the same (TestSortRatsMatchesCmp).
func sortRats(xs []*big.Rat) {
	keys := make([]ratKey, len(xs))
	var abs big.Int // scratch: |numerator|
	for i, x := range xs {
		n, d := x.Num(), x.Denom()
		if n.BitLen() > 64 || d.BitLen() > 64 {
			slices.SortStableFunc(xs, func(a, b *big.Rat) int { return a.Cmp(b) })
			return
		}
		keys[i] = ratKey{neg: n.Sign() < 0, num: abs.Abs(n).Uint64(), den: d.Uint64(), x: x}
	}
	slices.SortStableFunc(keys, func(a, b ratKey) int { return a.cmp(b) })
	for i, k := range keys {
		xs[i] = k.x
	}
}

// ratKey is a rational whose numerator and denominator fit in 64 bits.
type ratKey struct {
	neg bool   // the numerator is negative
	num uint64 // |numerator|
	den uint64 // > 0
	x   *big.Rat
}

// cmp compares a and b exactly: |a.num|·b.den against |b.num|·a.den as
// 128-bit products, with the signs deciding first.
func (a ratKey) cmp(b ratKey) int {
	aNeg, bNeg := a.neg && a.num != 0, b.neg && b.num != 0
	if aNeg != bNeg {
		if aNeg {
			return -1
		}
		return 1
	}
	ahi, alo := bits.Mul64(a.num, b.den)
	bhi, blo := bits.Mul64(b.num, a.den)
	c := cmp.Compare(ahi, bhi)
	if c == 0 {
		c = cmp.Compare(alo, blo)
	}
	if aNeg {
		return -c
	}
	return c
}

// Fraction returns num/den as an exact rational, or nil when den is not
// positive (an undefined ratio is unknown, never zero).
func Fraction(num, den int64) *big.Rat {
	if den <= 0 {
		return nil
	}
	return lowestRat(num, den)
}
