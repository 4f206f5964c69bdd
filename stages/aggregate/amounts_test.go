package aggregate

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
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
		var s, head, tail exactSum // head and tail: ms split in two and merged
		var rats []*big.Rat
		cut := rng.IntN(n + 1)
		for i, m := range ms {
			a.add(m)
			s.add(m)
			if i < cut {
				head.add(m)
			} else {
				tail.add(m)
			}
			rats = append(rats, moneyRat(m))
		}
		head.merge(&tail)
		if got, want := a.median(), stats.MedianRat(rats); !same(got, want) {
			t.Fatalf("trial %d: median %v, want %v", trial, got, want)
		}
		sorting := amounts{xs: slices.Clone(a.xs), unknown: a.unknown}
		if got, want := sorting.sortedMedian(), stats.MedianRat(rats); !same(got, want) {
			t.Fatalf("trial %d: sortedMedian %v, want %v", trial, got, want)
		}
		if got, want := a.total(), stats.Sum(rats); !same(got, want) {
			t.Fatalf("trial %d: amounts total %v, want %v", trial, got, want)
		}
		if got, want := s.total(), stats.Sum(rats); !same(got, want) {
			t.Fatalf("trial %d: exactSum total %v, want %v", trial, got, want)
		}
		if got, want := head.total(), stats.Sum(rats); !same(got, want) {
			t.Fatalf("trial %d: merged exactSum total %v, want %v", trial, got, want)
		}
	}
}

// TestFractionsMatchRationals checks fractions' median against
// stats.MedianRat of stats.Fraction of the same values (the computation it
// replaces), with unknown values, non-positive denominators, equal values
// written differently and the int64 edges.
func TestFractionsMatchRationals(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	edge := []int64{math.MinInt64, math.MinInt64 + 1, -1, 0, 1, 2, math.MaxInt64 - 1, math.MaxInt64}
	pick := func() int64 {
		if rng.IntN(3) == 0 {
			return edge[rng.IntN(len(edge))]
		}
		return rng.Int64N(13) - 4
	}
	for trial := range 5000 {
		var f fractions
		var rats []*big.Rat
		for range rng.IntN(7) {
			num, den, known := pick(), pick(), rng.IntN(10) != 0
			f.add(num, den, known)
			var r *big.Rat
			if known {
				r = stats.Fraction(num, den)
			}
			rats = append(rats, r)
		}
		got, want := f.median(), stats.MedianRat(rats)
		if (got == nil) != (want == nil) || (got != nil && got.Cmp(want) != 0) {
			t.Fatalf("trial %d: median %v, want %v (of %v)", trial, got, want, rats)
		}
	}
}

// TestCompareFractionsMatchesCmp checks the 128-bit order against
// big.Rat.Cmp at the int64 edges, where the cross products overflow 64 bits.
func TestCompareFractionsMatchesCmp(t *testing.T) {
	nums := []int64{math.MinInt64, math.MinInt64 + 1, -3, -1, 0, 1, 3, math.MaxInt64 - 1, math.MaxInt64}
	dens := []int64{1, 2, 3, math.MaxInt64 - 1, math.MaxInt64}
	for _, a := range nums {
		for _, b := range dens {
			for _, c := range nums {
				for _, d := range dens {
					got := compareFractions(fraction{a, b}, fraction{c, d})
					if want := big.NewRat(a, b).Cmp(big.NewRat(c, d)); got != want {
						t.Fatalf("compare %d/%d with %d/%d = %d, want %d", a, b, c, d, got, want)
					}
				}
			}
		}
	}
}
