package report

import (
	"math/big"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages/aggregate"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// TestReportFiguresAreGateInputs: with an even number of repetitions a
// task median can end in half a pico-unit (or half a nanosecond). The tasks
// table rounds it half to even for its integer columns; the gates compare
// the exact medians. The scorecard once summed the rounded column, so its
// Σ task-median ratio could disagree with the gate it explains. Here the
// two computations differ, and the scorecard must show the gate's exact
// values.
func TestReportFiguresAreGateInputs(t *testing.T) {
	c := fixtureCampaign()
	c.Manifest.GatePolicy.Preset = string(rules.PresetEvaluation)
	// Two repetitions per (task, arm). Exact task medians, by hand:
	//   cost A: T1 (1.000000000001 + 1.000000000002)/2 = 1.0000000000015
	//           T2 (1.000000000003 + 1.000000000004)/2 = 1.0000000000035
	//   cost B: T1 (2.000000000001 + 2.000000000002)/2 = 2.0000000000015
	//           T2 (2.000000000005 + 2.000000000006)/2 = 2.0000000000055
	//   Σ A = 2.000000000005, Σ B = 4.000000000007: ratio 4000000000007/2000000000005.
	// Rounded half to even to whole pico-units (the tasks table):
	//   A 1.000000000002 + 1.000000000004 = 2.000000000006,
	//   B 2.000000000002 + 2.000000000006 = 4.000000000008: ratio 2000000000004/1000000000003.
	//   time A: T1 (101 + 102)/2 = 101.5, T2 (103 + 104)/2 = 103.5 → Σ 205 (rounded 102 + 104 = 206)
	//   time B: T1 (201 + 202)/2 = 201.5, T2 (205 + 206)/2 = 205.5 → Σ 407 (rounded 202 + 206 = 408)
	//   time ratio 407/205 exact, 408/206 = 204/103 rounded.
	runs := []tables.Run{
		run(t, "T1", 1, "A", 1, 1, 0, 0, "1.000000000001", "0.5", 101, 50),
		run(t, "T1", 2, "A", 1, 1, 0, 0, "1.000000000002", "0.5", 102, 50),
		run(t, "T2", 1, "A", 1, 1, 0, 0, "1.000000000003", "0.5", 103, 50),
		run(t, "T2", 2, "A", 1, 1, 0, 0, "1.000000000004", "0.5", 104, 50),
		run(t, "T1", 1, "B", 1, 1, 0, 0, "2.000000000001", "0.5", 201, 50),
		run(t, "T1", 2, "B", 1, 1, 0, 0, "2.000000000002", "0.5", 202, 50),
		run(t, "T2", 1, "B", 1, 1, 0, 0, "2.000000000005", "0.5", 205, 50),
		run(t, "T2", 2, "B", 1, 1, 0, 0, "2.000000000006", "0.5", 206, 50),
	}
	out := aggregate.Run(c, tables.Validated{}, tables.Accounted{}, tables.Scored{Runs: spool.Of(runs...)})
	s := &tables.Set{Runs: spool.Of(runs...), Tasks: out.Tasks, Gates: out.Gates, Decision: out.Decision}
	ct := scorecard.Build(c, s, out.Figures, "").CostAndTime

	for _, tc := range []struct {
		name           string
		gate           rules.GateName
		shown          *scorecard.Change
		exact, rounded *big.Rat
	}{
		{"cost", rules.GateCostAggregate, ct.Ratios[0].Cost, big.NewRat(4000000000007, 2000000000005), roundedRatio(t, s.Tasks, costColumn)},
		{"time", rules.GateTimeAggregate, ct.Ratios[0].Time, big.NewRat(407, 205), roundedRatio(t, s.Tasks, timeColumn)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.exact.Cmp(tc.rounded) == 0 {
				t.Fatalf("fixture proves nothing: exact and rounded ratios are both %s", tc.exact.RatString())
			}
			gate := gateObserved(t, out.Gates, tc.gate)
			if gate.Cmp(tc.exact) != 0 {
				t.Errorf("gate %s observed %s, want the exact %s", tc.gate, gate.RatString(), tc.exact.RatString())
			}
			if tc.shown == nil {
				t.Fatal("the scorecard shows no ratio")
			}
			shown, ok := new(big.Rat).SetString(tc.shown.Ratio.Exact)
			if !ok || shown.Cmp(gate) != 0 {
				t.Errorf("scorecard ratio %s, gate observed %s: the report must show the gate's value", tc.shown.Ratio.Exact, gate.RatString())
			}
		})
	}
	t.Run("sums", func(t *testing.T) {
		if a, b := ct.Arms[0], ct.Arms[1]; scorecard.OrUnavailable(a.SumTaskMedianCost) != "2.000000000005" || scorecard.OrUnavailable(b.SumTaskMedianCost) != "4.000000000007" ||
			scorecard.OrUnavailable(a.SumTaskMedianNSExact) != "205" || scorecard.OrUnavailable(b.SumTaskMedianNSExact) != "407" {
			t.Errorf("Σ task medians A %s %s, B %s %s; want 2.000000000005 205, 4.000000000007 407",
				scorecard.OrUnavailable(a.SumTaskMedianCost), scorecard.OrUnavailable(a.SumTaskMedianNSExact), scorecard.OrUnavailable(b.SumTaskMedianCost), scorecard.OrUnavailable(b.SumTaskMedianNSExact))
		}
	})
}

func costColumn(r tables.Task) *big.Rat {
	if r.MedianCost == nil {
		return nil
	}
	return big.NewRat(int64(*r.MedianCost), 1)
}

func timeColumn(r tables.Task) *big.Rat { return big.NewRat(r.MedianNS, 1) }

// roundedRatio is the old report's computation: Σ of the tasks table's
// rounded medians of B over those of A.
func roundedRatio(t *testing.T, rows []tables.Task, col func(tables.Task) *big.Rat) *big.Rat {
	t.Helper()
	sum := map[string]*big.Rat{"A": new(big.Rat), "B": new(big.Rat)}
	for _, r := range rows {
		sum[r.Arm].Add(sum[r.Arm], col(r))
	}
	return new(big.Rat).Quo(sum["B"], sum["A"])
}

// gateObserved parses a gate's observed value ("p/q (≈x)" or a decimal).
func gateObserved(t *testing.T, gates []tables.Gate, name rules.GateName) *big.Rat {
	t.Helper()
	for _, g := range gates {
		if g.Gate == name {
			text, _, _ := strings.Cut(g.Observed, " (")
			r, ok := new(big.Rat).SetString(text)
			if !ok {
				t.Fatalf("gate %s observed %q is not a number", name, g.Observed)
			}
			return r
		}
	}
	t.Fatalf("no gate %s in %+v", name, gates)
	return nil
}
