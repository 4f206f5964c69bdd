package report

import (
	"math/big"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/tables"
)

// Exact arithmetic for the scorecard: every ratio, median and mean is a
// big.Rat and is printed exactly, never through a float.

// ratio is an exact rational as it appears in scorecard.json: Exact is
// "p/q" in lowest terms ("p" when q = 1), Decimal the value rounded to 12
// fractional digits (halves away from zero) for display only.
type ratio struct {
	Exact   string `json:"exact"`
	Decimal string `json:"decimal"`
}

func newRatio(r *big.Rat) *ratio {
	if r == nil {
		return nil
	}
	return &ratio{Exact: r.RatString(), Decimal: r.FloatString(12)}
}

// medianRat returns the median of xs (mean of the two middle values for an
// even count), or nil for no values. xs is not modified.
func medianRat(xs []*big.Rat) *big.Rat {
	if len(xs) == 0 {
		return nil
	}
	s := slices.Clone(xs)
	slices.SortFunc(s, func(a, b *big.Rat) int { return a.Cmp(b) })
	n := len(s)
	if n%2 == 1 {
		return new(big.Rat).Set(s[n/2])
	}
	sum := new(big.Rat).Add(s[n/2-1], s[n/2])
	return sum.Quo(sum, big.NewRat(2, 1))
}

// meanRat returns the arithmetic mean of xs, or nil for no values.
func meanRat(xs []*big.Rat) *big.Rat {
	if len(xs) == 0 {
		return nil
	}
	sum := new(big.Rat)
	for _, x := range xs {
		sum.Add(sum, x)
	}
	return sum.Quo(sum, big.NewRat(int64(len(xs)), 1))
}

// quoRat returns a/b, or nil when either is nil or b is zero.
func quoRat(a, b *big.Rat) *big.Rat {
	if a == nil || b == nil || b.Sign() == 0 {
		return nil
	}
	return new(big.Rat).Quo(a, b)
}

// picoPerUnit is 10^MoneyScale: Money's pico-units per currency unit.
var picoPerUnit = new(big.Int).Exp(big.NewInt(10), big.NewInt(tables.MoneyScale), nil)

// moneyRat converts an amount in pico-units to currency units.
func moneyRat(m tables.Money) *big.Rat {
	return new(big.Rat).SetFrac(big.NewInt(int64(m)), picoPerUnit)
}

// nsRat converts nanoseconds to a rational.
func nsRat(ns int64) *big.Rat { return new(big.Rat).SetInt64(ns) }

// exactDecimal prints r exactly as a decimal when its expansion terminates
// (trailing zeros trimmed to at least minFrac digits), else as "p/q".
// Money medians of an even count may need one digit beyond pico-units;
// they still terminate.
func exactDecimal(r *big.Rat, minFrac int) string {
	if r == nil {
		return ""
	}
	digits, ok := terminatingDigits(r.Denom())
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

// terminatingDigits reports how many fractional digits 1/d needs, and
// whether its decimal expansion terminates (d = 2^a·5^b).
func terminatingDigits(d *big.Int) (int, bool) {
	d = new(big.Int).Set(d)
	var twos, fives int
	two, five, zero := big.NewInt(2), big.NewInt(5), new(big.Int)
	m := new(big.Int)
	for m.Mod(d, two).Cmp(zero) == 0 {
		d.Quo(d, two)
		twos++
	}
	for m.Mod(d, five).Cmp(zero) == 0 {
		d.Quo(d, five)
		fives++
	}
	return max(twos, fives), d.Cmp(big.NewInt(1)) == 0
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
	s := exactDecimal(r, 2)
	return &s
}

// nsString prints an exact number of nanoseconds ("12", "12.5").
func nsString(r *big.Rat) *string {
	if r == nil {
		return nil
	}
	s := exactDecimal(r, 0)
	return &s
}
