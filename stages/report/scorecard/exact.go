package scorecard

import (
	"math/big"
	"strings"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// Exact arithmetic for the scorecard: every ratio, median and mean is a
// big.Rat and is printed exactly, never through a float.

// Ratio is an exact rational as it appears in scorecard.json: Exact is
// "p/q" in lowest terms ("p" when q = 1), Decimal the value rounded to 12
// fractional digits (halves away from zero) for display only.
type Ratio struct {
	Exact   string `json:"exact"`
	Decimal string `json:"decimal"`
}

func newRatio(r *big.Rat) *Ratio {
	if r == nil {
		return nil
	}
	return &Ratio{Exact: stats.RatString(r), Decimal: stats.FloatString(r, 12)}
}

// picoPerUnit is 10^MoneyScale: Money's pico-units per currency unit.
var picoPerUnit = new(big.Int).Exp(big.NewInt(10), big.NewInt(tables.MoneyScale), nil)

// moneyFigure prints an exact amount in pico-units (the aggregate stage's
// figures) in currency units; nil stays nil.
func moneyFigure(pico *big.Rat) *string {
	if pico == nil {
		return nil
	}
	return moneyString(new(big.Rat).Quo(pico, new(big.Rat).SetInt(picoPerUnit)))
}

// ExactDecimal prints r exactly as a decimal when its expansion terminates
// (trailing zeros trimmed to at least minFrac digits), else as "p/q".
// Money medians of an even count may need one digit beyond pico-units;
// they still terminate.
func ExactDecimal(r *big.Rat, minFrac int) string {
	if r == nil {
		return ""
	}
	digits, ok := stats.TerminatingDigits(r.Denom())
	if !ok {
		return stats.RatString(r)
	}
	s := stats.FloatString(r, max(digits, minFrac))
	if whole, frac, found := strings.Cut(s, "."); found {
		frac = strings.TrimRight(frac, "0")
		for len(frac) < minFrac {
			frac += "0"
		}
		if frac == "" {
			return whole
		}
		return whole + "." + frac
	}
	return s
}

// moneyString prints an exact amount: Money.String when it is a whole
// number of pico-units, else the exact decimal.
func moneyString(r *big.Rat) *string {
	if r == nil {
		return nil
	}
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(picoPerUnit))
	if scaled.IsInt() && scaled.Num().IsInt64() {
		s := tables.Money(scaled.Num().Int64()).String()
		return &s
	}
	s := ExactDecimal(r, 2)
	return &s
}

// nsString prints an exact number of nanoseconds ("12", "12.5").
func nsString(r *big.Rat) *string {
	if r == nil {
		return nil
	}
	s := ExactDecimal(r, 0)
	return &s
}

// ParseExact parses a decimal ("0.875", "-2") or fraction ("7/8") without
// an exponent: big.Rat would expand "1e999999999" into a huge number.
func ParseExact(s string) (*big.Rat, bool) {
	if s == "" || len(s) > 256 || strings.ContainsAny(s, "eEpPxX_") {
		return nil, false
	}
	if r, ok := parseSmall(s); ok {
		return r, true
	}
	return new(big.Rat).SetString(s)
}

// parseSmall parses the texts newRatio and the decimal printers write
// ("-7/8", "0.875", "12") when their digits fit in an int64: an optional
// minus, then digits and either a point and digits or a slash and digits,
// at most 18 digits on each side of the slash or in all. It reads them as
// big.Rat.SetString does (a slash's operands in base 0, so neither may
// start with a 0 unless it is one; a decimal's leading zeros are decimal)
// and gives the same value in lowest terms without SetString's scanning
// and multi-precision gcd; any other text is left to SetString
// (TestParseSmallMatchesSetString).
func parseSmall(s string) (*big.Rat, bool) {
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	n, rest, ok := leadingDigits(s)
	if !ok {
		return nil, false
	}
	d := int64(1)
	switch {
	case rest == "":
	case rest[0] == '/':
		if s[0] == '0' && len(s)-len(rest) > 1 {
			return nil, false // octal in base 0
		}
		den, tail, ok := leadingDigits(rest[1:])
		if !ok || tail != "" || den == 0 || (rest[1] == '0' && len(rest) > 2) {
			return nil, false
		}
		d = den
	case rest[0] == '.':
		frac, tail, ok := leadingDigits(rest[1:])
		k := len(rest) - 1 // fractional digits
		if !ok || tail != "" || len(s)-1 > 18 {
			return nil, false
		}
		d = int64(pow10[k])
		n = n*d + frac
	default:
		return nil, false
	}
	if neg {
		n = -n
	}
	return stats.Fraction(n, d), true
}

// leadingDigits reads 1 to 18 leading decimal digits of s as an int64.
func leadingDigits(s string) (v int64, rest string, ok bool) {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		if i == 18 {
			return 0, s, false
		}
		v = v*10 + int64(s[i]-'0')
		i++
	}
	return v, s[i:], i > 0
}
