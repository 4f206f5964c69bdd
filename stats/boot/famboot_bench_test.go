package boot

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkFamilyBootstrap is the notes' §5.8 benchmark: G = 10,000
// families, 12 sums per family, 9 statistics, B = 10,000 resamples, two
// workers. The notes measured 0.56–1.2 s; alert above 3 s.
func BenchmarkFamilyBootstrap(b *testing.B) {
	const g, k = 10000, 12
	r := rand.New(rand.NewPCG(1, 2))
	sums := make([][]float64, g)
	for f := range sums {
		row := make([]float64, k)
		row[0] = float64(1 + r.IntN(3)) // tasks
		for c := 1; c < k; c++ {
			row[c] = row[0] * r.Float64()
		}
		sums[f] = row
	}
	st := []BootStatistic{
		macroStat("macro_a", 1, 0), macroStat("macro_b", 2, 0), diffStat("diff", 2, 1, 0),
		macroStat("cost_ratio", 4, 3), macroStat("time_ratio", 6, 5),
		macroStat("det_a", 7, 9), macroStat("det_b", 8, 9), diffStat("det_diff", 8, 7, 9),
		macroStat("fb", 10, 11),
	}
	for b.Loop() {
		if _, err := FamilyBootstrap(sums, st, BootOptions{Resamples: 10000, Seed: 1, Workers: 2}); err != nil {
			b.Fatal(err)
		}
	}
}
