package aggregate

import (
	"math/big"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// round2Fixture is newFixture with every task in the development split
// under the development round-2 preset.
func round2Fixture(t *testing.T, tasks int, reps int64) *fixture {
	f := newFixture(t, tasks, reps)
	f.c.Manifest.GatePolicy.Preset = string(rules.PresetDevelopmentRound2)
	for i := range f.c.Manifest.Design.Tasks {
		f.c.Manifest.Design.Tasks[i].Split = "development"
	}
	return f
}

// TestRound2RefusesOtherDesigns: the preset judges round 2 of exactly four
// two-round development tasks. A third round (whose "last repetition"
// would otherwise be judged) or a fourth task missing are refused with a
// rejecting finding and no verdict, whatever the gates would say.
func TestRound2RefusesOtherDesigns(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tasks int
		reps  int64
	}{{"three rounds", 4, 3}, {"three tasks", 3, 2}, {"five tasks", 5, 2}, {"one round", 4, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			f := round2Fixture(t, tc.tasks, tc.reps)
			f.aggregate()
			if !hasCode(f.s.Rejections, rules.CodeDevelopmentRound2Incomplete) {
				t.Fatalf("no %s in %v", rules.CodeDevelopmentRound2Incomplete, f.s.Rejections)
			}
			if d := f.decision(); d.Decision != tables.DecisionNoVerdict || !contains(d.Reason, "development_round2_incomplete") {
				t.Fatalf("decision %+v", d)
			}
		})
	}
}

// TestRound2JudgesRoundTwoOnly: with four two-round tasks, round 1 may be
// as bad as it likes. Here round 1 of B on T1 has R 0.10 (a floor failure
// if judged) while round 2 repeats the fixture's B 0.95 vs A 0.80 on
// every task: macro gain 0.15, four of four improved, decision advance.
func TestRound2JudgesRoundTwoOnly(t *testing.T) {
	f := round2Fixture(t, 4, 2)
	f.setR("T1", "B", 1, 10)
	f.aggregate()
	if hasCode(f.s.Rejections, rules.CodeDevelopmentRound2Incomplete) {
		t.Fatalf("refused: %v", f.s.Rejections)
	}
	f.wantGate(rules.GateTaskFloor, "0.95", true)
	f.wantDecision(tables.DecisionAdvance, "")
}

// TestRound2SplitRatiosJudgeRoundTwoOnly: the judged split's figure
// ratios cover only the round-2 runs, as the gates do. T1's round-1 B run
// costs 3.05, so by hand: over both rounds T1's B median is
// (3.05+1.05)/2 = 2.05 and the all-runs ratio (2.05+3×1.05)/(4×1.00) =
// 13/10; over round 2 alone every B run costs 1.05: 4.20/4.00 = 21/20.
func TestRound2SplitRatiosJudgeRoundTwoOnly(t *testing.T) {
	f := round2Fixture(t, 4, 2)
	f.setCost("T1", "B", 1, "3.05")
	out := Run(f.c, tables.Validated{}, tables.Accounted{}, tables.Scored{Runs: spool.Of(f.runs...)})
	fig := out.Figures
	if len(fig.CostRatios) != 1 || fig.CostRatios[0].Cost.Cmp(big.NewRat(13, 10)) != 0 {
		t.Fatalf("all-runs cost ratios %+v, want 13/10", fig.CostRatios)
	}
	if fig.JudgedSplit != "development" || len(fig.SplitRatios) != 1 || !fig.SplitRatios[0].Judged ||
		fig.SplitRatios[0].Cost.Cmp(big.NewRat(21, 20)) != 0 {
		t.Fatalf("judged split %q ratios %+v, want development cost 21/20", fig.JudgedSplit, fig.SplitRatios)
	}
	for _, g := range out.Gates {
		if g.Gate == rules.GateCostAggregate && g.Observed != "1.05" {
			t.Errorf("cost aggregate gate observed %q, want 1.05 (= 21/20)", g.Observed)
		}
	}
}
