package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestRatSumPrefixes reads a RatSum after every value, across the switch
// to big.Rat: each prefix sum is big.Rat's, and a result handed out is
// the caller's (changing it leaves the sum alone).
func TestRatSumPrefixes(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	e := edges()
	for range 300 {
		var s RatSum
		want := new(big.Rat)
		for range 1 + rng.IntN(20) {
			x := randomRat(rng, rng.IntN(5), e)
			s.Add(x)
			want.Add(want, x)
			got := s.Rat()
			sameRat(t, "prefix sum", got, want)
			got.Add(got, big.NewRat(7, 3))
			sameRat(t, "prefix sum after changing a result", s.Rat(), want)
		}
	}
}

// TestMediansMatchBigRat checks the medians' int64 paths (MedianInt64,
// MedianRat, MidFraction, Fraction) against big.Rat arithmetic on
// fractions not in lowest terms and at the int64 edges.
func TestMediansMatchBigRat(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	edge := []int64{math.MinInt64, math.MinInt64 + 1, -3, -1, 0, 1, 2, 6, math.MaxInt64 - 1, math.MaxInt64}
	pick := func() int64 {
		if rng.IntN(2) == 0 {
			return edge[rng.IntN(len(edge))]
		}
		return rng.Int64N(2001) - 1000
	}
	half := func(a, b *big.Rat) *big.Rat {
		r := new(big.Rat).Add(a, b)
		return r.Quo(r, big.NewRat(2, 1))
	}
	for range 20000 {
		a, b := pick(), pick()
		ad, bd := pick(), pick()
		if ad <= 0 {
			ad = 1 + rng.Int64N(12)
		}
		if bd <= 0 {
			bd = math.MaxInt64 - rng.Int64N(3)
		}
		ra, rb := big.NewRat(a, ad), big.NewRat(b, bd)
		sameRat(t, "Fraction", Fraction(a, ad), ra)
		sameRat(t, "MidFraction", MidFraction(a, ad, b, bd), half(ra, rb))
		sameRat(t, "MedianRat of two", MedianRat([]*big.Rat{rb, ra}), half(ra, rb))
		ia, ib := new(big.Rat).SetInt64(a), new(big.Rat).SetInt64(b)
		sameRat(t, "MedianInt64 of two", MedianInt64([]int64{a, b}), half(ia, ib))
	}
	if Fraction(1, 0) != nil || Fraction(1, -1) != nil {
		t.Fatal("Fraction of a non-positive denominator is not nil")
	}
}
