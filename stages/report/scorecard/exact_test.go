package scorecard

import (
	"math/big"
	"testing"

	"github.com/evalgate/evalgate/stats"
)

func TestMedianRat(t *testing.T) {
	r := func(a, b int64) *big.Rat { return big.NewRat(a, b) }
	cases := []struct {
		name string
		in   []*big.Rat
		want string // hand-computed
	}{
		{"empty", nil, "<nil>"},
		{"one", []*big.Rat{r(3, 4)}, "3/4"},
		{"odd_unsorted", []*big.Rat{r(5, 1), r(1, 1), r(3, 1)}, "3"},
		{"even_mean_of_middle", []*big.Rat{r(4, 1), r(1, 1), r(3, 1), r(2, 1)}, "5/2"},
		{"pair", []*big.Rat{r(10, 1), r(20, 1)}, "15"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := "<nil>"
			if m := stats.MedianRat(c.in); m != nil {
				got = m.RatString()
			}
			if got != c.want {
				t.Errorf("median = %s, want %s", got, c.want)
			}
		})
	}
	t.Run("does_not_mutate", func(t *testing.T) {
		in := []*big.Rat{r(2, 1), r(1, 1)}
		stats.MedianRat(in)
		if in[0].RatString() != "2" {
			t.Error("input reordered")
		}
	})
}

func TestExactDecimal(t *testing.T) {
	cases := []struct {
		name    string
		r       *big.Rat
		minFrac int
		want    string
	}{
		{"integer", big.NewRat(24, 1), 0, "24"},
		{"integer_min2", big.NewRat(24, 1), 2, "24.00"},
		{"half", big.NewRat(1, 2), 0, "0.5"},
		{"half_pico", big.NewRat(33000000000001, 20000000000000), 2, "1.65000000000005"},
		{"third", big.NewRat(1, 3), 0, "1/3"},
		{"negative", big.NewRat(-5, 4), 0, "-1.25"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ExactDecimal(c.r, c.minFrac); got != c.want {
				t.Errorf("ExactDecimal(%s) = %q, want %q", c.r.RatString(), got, c.want)
			}
		})
	}
}

func TestMoneyString(t *testing.T) {
	cases := []struct {
		name string
		r    *big.Rat
		want string
	}{
		{"dollars", big.NewRat(24, 1), "24.00"},
		{"cents", big.NewRat(9, 100), "0.09"},
		{"one_pico", big.NewRat(1, 1_000_000_000_000), "0.000000000001"},
		{"half_pico", big.NewRat(1, 2_000_000_000_000), "0.0000000000005"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := *moneyString(c.r); got != c.want {
				t.Errorf("moneyString(%s) = %q, want %q", c.r.RatString(), got, c.want)
			}
		})
	}
	t.Run("nil", func(t *testing.T) {
		if moneyString(nil) != nil {
			t.Error("moneyString(nil) != nil")
		}
	})
}

func TestNewChange(t *testing.T) {
	cases := []struct {
		name string
		r    *big.Rat
		dir  string
		pct  string
	}{
		{"increase", big.NewRat(11, 10), "increase", "10.00"},
		{"decrease", big.NewRat(9, 10), "decrease", "10.00"},
		{"unchanged", big.NewRat(1, 1), "unchanged", "0.00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch := newChange(c.r)
			if ch.Direction != c.dir || ch.Percent != c.pct {
				t.Errorf("change %+v, want %s %s", ch, c.dir, c.pct)
			}
		})
	}
	t.Run("zero_denominator", func(t *testing.T) {
		if newChange(stats.Ratio(big.NewRat(1, 1), new(big.Rat))) != nil {
			t.Error("ratio over a zero denominator is not null")
		}
	})
}
