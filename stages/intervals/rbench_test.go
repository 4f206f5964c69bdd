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
	if seen != 1 {
		t.Errorf("%d candidate detection rows, want one (one scope, one method)", seen)
	}
}

// scopedReviews is a benchmark of model m1 with five selection families
// (baseline family i detecting i−1 of its 4 variant attempts: 10/20; the
// candidate 3 in family 1 and 4 elsewhere: 19/20; no clean attempt
// blocked) and seven development families, and model m2 with the same
// five selection families.
func scopedReviews() []tables.ReviewRow {
	var out []tables.ReviewRow
	add := func(model, split string, f int, baselineHits, candidateHits int) {
		fam := fmt.Sprintf("F%02d", f)
		for _, pr := range []struct {
			name string
			hits int
		}{{"baseline", baselineHits}, {"candidate", candidateHits}} {
			for i := range 4 {
				hit := i < pr.hits
				out = append(out, tables.ReviewRow{CaseID: fmt.Sprintf("%s-v%d", fam, i/2+1), Family: fam, Split: split, Model: model,
					CaseKind: tables.CaseVariant, Label: tables.LabelAudited, Profile: pr.name, Run: int64(i%2 + 1), Detected: &hit, Decidable: true})
			}
			for run := range 2 {
				no := false
				out = append(out, tables.ReviewRow{CaseID: fam + "-clean", Family: fam, Split: split, Model: model,
					CaseKind: tables.CaseClean, Label: tables.LabelAudited, Profile: pr.name, Run: int64(run + 1), Blocked: &no, Decidable: true})
			}
		}
	}
	for _, model := range []string{"m1", "m2"} {
		for f := 1; f <= 5; f++ {
			add(model, tables.SplitSelection, f, f-1, min(4, 2+f))
		}
	}
	for f := 6; f <= 12; f++ {
		add("m1", tables.SplitDevelopment, f, f%3, 2)
	}
	return out
}

// TestBenchmarkScopes: one row per statistic and scope (split within a
// model stratum, strata never pooled), bounds only where the coverage
// simulation ran: 12 and 7 families are untested counts, a rate of 19/20
// lies outside the tested range, a rate with no event has none.
func TestBenchmarkScopes(t *testing.T) {
	out := Benchmark(benchCampaign(500), scopedReviews(), Options{Workers: 1})
	type key struct{ model, split, stat, arm string }
	got := map[key]tables.Interval{}
	for _, r := range out.Intervals {
		k := key{r.Model, r.Split, r.Statistic, r.Arm}
		if _, dup := got[k]; dup {
			t.Errorf("two rows for %+v", k)
		}
		got[k] = r
		if r.Method != MethodRateHull || !r.Primary || r.Label != Label {
			t.Errorf("row %+v: want the one primary %s row, exploratory", k, MethodRateHull)
		}
	}
	// m1: all (12 families), development (7), selection (5); m2: all, selection (5 each); 8 statistics each.
	if len(out.Intervals) != 5*8 {
		t.Errorf("%d rows, want 40", len(out.Intervals))
	}
	cases := []struct {
		k        key
		families int64
		status   string
		bounds   bool
		estimate float64
	}{
		{key{"m1", ScopeAll, StatDetection, "baseline"}, 12, StatusCoverageUntestedFamilies, false, 16.0 / 48}, // 10 + (0+1+2+0+1+2+0)
		{key{"m1", tables.SplitDevelopment, StatDetection, "baseline"}, 7, StatusCoverageUntestedFamilies, false, 6.0 / 28},
		{key{"m1", tables.SplitDevelopment, StatDetection, "candidate"}, 7, "degenerate_zero_variance", false, 0.5}, // 2 of 4 in every family
		{key{"m1", tables.SplitSelection, StatDetection, "baseline"}, 5, "ok", true, 0.5},
		{key{"m2", tables.SplitSelection, StatDetection, "baseline"}, 5, "ok", true, 0.5},
		{key{"m1", tables.SplitSelection, StatDetection, "candidate"}, 5, StatusCoverageUntestedExtreme, false, 19.0 / 20},
		{key{"m1", tables.SplitSelection, StatDetectionDiff, "candidate"}, 5, "ok", true, 9.0 / 20},
		{key{"m1", tables.SplitSelection, StatBlocking, "baseline"}, 5, "no_events", false, 0},
	}
	for _, c := range cases {
		r, ok := got[c.k]
		if !ok {
			t.Errorf("no row %+v", c.k)
			continue
		}
		if r.NFamilies != c.families || r.Status != c.status || (r.Lo != nil) != c.bounds || (r.Hi != nil) != c.bounds ||
			r.Estimate == nil || *r.Estimate != c.estimate {
			t.Errorf("%+v: families %d status %s bounds %v/%v estimate %v; want %d %s bounds=%v %v",
				c.k, r.NFamilies, r.Status, r.Lo, r.Hi, r.Estimate, c.families, c.status, c.bounds, c.estimate)
		}
	}
	if _, ok := got[key{"m2", tables.SplitDevelopment, StatDetection, "baseline"}]; ok {
		t.Errorf("a scope without attempts has rows")
	}
}
