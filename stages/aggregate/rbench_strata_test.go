package aggregate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// strataRows builds a selection and a final split, one clean and one
// variant case per family, of two model strata: in stratum m-a run 1 of
// every case, in m-b run 2. blocked[profile][model] is how many of the 4
// clean attempts of that split the profile blocks; every variant is
// detected by both profiles.
func strataRows(blocked map[string]map[string]int) []tables.ReviewRow {
	var rows []tables.ReviewRow
	yes := true
	for _, split := range []string{tables.SplitSelection, tables.SplitFinal} {
		for f := range 4 {
			fam := fmt.Sprintf("%s-F%d", split, f)
			for _, profile := range []string{"baseline", "candidate"} {
				for run, model := range []string{"m-a", "m-b"} {
					b := f < blocked[profile][model]
					rows = append(rows,
						tables.ReviewRow{CaseID: fam + "-clean", Family: fam, Split: split, CaseKind: tables.CaseClean, Label: tables.LabelAudited,
							Profile: profile, Model: model, Run: int64(run + 1), Status: tables.ReviewStatusCompleted, Decidable: true, Blocked: &b},
						tables.ReviewRow{CaseID: fam + "-v1", Family: fam, Split: split, CaseKind: tables.CaseVariant, Label: tables.LabelAudited,
							Profile: profile, Model: model, Run: int64(run + 1), Status: tables.ReviewStatusCompleted, Decidable: true, Detected: &yes})
				}
			}
		}
	}
	return rows
}

// TestPromotionWithinEachModelStratum: the candidate blocks fewer clean
// attempts pooled over the two model strata (baseline 3 + 0, candidate
// 0 + 1 on each split), but more in stratum m-b: it is observed worse
// there, so it does not advance. Blocking fewer in m-a and as many in m-b
// is not shown better in m-b: inconclusive. Fewer in both: advance.
func TestPromotionWithinEachModelStratum(t *testing.T) {
	c := &tables.Campaign{Manifest: tables.Manifest{Kind: tables.KindReviewerBenchmark,
		Design:     tables.Design{Arms: []tables.Arm{{ID: "baseline"}, {ID: "candidate"}}},
		GatePolicy: tables.GatePolicy{Preset: string(tables.PresetReviewerBenchmark)}}}
	cap, zero := tables.Money(150_000_000_000_000), tables.Money(0)
	commitment := tables.Commitment{Cap: &cap, Accounted: &zero, Held: &zero, Reserved: &zero, Committed: &zero, Remaining: &cap}
	for _, tc := range []struct {
		name     string
		blocked  map[string]map[string]int
		decision tables.Verdict
		failing  string
	}{
		{"worse in one stratum", map[string]map[string]int{"baseline": {"m-a": 3, "m-b": 0}, "candidate": {"m-a": 0, "m-b": 1}},
			tables.DecisionDoNotAdvance, "rb_blocking_selection,rb_blocking_final"},
		{"tied in one stratum", map[string]map[string]int{"baseline": {"m-a": 3, "m-b": 1}, "candidate": {"m-a": 0, "m-b": 1}},
			tables.DecisionInconclusive, "rb_blocking_selection,rb_blocking_final"},
		{"fewer in both", map[string]map[string]int{"baseline": {"m-a": 3, "m-b": 2}, "candidate": {"m-a": 0, "m-b": 1}},
			tables.DecisionAdvance, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := Benchmark(c, tables.ReviewsScored{Reviews: strataRows(tc.blocked)}, commitment)
			if len(out.Problems) > 0 {
				t.Fatalf("problems: %v", out.Problems)
			}
			d := out.Decision[0]
			if d.Decision != tc.decision || strings.Join(d.FailingGates, ",") != tc.failing {
				t.Errorf("decision %s failing %q, want %s %q (%s)", d.Decision, d.FailingGates, tc.decision, tc.failing, d.Reason)
			}
			for _, g := range out.Gates {
				if g.Gate == tables.GateRbBlockingSelection {
					t.Logf("%s: %s", g.Gate, g.Observed)
				}
			}
		})
	}
}
