package aggregate

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// strataRows builds a selection and a final split, one clean and one
// variant case per family, of two model strata: in stratum m-a run 1 of
// every case, in m-b run 2. blocked[profile][model] is how many of the 4
// clean attempts of that split the profile blocks; detected[profile][model]
// how many of the 4 variant attempts it detects (all 4 when absent).
func strataRows(blocked, detected map[string]map[string]int) []tables.ReviewRow {
	var rows []tables.ReviewRow
	for _, split := range []string{tables.SplitSelection, tables.SplitFinal} {
		for f := range 4 {
			fam := fmt.Sprintf("%s-F%d", split, f)
			for _, profile := range []string{"baseline", "candidate"} {
				for run, model := range []string{"m-a", "m-b"} {
					b := f < blocked[profile][model]
					n, ok := detected[profile][model]
					if !ok {
						n = 4
					}
					d := f < n
					rows = append(rows,
						tables.ReviewRow{CaseID: fam + "-clean", Family: fam, Split: split, CaseKind: tables.CaseClean, Label: tables.LabelAudited,
							Profile: profile, Model: model, Run: int64(run + 1), Status: tables.ReviewStatusCompleted, Decidable: true, Blocked: &b},
						tables.ReviewRow{CaseID: fam + "-v1", Family: fam, Split: split, CaseKind: tables.CaseVariant, Label: tables.LabelAudited,
							Profile: profile, Model: model, Run: int64(run + 1), Status: tables.ReviewStatusCompleted, Decidable: true, Detected: &d})
				}
			}
		}
	}
	return rows
}

// strataCampaign is a reviewer benchmark of the preset's gates with the
// whole $150 cap remaining: only the review rows decide.
func strataCampaign() (*tables.Campaign, tables.Commitment) {
	c := &tables.Campaign{Manifest: tables.Manifest{Kind: rules.KindReviewerBenchmark,
		Design:     tables.Design{Arms: []tables.Arm{{ID: "baseline"}, {ID: "candidate"}}},
		GatePolicy: tables.GatePolicy{Preset: string(rules.PresetReviewerBenchmark)}}}
	cap, zero := tables.Money(150_000_000_000_000), tables.Money(0)
	return c, tables.Commitment{Cap: &cap, Accounted: &zero, Held: &zero, Reserved: &zero, Committed: &zero, Remaining: &cap}
}

// fewerInBoth is a candidate that blocks fewer clean attempts than the
// baseline in both strata (m-a 3 → 0, m-b 2 → 1): with every variant
// detected, it advances.
var fewerInBoth = map[string]map[string]int{"baseline": {"m-a": 3, "m-b": 2}, "candidate": {"m-a": 0, "m-b": 1}}

// TestPromotionWithinEachModelStratum: the candidate blocks fewer clean
// attempts pooled over the two model strata (baseline 3 + 0, candidate
// 0 + 1 on each split), but more in stratum m-b: it is observed worse
// there, so it does not advance. Blocking fewer in m-a and as many in m-b
// is not shown better in m-b: inconclusive. Fewer in both: advance. The
// same for detection: the baseline detects 3 + 4 planted defects, the
// candidate 4 + 3 (7 each pooled, no regression there), but the candidate
// detects fewer in m-b, a regression in that stratum: it does not advance.
func TestPromotionWithinEachModelStratum(t *testing.T) {
	c, commitment := strataCampaign()
	for _, tc := range []struct {
		name     string
		blocked  map[string]map[string]int
		detected map[string]map[string]int
		decision tables.Verdict
		failing  string
	}{
		{"worse in one stratum", map[string]map[string]int{"baseline": {"m-a": 3, "m-b": 0}, "candidate": {"m-a": 0, "m-b": 1}}, nil,
			tables.DecisionDoNotAdvance, "rb_blocking_selection,rb_blocking_final"},
		{"tied in one stratum", map[string]map[string]int{"baseline": {"m-a": 3, "m-b": 1}, "candidate": {"m-a": 0, "m-b": 1}}, nil,
			tables.DecisionInconclusive, "rb_blocking_selection,rb_blocking_final"},
		{"fewer in both", fewerInBoth, nil, tables.DecisionAdvance, ""},
		{"detects fewer in one stratum", fewerInBoth, map[string]map[string]int{"baseline": {"m-a": 3, "m-b": 4}, "candidate": {"m-a": 4, "m-b": 3}},
			tables.DecisionDoNotAdvance, "rb_detection_selection,rb_detection_final"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := Benchmark(c, tables.ReviewsScored{Reviews: strataRows(tc.blocked, tc.detected)}, commitment)
			if len(out.Problems) > 0 {
				t.Fatalf("problems: %v", out.Problems)
			}
			d := out.Decision[0]
			if d.Decision != tc.decision || strings.Join(d.FailingGates, ",") != tc.failing {
				t.Errorf("decision %s failing %q, want %s %q (%s)", d.Decision, d.FailingGates, tc.decision, tc.failing, d.Reason)
			}
			for _, g := range out.Gates {
				if g.Gate == rules.GateRbBlockingSelection || g.Gate == rules.GateRbDetectionSelection {
					t.Logf("%s: %s", g.Gate, g.Observed)
				}
			}
		})
	}
}

