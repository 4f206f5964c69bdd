package stats

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// BenchmarkSum sums 1,000 values of two of evalgate's shapes (task medians
// of money in pico-units, integers and halves; scores over small
// denominators) with Sum and, for comparison, with big.Rat.Add. Run with
// -benchmem: Sum's allocations do not grow with the count.
func BenchmarkSum(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := []struct {
		name string
		kind int
	}{{"money", 0}, {"scores", 1}}
	for _, sh := range shapes {
		xs := make([]*big.Rat, 1000)
		for i := range xs {
			xs[i] = randomRat(rng, sh.kind, nil)
		}
		b.Run(sh.name+"/Sum", func(b *testing.B) {
			for b.Loop() {
				Sum(xs)
			}
		})
		b.Run(sh.name+"/big.Rat", func(b *testing.B) {
			for b.Loop() {
				refSum(xs)
			}
		})
	}
}

// BenchmarkCmp compares a ratio with a threshold of another denominator,
// the gates' comparison, with Cmp and with big.Rat.Cmp.
func BenchmarkCmp(b *testing.B) {
	x, y := big.NewRat(1073, 1000), big.NewRat(11, 10)
	b.Run("Cmp", func(b *testing.B) {
		for b.Loop() {
			Cmp(x, y)
		}
	})
	b.Run("big.Rat", func(b *testing.B) {
		for b.Loop() {
			x.Cmp(y)
		}
	})
}
