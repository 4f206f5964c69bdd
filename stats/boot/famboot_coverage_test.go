package boot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/evalgate/evalgate/stats"
)

// s1Family simulates one family of scenario S1 (statistics notes §2.1):
// per task, 3 repetitions per arm of
// R = clip01(0.6 + u_f + v_t + B·(0.05 + w_f + w_t) + e), and returns
// (tasks, Σ median-of-3 A, Σ median-of-3 B).
func s1Family(r *rand.Rand, tasks int) []float64 {
	uf, wf := 0.12*r.NormFloat64(), 0.08*r.NormFloat64()
	out := []float64{float64(tasks), 0, 0}
	for range tasks {
		vt, wt := 0.08*r.NormFloat64(), 0.04*r.NormFloat64()
		for arm := range 2 {
			var reps [3]float64
			for i := range reps {
				v := 0.6 + uf + vt + float64(arm)*(0.05+wf+wt) + 0.10*r.NormFloat64()
				reps[i] = math.Min(1, math.Max(0, v))
			}
			out[1+arm] += stats.MedianFloat64(reps[:])
		}
	}
	return out
}

// s1Truth is E[median B − median A] per task, estimated from n
// independent tasks (all tasks are exchangeable, so the macro-average's
// estimand is the per-task expectation).
func s1Truth(n int) float64 {
	r := rand.New(rand.NewPCG(11, 12))
	sum := 0.0
	for range n {
		f := s1Family(r, 1)
		sum += f[2] - f[1]
	}
	return sum / float64(n)
}

// s1Layout returns the task counts of the notes' three designs.
func s1Layout(r *rand.Rand, g int) []int {
	tasks := make([]int, g)
	for i := range tasks {
		switch g {
		case 4:
			tasks[i] = 2
		case 8:
			tasks[i] = 1
		default:
			tasks[i] = 2 + r.IntN(2)
		}
	}
	return tasks
}

// TestCoverageS1 checks coverage of the paired B−A macro-average against
// the notes' reference values (nsim=4000) with tolerance ±0.04, the hard
// sanity bands of §5.2, and the switch rule: the primary interval
// (PrimaryMethod) covers at least 0.92 at every G, 4 families included.
// 2,000 simulated campaigns of 1,000 resamples per G, fixed seeds; it
// prints the README's coverage table (go test -run TestCoverageS1 -v).
func TestCoverageS1(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage simulation skipped in -short mode")
	}
	const nsim, b = 2000, 1000
	truth := s1Truth(1_000_000)
	ref := map[int][3]float64{ // expanded, t-CR1, percentile (notes §2.2, README at G = 5, 6, 12)
		4: {0.88, 0.95, 0.81}, 5: {0.915, 0.95, 0.84}, 6: {0.93, 0.95, 0.86}, 8: {0.94, 0.95, 0.885},
		12: {0.947, 0.947, 0.907}, 20: {0.95, 0.95, 0.93},
	}
	table := "| families | primary (switch rule) | expanded percentile | cluster-robust t | plain percentile (diagnostic) |\n|---|---|---|---|---|\n"
	for _, g := range []int{4, 5, 6, 8, 12, 20} {
		cov := coverageS1(t, g, nsim, b, truth)
		for m, method := range BootMethods {
			if math.Abs(cov[m]-ref[g][m]) > 0.04 {
				t.Errorf("G=%d: %s coverage %.4f, reference %.3f ± 0.04", g, method, cov[m], ref[g][m])
			}
			if cov[m] > 0.97 {
				t.Errorf("G=%d: %s coverage %.4f > 0.97: double counting?", g, method, cov[m])
			}
		}
		exp, cr1, primary := cov[0], cov[1], cov[3]
		if cr1 < 0.92 || (g == 4 && exp < 0.83) || (g >= 8 && exp < 0.92) {
			t.Errorf("G=%d: outside the hard bands: expanded %.4f, t-CR1 %.4f", g, exp, cr1)
		}
		if primary < 0.92 {
			t.Errorf("G=%d: primary interval (%s) covers %.4f < 0.92", g, PrimaryMethod(g), primary)
		}
		table += fmt.Sprintf("| %d | %.3f (%s) | %.3f | %.3f | %.3f |\n", g, primary, primaryName(g), exp, cr1, cov[2])
	}
	t.Logf("coverage, %d simulated campaigns of %d resamples per row:\n%s", nsim, b, table)
}

func primaryName(g int) string {
	if PrimaryMethod(g) == MethodCR1T {
		return "cluster t"
	}
	return "expanded"
}

// coverageS1 simulates nsim datasets of scenario S1 with g families and
// returns the share of intervals per method (expanded, t-CR1, percentile,
// then the primary method of the switch rule) that cover the true paired
// difference. The statistic carries its range [−1, 1], as the intervals
// stage gives a difference of fractions.
func coverageS1(t testing.TB, g, nsim, b int, truth float64) [4]float64 {
	r := rand.New(rand.NewPCG(uint64(g), 2024))
	st := []BootStatistic{diffStat("diff", 2, 1, 0)}
	st[0].Range = &[2]float64{-1, 1}
	var hits [4]int
	for sim := range nsim {
		sums := make([][]float64, g)
		for f, n := range s1Layout(r, g) {
			sums[f] = s1Family(r, n)
		}
		e := mustBoot(t, sums, st, BootOptions{Resamples: b, Seed: uint64(sim), Workers: 2})[0]
		for m, bd := range e.Bounds {
			if bd.Lo <= truth && truth <= bd.Hi {
				hits[m]++
				if bd.Method == e.Primary {
					hits[3]++
				}
			}
		}
	}
	var cov [4]float64
	for m := range cov {
		cov[m] = float64(hits[m]) / float64(nsim)
	}
	return cov
}

// BenchmarkCoverageS1 is the longer coverage simulation of the statistics
// notes §5 (nsim = 4000, B = 2000) for several family counts. It reports
// the coverage of every method as benchmark metrics, e.g.
//
//	go test -run '^$' -bench CoverageS1 -benchtime 1x ./stats/boot
func BenchmarkCoverageS1(b *testing.B) {
	const nsim, resamples = 4000, 2000
	truth := s1Truth(1_000_000)
	for _, g := range []int{4, 5, 6, 8, 12, 20} {
		b.Run(fmt.Sprintf("G%d", g), func(b *testing.B) {
			var cov [4]float64
			for b.Loop() {
				cov = coverageS1(b, g, nsim, resamples, truth)
			}
			for m, method := range BootMethods {
				b.ReportMetric(cov[m], "cov-"+string(method))
			}
			b.ReportMetric(cov[3], "cov-primary")
		})
	}
}
