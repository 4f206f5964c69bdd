package aggregate

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// TestAmountsMatchRationals checks amounts and exactSum against stats.Sum
// and stats.MedianRat over the same amounts as rationals (the computation
// they replace), on random amounts with nulls, near the int64 edges and
// empty.
func TestAmountsMatchRationals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	same := func(a, b *big.Rat) bool { return (a == nil) == (b == nil) && (a == nil || a.Cmp(b) == 0) }
	for trial := range 2000 {
		n := rng.IntN(7)
		var ms []*tables.Money
		for range n {
			var m *tables.Money
			switch rng.IntN(8) {
			case 0: // null
			case 1:
				v := tables.Money(math.MaxInt64 - rng.Int64N(3))
				m = &v
			case 2:
				v := tables.Money(math.MinInt64 + rng.Int64N(3))
				m = &v
			default:
				v := tables.Money(rng.Int64N(1000) - 10)
				m = &v
			}
			ms = append(ms, m)
		}
		var a amounts
		var s exactSum
		var rats []*big.Rat
		for _, m := range ms {
			a.add(m)
			s.add(m)
			rats = append(rats, moneyRat(m))
		}
		if got, want := a.median(), stats.MedianRat(rats); !same(got, want) {
			t.Fatalf("trial %d: median %v, want %v", trial, got, want)
		}
		if got, want := a.total(), stats.Sum(rats); !same(got, want) {
			t.Fatalf("trial %d: amounts total %v, want %v", trial, got, want)
		}
		if got, want := s.total(), stats.Sum(rats); !same(got, want) {
			t.Fatalf("trial %d: exactSum total %v, want %v", trial, got, want)
		}
	}
}
