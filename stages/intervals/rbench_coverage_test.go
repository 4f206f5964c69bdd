package intervals

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// The coverage simulation of the reviewer benchmark's interval
// (MethodRateHull) at the family counts of CoverageFamilies. Each
// simulated campaign has the pilot's shape per family and profile: one
// audited clean case and two variants, two runs each. A family's
// probabilities are logistic(μ_profile + z_f + 0.5·w_{f,profile}), z_f
// and w standard normal: its variants and runs share the family's
// difficulty z_f (detection and blocking each their own), both profiles
// share it too (so the difference is paired), and each profile varies
// around it. The true rate is E[p] and the true difference E[p_c − p_b]
// under that distribution, computed from 200,000 draws of a separate
// generator (a Monte Carlo error below 0.002). Coverage is counted over
// the campaigns that print an interval, since a campaign whose rate the
// rule withholds (degenerate, no events, or outside the tested range)
// claims nothing.

// rbScenario is one data-generating process: logit means per profile
// (baseline, candidate) of detection, blocking on clean and decidability.
type rbScenario struct {
	name          string
	det, blk, dec [2]float64
}

var rbScenarios = []rbScenario{
	{"middle, no change", [2]float64{0, 0}, [2]float64{0, 0}, [2]float64{1, 1}},
	{"the example's shape", [2]float64{1.5, 2.5}, [2]float64{-1, -2.5}, [2]float64{2, 2}},
	{"improvement from low", [2]float64{-1, 1}, [2]float64{-1.5, -1.5}, [2]float64{0.5, 1.5}},
	{"near the bounds", [2]float64{2.5, 2.5}, [2]float64{-2.5, -2.5}, [2]float64{3, 3}},
	{"regression", [2]float64{0, -1}, [2]float64{-2.5, -1.5}, [2]float64{0, -0.5}},
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// familyProbs draws one family's probabilities [kind][profile] (kind:
// detection, blocking, decidability).
func (s rbScenario) familyProbs(r *rand.Rand) [3][2]float64 {
	var out [3][2]float64
	for k, mu := range [3][2]float64{s.det, s.blk, s.dec} {
		z := r.NormFloat64()
		for p := range 2 {
			out[k][p] = logistic(mu[p] + z + 0.5*r.NormFloat64())
		}
	}
	return out
}

// truths returns each statistic's true value keyed by statistic and arm.
func (s rbScenario) truths() map[[2]string]float64 {
	r := rand.New(rand.NewPCG(20261017, 3))
	const n = 200_000
	var sum [3][2]float64
	for range n {
		ps := s.familyProbs(r)
		for k := range ps {
			for p := range 2 {
				sum[k][p] += ps[k][p]
			}
		}
	}
	m := func(k, p int) float64 { return sum[k][p] / n }
	return map[[2]string]float64{
		{StatDetection, "baseline"}: m(0, 0), {StatDetection, "candidate"}: m(0, 1),
		{StatBlocking, "baseline"}: m(1, 0), {StatBlocking, "candidate"}: m(1, 1),
		{StatCoverage, "baseline"}: m(2, 0), {StatCoverage, "candidate"}: m(2, 1),
		{StatDetectionDiff, "candidate"}: m(0, 1) - m(0, 0), {StatBlockingDiff, "candidate"}: m(1, 1) - m(1, 0),
	}
}

// campaign draws one simulated campaign of g families.
func (s rbScenario) campaign(r *rand.Rand, g int) []tables.ReviewRow {
	var out []tables.ReviewRow
	for f := range g {
		fam := fmt.Sprintf("F%02d", f)
		ps := s.familyProbs(r)
		for pi, profile := range []string{"baseline", "candidate"} {
			for i := range 6 {
				row := tables.ReviewRow{Family: fam, Label: tables.LabelAudited, Profile: profile, Run: int64(i%2 + 1),
					Decidable: r.Float64() < ps[2][pi]}
				hit := r.Float64() < ps[min(i/4, 1)][pi]
				if i < 4 {
					row.CaseID, row.CaseKind, row.Detected = fmt.Sprintf("%s-v%d", fam, i/2+1), tables.CaseVariant, &hit
				} else {
					row.CaseID, row.CaseKind, row.Blocked = fam+"-clean", tables.CaseClean, &hit
				}
				out = append(out, row)
			}
		}
	}
	return out
}

// coverageCell is one (scenario, statistic, arm, G): intervals printed
// and how many covered the truth.
type coverageCell struct{ printed, covered int }

func (c coverageCell) rate() float64 { return float64(c.covered) / float64(c.printed) }

// simulateCoverage runs nsim campaigns per scenario and family count with
// b resamples each and returns the cells keyed by scenario, statistic,
// arm and G.
func simulateCoverage(nsim, b int) map[string]*coverageCell {
	cells := map[string]*coverageCell{}
	p := plan{cluster: ClusterFamily, resamples: b, workers: 1}
	arms := []string{"baseline", "candidate"}
	for si, s := range rbScenarios {
		truth := s.truths()
		for _, g := range CoverageFamilies {
			r := rand.New(rand.NewPCG(uint64(si+1), uint64(g)))
			for sim := range nsim {
				p.seed = uint64(sim + 1)
				for _, row := range benchmarkScope("sim", p, arms, rbScope{ScopeAll, "m"}, s.campaign(r, g)) {
					key := fmt.Sprintf("%s|%s|%s|%d", s.name, row.Statistic, row.Arm, g)
					c := cells[key]
					if c == nil {
						c = &coverageCell{}
						cells[key] = c
					}
					if row.Lo == nil || row.Hi == nil {
						continue
					}
					c.printed++
					if v := truth[[2]string{row.Statistic, row.Arm}]; *row.Lo <= v && v <= *row.Hi {
						c.covered++
					}
				}
			}
		}
	}
	return cells
}

// TestRateHullCoverage: at every family count of CoverageFamilies, each
// statistic's printed intervals, pooled over the scenarios and profiles,
// cover the truth in at least 0.92 of the simulated campaigns that print
// one, and so does every family count as a whole. 100 campaigns of 500
// resamples per scenario and family count (a few seconds of one core),
// fixed seeds: the same numbers every run. BenchmarkRateHullCoverage
// checks every single scenario, statistic and profile at 1,000 campaigns
// of 1,000 resamples.
func TestRateHullCoverage(t *testing.T) {
	checkCoverage(t, simulateCoverage(100, 500), false)
}

// BenchmarkRateHullCoverage is the long coverage simulation: every cell
// (scenario, statistic, profile, family count) with at least 100 printed
// intervals must cover at least 0.92; it reports the lowest cell.
//
//	go test -run '^$' -bench RateHullCoverage -benchtime 1x ./stages/intervals
func BenchmarkRateHullCoverage(b *testing.B) {
	for b.Loop() {
		b.ReportMetric(checkCoverage(b, simulateCoverage(1000, 1000), true), "min-cell-coverage")
	}
}

// checkCoverage fails below 0.92 for every family count and every
// (statistic, family count) pooled over scenarios and profiles, and with
// perCell for every cell of at least 100 printed intervals; it logs the
// table and returns the lowest coverage it checked.
func checkCoverage(t testing.TB, cells map[string]*coverageCell, perCell bool) float64 {
	keys := make([]string, 0, len(cells))
	for k := range cells {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	pooled := map[string]*coverageCell{}
	add := func(key string, c *coverageCell) {
		if pooled[key] == nil {
			pooled[key] = &coverageCell{}
		}
		pooled[key].printed += c.printed
		pooled[key].covered += c.covered
	}
	lowest := 1.0
	check := func(what string, c *coverageCell) {
		if c.rate() < 0.92 {
			t.Errorf("%s: coverage %.3f (%d/%d) < 0.92", what, c.rate(), c.covered, c.printed)
		}
		lowest = min(lowest, c.rate())
	}
	var table strings.Builder
	for _, k := range keys {
		c := cells[k]
		parts := strings.Split(k, "|") // scenario, statistic, arm, G
		add("G="+parts[3], c)
		add(parts[1]+" at G="+parts[3], c)
		fmt.Fprintf(&table, "%s: %d/%d printed covered\n", k, c.covered, c.printed)
		if perCell && c.printed >= 100 {
			check(k, c)
		}
	}
	pk := make([]string, 0, len(pooled))
	for k := range pooled {
		pk = append(pk, k)
	}
	slices.Sort(pk)
	for _, k := range pk {
		c := pooled[k]
		if c.printed == 0 {
			t.Errorf("%s: no interval printed", k)
			continue
		}
		fmt.Fprintf(&table, "%s pooled: %.3f of %d printed\n", k, c.rate(), c.printed)
		check(k, c)
	}
	for _, g := range CoverageFamilies {
		if pooled[fmt.Sprintf("G=%d", g)] == nil {
			t.Errorf("G=%d: not simulated", g)
		}
	}
	t.Logf("coverage of %s:\n%s", MethodRateHull, table.String())
	return lowest
}