// TestPromotionOnTheSameCasePairs: promotion compares the two profiles on
// the same cases, so within a model stratum both must have the same
// (case, run) pairs, not merely as many attempts. The fixture is the
// advancing "fewer in both" campaign with the candidate's two runs of one
// case per split in swapped strata (run 1 in m-b, run 2 in m-a): every
// stratum still holds 4 clean and 4 variant attempts per profile, and
// counted alone the candidate still blocks fewer (m-a 3 vs 1, m-b 2 vs 0,
// by hand), which is how it advanced when strata were matched by counts.
// Now the swapped gates compare nothing, list the unpaired pairs and the
// decision is inconclusive: not advance.
func TestPromotionOnTheSameCasePairs(t *testing.T) {
	c, commitment := strataCampaign()
	swap := func(caseSuffix string) []tables.ReviewRow {
		rows := strataRows(fewerInBoth, nil)
		for i := range rows {
			r := &rows[i]
			if r.Profile == "candidate" && strings.HasSuffix(r.CaseID, "-F0"+caseSuffix) {
				r.Model = map[string]string{"m-a": "m-b", "m-b": "m-a"}[r.Model]
			}
		}
		return rows
	}
	unpaired := func(split, c string) []string {
		return []string{"m-a: " + split + "-F0" + c + "/r1 baseline only", "m-a: " + split + "-F0" + c + "/r2 candidate only",
			"m-b: " + split + "-F0" + c + "/r2 baseline only", "m-b: " + split + "-F0" + c + "/r1 candidate only"}
	}
	// Decidability and execution errors compare every attempt of selection
	// and final together: per stratum the baseline-only pairs of both
	// splits, then the candidate-only ones.
	both := func(c string) []string {
		s, f := unpaired(tables.SplitSelection, c), unpaired(tables.SplitFinal, c)
		return []string{s[0], f[0], s[1], f[1], s[2], f[2], s[3], f[3]}
	}
	for _, tc := range []struct {
		name     string
		rows     []tables.ReviewRow
		decision tables.Verdict
		failing  map[rules.GateName][]string // gate → its failing list
	}{
		{"same pairs", strataRows(fewerInBoth, nil), tables.DecisionAdvance, nil},
		{"clean case runs in swapped strata", swap("-clean"), tables.DecisionInconclusive, map[rules.GateName][]string{
			rules.GateRbBlockingSelection: unpaired(tables.SplitSelection, "-clean"), rules.GateRbBlockingFinal: unpaired(tables.SplitFinal, "-clean"),
			rules.GateRbDecidability: both("-clean"), rules.GateRbExecutionErrors: both("-clean")}},
		{"variant runs in swapped strata", swap("-v1"), tables.DecisionInconclusive, map[rules.GateName][]string{
			rules.GateRbDetectionSelection: unpaired(tables.SplitSelection, "-v1"), rules.GateRbDetectionFinal: unpaired(tables.SplitFinal, "-v1"),
			rules.GateRbDecidability: both("-v1"), rules.GateRbExecutionErrors: both("-v1")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := Benchmark(c, tables.ReviewsScored{Reviews: tc.rows}, commitment)
			if len(out.Problems) > 0 {
				t.Fatalf("problems: %v", out.Problems)
			}
			d := out.Decision[0]
			var want []string
			for _, g := range out.Gates {
				if _, ok := tc.failing[g.Gate]; ok {
					want = append(want, string(g.Gate))
				}
			}
			if d.Decision != tc.decision || !slices.Equal(d.FailingGates, want) {
				t.Errorf("decision %s failing %q, want %s %q (%s)", d.Decision, d.FailingGates, tc.decision, want, d.Reason)
			}
			if tc.failing != nil && !strings.Contains(d.Reason, "same (case, run) pairs") {
				t.Errorf("reason %q does not say the pairs differ", d.Reason)
			}
			for _, g := range out.Gates {
				wantFailing, unpairedGate := tc.failing[g.Gate]
				if !unpairedGate {
					if !g.Pass {
						t.Errorf("%s fails: %s (%s)", g.Gate, g.Observed, g.Detail)
					}
					continue
				}
				if g.Pass || g.ObservedNum != nil || !slices.Equal(g.Failing, wantFailing) || !strings.Contains(g.Detail, "not compared") {
					t.Errorf("%s: pass %v, observed number %v, failing %q, detail %q; want not compared, failing %q",
						g.Gate, g.Pass, g.ObservedNum, g.Failing, g.Detail, wantFailing)
				}
			}
		})
	}
}

// TestNothingToCompare: a pilot that ran no final case (the advancing
// "fewer in both" campaign without its final split) compares nothing on
// the final split's gates: they fail, say why, and the decision is
// inconclusive, never advance.
func TestNothingToCompare(t *testing.T) {
	c, commitment := strataCampaign()
	rows := slices.DeleteFunc(strataRows(fewerInBoth, nil), func(r tables.ReviewRow) bool { return r.Split == tables.SplitFinal })
	out := Benchmark(c, tables.ReviewsScored{Reviews: rows}, commitment)
	if d := out.Decision[0]; d.Decision != tables.DecisionInconclusive || strings.Join(d.FailingGates, ",") != "rb_blocking_final,rb_detection_final" {
		t.Fatalf("decision %s failing %q, want inconclusive on the final split's two gates (%s)", d.Decision, d.FailingGates, d.Reason)
	}
	for _, g := range out.Gates {
		final := g.Gate == rules.GateRbBlockingFinal || g.Gate == rules.GateRbDetectionFinal
		if final != (g.Detail == noEligibleDetail) || final && g.ObservedNum != nil {
			t.Errorf("%s: detail %q, compared %v; want the nothing-to-compare detail and no number on the final split's gates only", g.Gate, g.Detail, g.ObservedNum)
		}
	}
}
