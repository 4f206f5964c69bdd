package scorecard

import (
	"math/big"
	"math/bits"
)

// rounded prints r with exactly digits decimals, halves away from zero:
// the digits of floor(|r|·10^digits + 1/2), in 64-bit integers when r's
// numerator and denominator and that quotient fit (roundedUint64), else in
// big.Int (roundedBig); both are exact, so they print the same
// (TestRoundedFastMatchesBig).
func rounded(r *big.Rat, digits int) string {
	if q, ok := roundedUint64(r, digits); ok {
		var buf [48]byte
		return string(appendDecimalUint64(buf[:0], r.Sign() < 0, q, digits))
	}
	return roundedBig(r, digits)
}

// roundedBig is rounded in big.Int arithmetic, for any r.
func roundedBig(r *big.Rat, digits int) string {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil)
	x := new(big.Rat).Mul(new(big.Rat).Abs(r), new(big.Rat).SetInt(scale))
	x.Add(x, big.NewRat(1, 2))
	q := new(big.Int).Quo(x.Num(), x.Denom()) // floor(|r|·10^d + 1/2)
	return string(appendDecimal(nil, r.Sign() < 0, q.Append(nil, 10), digits))
}

// roundedUint64 is floor(|r|·10^digits + 1/2) for r = n/d in lowest terms,
// computed as floor((2·|n|·10^digits + d) / (2·d)) with a 128-bit
// dividend; ok is false when |n|, d or 10^digits does not fit in 64 bits
// (d in 63), or the quotient does not.
func roundedUint64(r *big.Rat, digits int) (q uint64, ok bool) {
	if digits < 0 || digits >= len(pow10) {
		return 0, false
	}
	var n uint64
	switch num := r.Num(); {
	case num.IsInt64():
		v := num.Int64()
		n = uint64(v)
		if v < 0 {
			n = -n // |v|, exact for math.MinInt64 too
		}
	case num.IsUint64():
		n = num.Uint64()
	default:
		return 0, false
	}
	d := uint64(1)
	if !r.IsInt() { // Denom of a zero-value big.Rat allocates; its denominator is 1
		den := r.Denom()
		if den.BitLen() > 63 {
			return 0, false
		}
		d = den.Uint64()
	}
	hi, lo := bits.Mul64(n, pow10[digits])
	if hi>>63 != 0 {
		return 0, false
	}
	hi, lo = hi<<1|lo>>63, lo<<1 // 2·|n|·10^digits < 2^128
	lo, carry := bits.Add64(lo, d, 0)
	hi += carry // no wrap: hi was at most 2^64-2
	// The quotient fits in 64 bits only when hi < 2·d (else Div64 panics).
	if hi >= 2*d {
		return 0, false
	}
	q, _ = bits.Div64(hi, lo, 2*d)
	return q, true
}

// pow10 holds 10^k for every k whose power fits in a uint64.
var pow10 = func() []uint64 {
	p := []uint64{1}
	for range 19 {
		p = append(p, p[len(p)-1]*10)
	}
	return p
}()
