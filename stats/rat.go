package stats

import (
	"errors"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Exact rational helpers for gates: thresholds are parsed from decimal text
// into big.Rat, observed values are means, sums and ratios of sums computed
// without rounding, and every comparison is made on the rationals. Floats
// appear only in [Float], a convenience for display columns.

// ErrDecimalSyntax is returned by [ParseDecimal] for text that is not a
// plain non-negative decimal such as "0.90" or "4".
var ErrDecimalSyntax = errors.New("stats: not a plain non-negative decimal (digits, optional point and digits, no sign or exponent)")

// maxDecimalDigits bounds the text ParseDecimal accepts, so hostile input
// cannot make it allocate without limit.
const maxDecimalDigits = 64

// ParseDecimal parses a non-negative decimal like "0.80", "1.10" or "4"
// exactly. Signs, exponents, fractions like "1/3", spaces, a missing digit
// on either side of the point and more than 64 digits are refused.
func ParseDecimal(s string) (*big.Rat, error) {
	intPart, frac, hasPoint := strings.Cut(s, ".")
	if intPart == "" || (hasPoint && frac == "") || len(intPart)+len(frac) > maxDecimalDigits {
		return nil, ErrDecimalSyntax
	}
	for _, c := range intPart + frac {
		if c < '0' || c > '9' {
			return nil, ErrDecimalSyntax
		}
	}
	num, ok := new(big.Int).SetString(intPart+frac, 10)
	if !ok {
		return nil, ErrDecimalSyntax
	}
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(frac))), nil)
	return new(big.Rat).SetFrac(num, den), nil
}

// Float returns the nearest float64 of r, or nil for nil. Use it only for
// display columns; compare the rationals.
func Float(r *big.Rat) *float64 {
	if r == nil {
		return nil
	}
	f := Float64(r)
	return &f
}

// Float64 returns the nearest float64 of r (not nil), as r.Float64 does.
// When r's numerator and denominator are at most 2^53 in magnitude both
// are exact float64s, and IEEE division rounds their quotient to the
// nearest float64, ties to even, as r.Float64 does; so that path divides
// two floats instead of shifting big integers (TestFloat64MatchesBig).
func Float64(r *big.Rat) float64 {
	if n, d, ok := small(r); ok && absUint64(n) <= 1<<53 && d <= 1<<53 {
		return float64(n) / float64(d)
	}
	f, _ := r.Float64()
	return f
}

// RoundHalfEven rounds r to the nearest integer, ties to even, and reports
// whether the result fits in an int64. It is used where a column holds an
// integer unit (a nanosecond, a pico-unit of money) and a median of an even
// count falls on a half unit.
func RoundHalfEven(r *big.Rat) (int64, bool) {
	if r == nil {
		return 0, false
	}
	if n, d, ok := small(r); ok {
		// The same rounding in int64: |m| < d, so 2·|m| fits in a uint64,
		// and |q| ≤ 2^62 when d > 1, so q ± 1 fits (TestRoundHalfEvenMatchesBig).
		q, m := n/d, n%d
		twice := 2 * absUint64(m)
		if twice > uint64(d) || (twice == uint64(d) && q&1 != 0) {
			if n < 0 {
				q--
			} else {
				q++
			}
		}
		return q, true
	}
	return roundHalfEvenBig(r)
}

// roundHalfEvenBig is RoundHalfEven in big.Int arithmetic, for any r.
func roundHalfEvenBig(r *big.Rat) (int64, bool) {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int)) // truncated toward zero
	twice := new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2))
	switch c := twice.Cmp(r.Denom()); {
	case c > 0 || (c == 0 && q.Bit(0) == 1):
		q.Add(q, big.NewInt(int64(r.Sign())))
	}
	if !q.IsInt64() {
		return 0, false
	}
	return q.Int64(), true
}

// FormatRat writes r exactly: as a decimal when its expansion terminates
// ("0.9", "2.5", "-0.05", "4"), else as a fraction followed by a six-digit
// approximation ("2/3 (≈0.666667)"). nil is written "null".
func FormatRat(r *big.Rat) string {
	if r == nil {
		return "null"
	}
	if digits, ok := TerminatingDigits(r.Denom()); ok {
		return FloatString(r, digits)
	}
	return RatString(r) + " (≈" + FloatString(r, 6) + ")"
}

