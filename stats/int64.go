package stats

import (
	"math"
	"math/big"
	"math/bits"
)

// Checked 64-bit arithmetic for the exact fast paths: every operation
// reports whether its exact result fits, and none of them allocates.

// AddInt64 adds without overflow and reports whether the sum fits.
func AddInt64(a, b int64) (int64, bool) {
	if (b > 0 && a > math.MaxInt64-b) || (b < 0 && a < math.MinInt64-b) {
		return 0, false
	}
	return a + b, true
}

// mulInt64 multiplies without overflow and reports whether the product
// fits.
func mulInt64(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(absUint64(a), absUint64(b))
	if hi != 0 {
		return 0, false
	}
	if (a < 0) != (b < 0) {
		if lo > 1<<63 {
			return 0, false
		}
		return int64(-lo), true // -2^63 included
	}
	if lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// absUint64 is |x|, exact for math.MinInt64 too.
func absUint64(x int64) uint64 {
	if x < 0 {
		return -uint64(x)
	}
	return uint64(x)
}

// gcd is the greatest common divisor (one Euclid step, then the binary
// algorithm); gcd(0, b) = b. The Euclid step makes both operands at most
// the smaller one, so a large value and a small one (an amount over 1 or
// 2, a decimal over a power of ten) take a division and a few binary
// steps rather than one binary step per bit of the large value.
func gcd(a, b uint64) uint64 {
	if a < b {
		a, b = b, a
	}
	if b == 0 {
		return a
	}
	if a %= b; a == 0 {
		return b
	}
	shift := bits.TrailingZeros64(a | b)
	a >>= bits.TrailingZeros64(a)
	for b != 0 {
		b >>= bits.TrailingZeros64(b)
		if a > b {
			a, b = b, a
		}
		b -= a
	}
	return a << shift
}

// lowestRat returns n/d as a new big.Rat; d > 0. It divides out gcd(n, d)
// itself, rather than through SetFrac64, whose normalization (a
// multi-precision gcd) allocates even for one-word values, and builds the
// big.Rat in two allocations instead of three: the numerator's words are
// allocated with the big.Rat (smallRat) and handed to it through SetBits,
// and the denominator is set through the reference Denom returns once
// Set(x) has initialized it. A big.Rat in lowest terms with a positive
// denominator is exactly what SetFrac64 would have built.
func lowestRat(n, d int64) *big.Rat {
	if g := int64(gcd(absUint64(n), uint64(d))); g > 1 {
		n, d = n/g, d/g
	}
	p := new(smallRat)
	u := absUint64(n)
	for i := range p.words {
		p.words[i] = big.Word(u >> (uint(i) * bits.UintSize))
	}
	r := &p.r
	num := r.Num() // a reference
	num.SetBits(p.words[:len(p.words):len(p.words)])
	if n < 0 {
		num.Neg(num)
	}
	r.Set(r) // denominator 1, held: Denom is now a reference
	if d != 1 {
		r.Denom().SetInt64(d)
	}
	return r
}

// smallRat is a big.Rat with room for a numerator of 64 bits, allocated
// together.
type smallRat struct {
	r     big.Rat
	words [64 / bits.UintSize]big.Word
}
