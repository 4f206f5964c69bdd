package stats

import (
	"math/big"
	"testing"
)

func TestParseDecimal(t *testing.T) {
	good := []struct{ in, want string }{
		{"0.80", "4/5"},
		{"0.90", "9/10"},
		{"1.10", "11/10"},
		{"4", "4"},
		{"0", "0"},
		{"0.05", "1/20"},
		{"007", "7"},
	}
	for _, tc := range good {
		t.Run("accepts "+tc.in, func(t *testing.T) {
			got, err := ParseDecimal(tc.in)
			if err != nil || got.RatString() != tc.want {
				t.Fatalf("ParseDecimal(%q) = %v, %v; want %s", tc.in, got, err, tc.want)
			}
		})
	}
	bad := []string{"", ".5", "5.", "-1", "+1", "1e3", "1/3", " 1", "1 ", "0x10", "1.2.3", "NaN", "Inf",
		"12345678901234567890123456789012345678901234567890123456789012345"}
	for _, in := range bad {
		t.Run("refuses "+in, func(t *testing.T) {
			if got, err := ParseDecimal(in); err == nil {
				t.Fatalf("ParseDecimal(%q) = %v, want error", in, got)
			}
		})
	}
}

func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"0.80", "1e3", "", "4", "1.", "-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseDecimal(s)
		if err != nil {
			return
		}
		if r.Sign() < 0 {
			t.Fatalf("ParseDecimal(%q) = %v is negative", s, r)
		}
		// The exact decimal text of r parses back to r.
		back, err := ParseDecimal(FormatRat(r))
		if err != nil || back.Cmp(r) != 0 {
			t.Fatalf("round trip of %q via %q: %v, %v", s, FormatRat(r), back, err)
		}
	})
}

func TestRatioOfSums(t *testing.T) {
	t.Run("sum of medians, not mean of ratios", func(t *testing.T) {
		// B = [2, 1], A = [1, 2]: Σ = 3/3 = 1, although the mean of
		// per-task ratios would be (2 + 0.5)/2 = 1.25.
		got := RatioOfSums(Int64Rats([]int64{2, 1}), Int64Rats([]int64{1, 2}))
		if got.RatString() != "1" {
			t.Fatalf("got %v, want 1", got)
		}
	})
	t.Run("zero denominator is unknown", func(t *testing.T) {
		if got := RatioOfSums(Int64Rats([]int64{1}), Int64Rats([]int64{0})); got != nil {
			t.Fatalf("got %v, want nil", got)
		}
	})
	t.Run("nil value is unknown", func(t *testing.T) {
		if got := RatioOfSums([]*big.Rat{nil}, Int64Rats([]int64{1})); got != nil {
			t.Fatalf("got %v, want nil", got)
		}
	})
}

func TestMean(t *testing.T) {
	t.Run("exact", func(t *testing.T) {
		// (1 + 1/2 + 1/3) / 3 = (11/6) / 3 = 11/18
		if got := Mean([]*big.Rat{big.NewRat(1, 1), big.NewRat(1, 2), big.NewRat(1, 3)}); got.RatString() != "11/18" {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("empty is unknown", func(t *testing.T) {
		if got := Mean(nil); got != nil {
			t.Fatalf("got %v", got)
		}
	})
}

func TestRoundHalfEven(t *testing.T) {
	tests := []struct {
		in   *big.Rat
		want int64
	}{
		{big.NewRat(5, 2), 2},
		{big.NewRat(7, 2), 4},
		{big.NewRat(-5, 2), -2},
		{big.NewRat(-7, 2), -4},
		{big.NewRat(26, 10), 3},
		{big.NewRat(24, 10), 2},
		{big.NewRat(-26, 10), -3},
		{big.NewRat(3, 1), 3},
	}
	// both paths: the int64 one RoundHalfEven takes here, and the big.Int
	// one it falls back to (which TestRoundHalfEvenMatchesBig compares it with)
	for _, round := range []struct {
		name string
		f    func(*big.Rat) (int64, bool)
	}{{"RoundHalfEven", RoundHalfEven}, {"roundHalfEvenBig", roundHalfEvenBig}} {
		for _, tc := range tests {
			t.Run(round.name+"/"+tc.in.RatString(), func(t *testing.T) {
				got, ok := round.f(tc.in)
				if !ok || got != tc.want {
					t.Fatalf("%s(%v) = %d, %v; want %d", round.name, tc.in, got, ok, tc.want)
				}
			})
		}
	}
	t.Run("overflow reported", func(t *testing.T) {
		huge := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 70))
		if _, ok := RoundHalfEven(huge); ok {
			t.Fatal("2^70 fits in int64?")
		}
	})
}

func TestFormatRat(t *testing.T) {
	tests := []struct {
		name string
		in   *big.Rat
		want string
	}{
		{"terminating", big.NewRat(9, 10), "0.9"},
		{"half", big.NewRat(5, 2), "2.5"},
		{"integer", big.NewRat(4, 1), "4"},
		{"negative", big.NewRat(-1, 20), "-0.05"},
		{"repeating", big.NewRat(2, 3), "2/3 (≈0.666667)"},
		{"nil", nil, "null"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := FormatRat(tc.in); got != tc.want {
				t.Fatalf("FormatRat(%v) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestFormatPercentChange(t *testing.T) {
	tests := []struct {
		name string
		in   *big.Rat
		want string
	}{
		{"increase", big.NewRat(1073, 1000), "increased by 7.3%"},
		{"decrease", big.NewRat(7, 8), "decreased by 12.5%"},
		{"unchanged", big.NewRat(1, 1), "unchanged"},
		{"unknown", nil, "unknown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := FormatPercentChange(tc.in); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAddInt64(t *testing.T) {
	t.Run("fits", func(t *testing.T) {
		if got, ok := AddInt64(2, 3); !ok || got != 5 {
			t.Fatalf("got %d %v", got, ok)
		}
	})
	t.Run("overflow", func(t *testing.T) {
		if _, ok := AddInt64(1<<62, 1<<62); ok {
			t.Fatal("overflow not reported")
		}
	})
}
