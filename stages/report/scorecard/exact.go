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
	return &Ratio{Exact: r.RatString(), Decimal: r.FloatString(12)}
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
		return r.RatString()
	}
	s := r.FloatString(max(digits, minFrac))
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
	return new(big.Rat).SetString(s)
}
