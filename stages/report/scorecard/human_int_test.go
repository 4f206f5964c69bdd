package scorecard

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// intSamples are int64s around every rounding edge of a tenth of a second,
// a shown decimal of money, a minute and an hour, and the ends of the range.
func intSamples() []int64 {
	var out []int64
	add := func(c int64) {
		for d := int64(-2); d <= 2; d++ {
			out = append(out, c+d, -(c + d))
		}
	}
	for _, c := range []int64{0, 50_000_000, 100_000_000, 150_000_000, 59_950_000_000, 60_000_000_000,
		3_599_950_000_000, 3_600_000_000_000, 3_651_900_000_000, 28_800_000_000_000, 123_456_789_012_345} {
		add(c)
	}
	out = append(out, math.MaxInt64, math.MinInt64, math.MaxInt64-50_000_000, math.MinInt64+50_000_000)
	for x := int64(1); x < math.MaxInt64/7; x = x*7 + 3 {
		out = append(out, x, -x)
	}
	return out
}

// TestDurationNSIsDurationRat: the integer path prints what the exact
// rational path prints, at every edge.
func TestDurationNSIsDurationRat(t *testing.T) {
	for _, ns := range intSamples() {
		if got, want := DurationNS(ns), DurationRat(new(big.Rat).SetInt64(ns)); got != want {
			t.Errorf("DurationNS(%d) = %q, DurationRat = %q", ns, got, want)
		}
	}
}

// TestMoneyAmountIsAmount: the integer path prints what Amount prints of
// the money's exact text, and both match big.Rat's own rounding (halves
// away from zero) with a zero never signed.
func TestMoneyAmountIsAmount(t *testing.T) {
	if want := new(big.Int).Exp(big.NewInt(10), big.NewInt(tables.MoneyScale-MoneyDecimals), nil); !want.IsInt64() || want.Int64() != moneyUnitsPerShownDigit {
		t.Fatalf("moneyUnitsPerShownDigit = %d, want 10^(%d-%d)", moneyUnitsPerShownDigit, tables.MoneyScale, MoneyDecimals)
	}
	for _, v := range intSamples() {
		m := tables.Money(v)
		text := m.String()
		got, want := MoneyAmount("USD", &m), Amount("USD", &text)
		if got != want {
			t.Errorf("MoneyAmount(%s) = %q, Amount = %q", text, got, want)
		}
		r := new(big.Rat).SetFrac(big.NewInt(v), new(big.Int).Exp(big.NewInt(10), big.NewInt(tables.MoneyScale), nil))
		oracle := r.FloatString(MoneyDecimals)
		if strings.Trim(oracle, "-0.") == "" {
			oracle = strings.TrimPrefix(oracle, "-")
		}
		if got != "USD "+oracle {
			t.Errorf("MoneyAmount(%s) = %q, big.Rat rounds to %q", text, got, oracle)
		}
	}
	if got := MoneyAmount("", nil); got != "unavailable" {
		t.Errorf("MoneyAmount of none = %q", got)
	}
}
