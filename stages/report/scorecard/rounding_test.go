package scorecard

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestRoundedFastMatchesBig checks rounded (its 64-bit path where it
// applies) against roundedBig, the big.Int computation, on random values
// of several magnitudes and the edges of the 64-bit path: halves, the
// int64 limits, denominators of 63 and 64 bits, quotients near 2^64.
func TestRoundedFastMatchesBig(t *testing.T) {
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	two63 := new(big.Int).Lsh(big.NewInt(1), 63)
	edges := []*big.Rat{
		new(big.Rat), big.NewRat(1, 2), big.NewRat(-1, 2), big.NewRat(5, 100000), big.NewRat(-5, 100000),
		big.NewRat(15, 100000), big.NewRat(25, 100000), big.NewRat(2, 3), big.NewRat(-2, 3),
		big.NewRat(math.MaxInt64, 1), big.NewRat(math.MinInt64, 1), big.NewRat(math.MinInt64, 3),
		big.NewRat(1, math.MaxInt64), big.NewRat(math.MaxInt64, math.MaxInt64-1),
		new(big.Rat).SetInt(two63), new(big.Rat).SetInt(new(big.Int).Sub(two64, big.NewInt(1))),
		new(big.Rat).SetInt(two64), new(big.Rat).SetFrac(big.NewInt(1), two63),
		new(big.Rat).SetFrac(new(big.Int).Sub(two64, big.NewInt(1)), new(big.Int).Sub(two63, big.NewInt(1))),
		big.NewRat(1844674407370955161, 1), big.NewRat(18446744073709551, 10000),
	}
	check := func(r *big.Rat, digits int) {
		t.Helper()
		if got, want := rounded(r, digits), roundedBig(r, digits); got != want {
			t.Fatalf("rounded(%s, %d) = %q, roundedBig %q", r.RatString(), digits, got, want)
		}
	}
	for _, r := range edges {
		for digits := range 22 {
			check(r, digits)
		}
	}
	rng := rand.New(rand.NewPCG(29, 741))
	for range 20000 {
		num := rng.Int64() >> rng.IntN(64)
		if rng.IntN(2) == 0 {
			num = -num
		}
		den := 1 + rng.Int64()>>rng.IntN(64)
		if rng.IntN(4) == 0 {
			den = int64(rng.IntN(2)+1) * []int64{1, 2, 4, 5, 8, 10, 16, 20, 25, 100, 1000, 3, 7}[rng.IntN(13)]
		}
		check(big.NewRat(num, den), rng.IntN(8))
	}
}
