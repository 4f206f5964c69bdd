package intervals

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// benchCampaign is a two-profile reviewer benchmark manifest.
func benchCampaign(resamples int64) *tables.Campaign {
	return &tables.Campaign{Manifest: tables.Manifest{CampaignID: "sim", Kind: rules.KindReviewerBenchmark,
		Design:    tables.Design{Arms: []tables.Arm{{ID: "baseline"}, {ID: "candidate"}}},
		Intervals: tables.IntervalPlan{Resamples: resamples, Seed: 7}}}
}

// simulatedReviews draws one campaign of g families: per family and
// profile, 2 variants × 2 runs whose detection probability is the family's
// own (its variants and runs are correlated, as in a real benchmark), and
// 2 clean runs. The population detection rate of a profile is the mean of
// its family probabilities' distribution, known exactly.
func simulatedReviews(rng *rand.Rand, g int, probs []float64) []tables.ReviewRow {
	var out []tables.ReviewRow
	for f := range g {
		fam := fmt.Sprintf("F%02d", f)
		p := probs[rng.IntN(len(probs))]
		for _, profile := range []string{"baseline", "candidate"} {
			for i := range 4 {
				hit := rng.Float64() < p
				out = append(out, tables.ReviewRow{CaseID: fmt.Sprintf("%s-v%d", fam, i/2+1), Family: fam, CaseKind: tables.CaseVariant,
					Label: tables.LabelAudited, Profile: profile, Run: int64(i%2 + 1), Detected: &hit, Decidable: true})
			}
			for run := range 2 {
				no := false
				out = append(out, tables.ReviewRow{CaseID: fam + "-clean", Family: fam, CaseKind: tables.CaseClean,
					Label: tables.LabelAudited, Profile: profile, Run: int64(run + 1), Blocked: &no, Decidable: true})
			}
		}
	}
	return out
}

// TestBenchmarkRateCoverage is the coverage simulation of the reviewer
// benchmark's detection rate at 20 families: 400 simulated campaigns, 1,000
// resamples each. The family probabilities are 0.5, 0.7, 0.9 and 1 with
// equal weight, so the true rate is exactly 0.775. The primary expanded
// percentile interval must cover it in 0.90–0.98 of campaigns (nominal
// 0.95; ±0.05 is more than 4 binomial standard deviations at 400).
func TestBenchmarkRateCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	rng := rand.New(rand.NewPCG(20261016, 1))
	const nsim, truth = 400, 0.775
	covered, counted := 0, 0
	for range nsim {
		out := Benchmark(benchCampaign(1000), simulatedReviews(rng, 20, []float64{0.5, 0.7, 0.9, 1}), Options{Workers: 1})
		for _, r := range out.Intervals {
			if r.Statistic != StatDetection || r.Arm != "baseline" || r.Method != "family_bootstrap_expanded_percentile" {
				continue
			}
			if r.Lo == nil || r.Hi == nil {
				continue
			}
			counted++
			if *r.Lo <= truth && truth <= *r.Hi {
				covered++
			}
		}
	}
	if counted < nsim*9/10 {
		t.Fatalf("only %d of %d campaigns had an interval", counted, nsim)
	}
	if c := float64(covered) / float64(counted); c < 0.90 || c > 0.98 {
		t.Errorf("coverage %.3f (%d/%d), want 0.90–0.98", c, covered, counted)
	} else {
		t.Logf("coverage %.3f (%d/%d)", c, covered, counted)
	}
}

// TestBenchmarkIntervalsPoints: the point estimates are the exact rates
// the metrics report, families move together (a family's attempts of both
// profiles), and every row is exploratory.
func TestBenchmarkIntervalsPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rows := simulatedReviews(rng, 6, []float64{0.5, 1})
	var det, n int64
	for _, r := range rows {
		if r.Profile == "candidate" && r.CaseKind == tables.CaseVariant {
			n++
			if *r.Detected {
				det++
			}
		}
	}
	out := Benchmark(benchCampaign(500), rows, Options{})
	seen := 0
	for _, r := range out.Intervals {
		if r.Label != Label || r.GateEffect != GateEffect || r.NFamilies > 6 {
			t.Errorf("row %+v is not exploratory or counts more families than exist", r)
		}
		if r.Statistic == StatDetection && r.Arm == "candidate" {
			seen++
			if want := float64(det) / float64(n); r.Estimate == nil || *r.Estimate != want {
				t.Errorf("estimate %v, want %d/%d", r.Estimate, det, n)
			}
		}
		if r.Lo != nil && (*r.Lo < -1 || r.Unit == "fraction" && *r.Lo < 0) || r.Hi != nil && *r.Hi > 1 {
			t.Errorf("row %s %s %s leaves its range: [%v, %v]", r.Statistic, r.Arm, r.Method, *r.Lo, *r.Hi)
		}
		if r.Statistic == StatBlocking && r.Status != "no_events" {
			t.Errorf("blocking with no blocked attempt has status %s, want no_events", r.Status)
		}
	}
	if seen != 3 {
		t.Errorf("%d candidate detection rows, want one per method", seen)
	}
}