// FloatString is r.FloatString(prec): r in decimal with prec digits after
// the point (none when prec ≤ 0), the last rounded to nearest, halves away
// from zero, a minus sign whenever r is negative. When r's numerator and
// denominator fit in an int64 and prec ≤ 18 it divides in 64 and 128 bits
// instead of big.Int (TestFloatStringMatchesBig).
func FloatString(r *big.Rat, prec int) string {
	n, d, ok := small(r)
	if !ok || prec > 18 {
		return r.FloatString(prec)
	}
	var buf [48]byte // a sign, 19 integer digits, a point and 18 decimals
	b := buf[:0]
	if d == 1 {
		b = strconv.AppendInt(b, n, 10)
		if prec > 0 {
			b = append(b, '.')
			for range prec {
				b = append(b, '0')
			}
		}
		return string(b)
	}
	u, den := absUint64(n), uint64(d)
	q, rem := u/den, u%den
	p := uint64(1)
	if prec > 0 {
		p = pow10[prec]
	}
	hi, lo := bits.Mul64(rem, p)     // rem·p < den·2^64: the quotient fits
	f, r2 := bits.Div64(hi, lo, den) // f < p
	if 2*r2 >= den {                 // r2 < den < 2^63
		if f++; f >= p {
			q, f = q+1, f-p
		}
	}
	if n < 0 {
		b = append(b, '-')
	}
	b = strconv.AppendUint(b, q, 10)
	if prec > 0 {
		b = append(b, '.')
		var digits [20]byte
		fs := strconv.AppendUint(digits[:0], f, 10)
		for range prec - len(fs) {
			b = append(b, '0')
		}
		b = append(b, fs...)
	}
	return string(b)
}

// RatString is r.RatString(): "a/b", or "a" when the denominator is 1,
// through strconv when both fit in an int64.
func RatString(r *big.Rat) string {
	n, d, ok := small(r)
	if !ok {
		return r.RatString()
	}
	var buf [48]byte
	b := strconv.AppendInt(buf[:0], n, 10)
	if d != 1 {
		b = append(b, '/')
		b = strconv.AppendInt(b, d, 10)
	}
	return string(b)
}

// pow10 holds 10^k for k ≤ 18.
var pow10 = func() (p [19]uint64) {
	p[0] = 1
	for k := 1; k < len(p); k++ {
		p[k] = p[k-1] * 10
	}
	return p
}()

// TerminatingDigits reports whether 1/den has a finite decimal expansion
// (den = 2^a·5^b) and how many fractional digits it needs: max(a, b).
func TerminatingDigits(den *big.Int) (int, bool) {
	if den.Sign() > 0 && den.IsUint64() {
		// The same count on a uint64, without big.Int arithmetic.
		u := den.Uint64()
		a := bits.TrailingZeros64(u)
		u >>= a
		b := 0
		for u%5 == 0 {
			u /= 5
			b++
		}
		if u != 1 {
			return 0, false
		}
		return max(a, b), true
	}
	return terminatingDigitsBig(den)
}

// terminatingDigitsBig is TerminatingDigits in big.Int arithmetic, for any
// den.
func terminatingDigitsBig(den *big.Int) (int, bool) {
	d := new(big.Int).Set(den)
	two, five, zero := big.NewInt(2), big.NewInt(5), new(big.Int)
	var a, b int
	m := new(big.Int)
	for m.Mod(d, two).Cmp(zero) == 0 && d.Sign() != 0 {
		d.Quo(d, two)
		a++
	}
	for m.Mod(d, five).Cmp(zero) == 0 && d.Sign() != 0 {
		d.Quo(d, five)
		b++
	}
	if !d.IsInt64() || d.Int64() != 1 {
		return 0, false
	}
	return max(a, b), true
}

// FormatPercentChange describes a ratio against 1 for a reader: "increased
// by 7.3%", "decreased by 12.5%" or "unchanged". The percentage is rounded
// to one decimal for display only; the exact ratio lives elsewhere.
func FormatPercentChange(ratio *big.Rat) string {
	if ratio == nil {
		return "unknown"
	}
	change := new(big.Rat).Sub(ratio, big.NewRat(1, 1))
	pct := new(big.Rat).Mul(change, big.NewRat(100, 1))
	switch pct.Sign() {
	case 0:
		return "unchanged"
	case 1:
		return "increased by " + pct.FloatString(1) + "%"
	default:
		return "decreased by " + pct.Neg(pct).FloatString(1) + "%"
	}
}

// Int64Rats converts integers to rationals.
func Int64Rats(xs []int64) []*big.Rat {
	out := make([]*big.Rat, len(xs))
	for i, x := range xs {
		out[i] = new(big.Rat).SetInt64(x)
	}
	return out
}
