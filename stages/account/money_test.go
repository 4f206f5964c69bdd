package account

import (
	"math"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// The two figures rule A2 fixes exactly.
func TestReferenceCostExact(t *testing.T) {
	cases := []struct {
		name string
		card tables.RateCard
		b    Buckets
		want string
	}{
		// (4 × 3,000,000 + 20 × 600,000) / 10^6 = 12 + 12 = 24.
		{"example ceilings", codexCard(), Buckets{UncachedInput: 3_000_000, Output: 600_000}, "24.00"},
		// (3 × 20,000 + 15 × 2,000) / 10^6 = 0.06 + 0.03 = 0.09.
		{"sonnet 4.6 call", sonnetCard(), Buckets{UncachedInput: 20_000, Output: 2_000}, "0.09"},
		// 0.40 × 14,000 / 10^6 = 0.0056; 4 × 1,500 / 10^6 = 0.006; 20 × 400 / 10^6 = 0.008.
		{"codex last turn", codexCard(), Buckets{UncachedInput: 1500, CachedInput: 14000, Output: 400, Reasoning: 256}, "0.0196"},
		// Reasoning is inside output: 256 reasoning tokens add nothing.
		{"reasoning not added twice", codexCard(), Buckets{Output: 400, Reasoning: 400}, "0.008"},
		// 3×12 + 0.30×48000 + 3.75×2500 + 15×640 = 36 + 14400 + 9375 + 9600 = 33411 µ → 0.033411.
		{"anthropic buckets", sonnetCard(), Buckets{UncachedInput: 12, CachedInput: 48000, CacheWrite5m: 2500, Output: 640}, "0.033411"},
		// 6 × 1,000,000 / 10^6 = 6.
		{"one hour writes", sonnetCard(), Buckets{CacheWrite1h: 1_000_000}, "6.00"},
		// 1 token at 0.000001 per million = 10^-12: the smallest unit, exact.
		{"one pico", tables.RateCard{ID: "tiny", Prices: tables.RatePrices{UncachedInput: "0.000001", Output: "0"}}, Buckets{UncachedInput: 1}, "0.000000000001"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := PriceOf(tc.b, NewTariff(tc.card))
			if p.Cost == nil || p.Overflow {
				t.Fatalf("PriceOf = %+v", p)
			}
			if got := p.Cost.String(); got != tc.want {
				t.Errorf("cost = %s, want %s", got, tc.want)
			}
			if *p.Cost != money(t, tc.want) {
				t.Errorf("cost = %d pico, want %d", int64(*p.Cost), int64(money(t, tc.want)))
			}
		})
	}
}

func TestPriceOfMissingTariff(t *testing.T) {
	t.Run("tokens in an unpriced bucket", func(t *testing.T) {
		p := PriceOf(Buckets{UncachedInput: 10, CacheWrite5m: 1}, NewTariff(codexCard()))
		if p.Cost != nil || len(p.Unpriced) != 1 || p.Unpriced[0] != "cache_write_5m" {
			t.Errorf("PriceOf = %+v, want null cost naming cache_write_5m", p)
		}
	})
	t.Run("zero tokens in an unpriced bucket", func(t *testing.T) {
		p := PriceOf(Buckets{UncachedInput: 10}, NewTariff(codexCard()))
		if p.Cost == nil || *p.Cost != 40_000_000 { // 10 × 4×10^6 pico
			t.Errorf("PriceOf = %+v", p)
		}
	})
	t.Run("price with seven decimals is no price", func(t *testing.T) {
		card := codexCard()
		card.Prices.Output = "0.0000001"
		if p := PriceOf(Buckets{Output: 1}, NewTariff(card)); p.Cost != nil {
			t.Errorf("PriceOf = %+v, want unpriced", p)
		}
	})
	t.Run("overflow", func(t *testing.T) {
		card := codexCard()
		card.Prices.Output = "9000000"
		if p := PriceOf(Buckets{Output: maxTokens}, NewTariff(card)); !p.Overflow {
			t.Errorf("PriceOf = %+v, want overflow", p)
		}
	})
}

func TestCheckedArithmetic(t *testing.T) {
	cases := []struct {
		name   string
		f      func(a, b int64) (int64, bool)
		a, b   int64
		want   int64
		wantOK bool
	}{
		{"add", addChecked, 2, 3, 5, true},
		{"add at max", addChecked, math.MaxInt64 - 1, 1, math.MaxInt64, true},
		{"add overflow", addChecked, math.MaxInt64, 1, 0, false},
		{"add negative", addChecked, -1, 1, 0, false},
		{"mul", mulChecked, 3_000_000, 4_000_000, 12_000_000_000_000, true},
		{"mul overflow", mulChecked, 1 << 32, 1 << 31, 0, false},
		{"mul high word", mulChecked, math.MaxInt64, 3, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.f(tc.a, tc.b)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("= %d, %v; want %d, %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
	t.Run("CostOf", func(t *testing.T) {
		if m, ok := CostOf(20_000, "3"); !ok || m.String() != "0.06" {
			t.Errorf("CostOf = %s, %v", m, ok)
		}
	})
}
