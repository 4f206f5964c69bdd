package aggregate

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

func TestAllGatesPass(t *testing.T) {
	f := newFixture(t, 8, 1)
	f.aggregate()
	f.wantDecision(tables.DecisionAdvance, "")
	if n := len(f.s.Gates); n != 15 {
		t.Fatalf("got %d gates, want 15", n)
	}
	f.wantGate(rules.GateTaskFloor, "0.95", true)
	f.wantGate(rules.GateMacroFloor, "0.95", true)
	f.wantGate(rules.GateMacroGain, "0.15", true) // 0.95 − 0.80
	f.wantGate(rules.GateImprovedTasks, "8", true)
	f.wantGate(rules.GateMaxTaskDrop, "-0.15", true) // A − B = 0.80 − 0.95
	f.wantGate(rules.GateCostAggregate, "1.05", true)
	f.wantGate(rules.GateTimeAggregate, "1.05", true) // 8×105 / 8×100
	if g := f.gate(rules.GateCostAggregate); g.Threshold != "<= 1.10" || !contains(g.Detail, "increased by 5.0%") || !contains(g.Detail, "review-only ratio 1.1 (increased by 10.0%)") {
		t.Fatalf("cost aggregate row %+v", g)
	}
	if g := f.gate(rules.GateMacroFloor); g.Threshold != ">= 0.90" {
		t.Fatalf("threshold %q", g.Threshold)
	}
	if len(f.s.Rejections) != 0 {
		t.Fatalf("findings %v", f.s.Rejections)
	}
}

func TestC21OnePairBoundFails(t *testing.T) {
	// Three repetitions. T3's B costs 1.30, 1.00, 1.00 against A's 1.00:
	// pair ratio 1.30 > 1.25 fails; T3's task median is 1.00 (ratio 1.00
	// ≤ 1.15) and the aggregate is (7×1.05 + 1.00) / 8 = 8.35/8 = 1.04375
	// ≤ 1.10. Every other gate passes, yet the mechanism does not advance.
	f := newFixture(t, 8, 3)
	f.setCost("T3", "B", 1, "1.30")
	f.setCost("T3", "B", 2, "1.00")
	f.setCost("T3", "B", 3, "1.00")
	f.aggregate()
	f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateCostPair))
	f.wantGate(rules.GateCostPair, "1.3", false)
	f.wantGate(rules.GateCostTask, "1.05", true)
	f.wantGate(rules.GateCostAggregate, "1.04375", true)
	if g := f.gate(rules.GateCostPair); !slices.Equal(g.Failing, []string{"T3/r1"}) {
		t.Fatalf("failing %q, want T3/r1", g.Failing)
	}
}

func TestC14FewerCallsExcessiveCost(t *testing.T) {
	// B makes fewer tool calls (not an input to any gate) but every
	// workflow costs 1.20 against A's 1.00: aggregate 1.20 > 1.10 and
	// task 1.20 > 1.15 fail; pair 1.20 ≤ 1.25 passes.
	f := newFixture(t, 8, 1)
	for _, task := range []string{"T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"} {
		f.setCost(task, "B", 0, "1.20")
	}
	f.aggregate()
	f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateCostAggregate, rules.GateCostTask))
	if g := f.gate(rules.GateCostAggregate); !contains(g.Detail, "increased by 20.0%") {
		t.Fatalf("detail %q", g.Detail)
	}
}

func TestExactThresholdEdges(t *testing.T) {
	t.Run("task median exactly 0.80 passes the floor", func(t *testing.T) {
		// T8: A 0.80, B 0.80. Macro B = (7×0.95 + 0.80)/8 = 0.93125.
		f := newFixture(t, 8, 1)
		f.setR("T8", "B", 1, 80)
		f.aggregate()
		f.wantGate(rules.GateTaskFloor, "0.8", true)
		f.wantGate(rules.GateMacroFloor, "0.93125", true)
		f.wantGate(rules.GateImprovedTasks, "7", true)
		f.wantDecision(tables.DecisionAdvance, "")
	})
	t.Run("task median 0.79 fails the floor", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.setR("T8", "B", 1, 79)
		f.aggregate()
		f.wantGate(rules.GateTaskFloor, "0.79", false)
		// The drop 0.80 − 0.79 = 0.01 is allowed; only the floor fails.
		f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateTaskFloor))
	})
	t.Run("drop of exactly 0.05 passes", func(t *testing.T) {
		// T8: A 0.90, B 0.85. Macro B = (7×0.95+0.85)/8 = 0.9375;
		// macro A = (7×0.80+0.90)/8 = 0.8125; gain 0.125.
		f := newFixture(t, 8, 1)
		f.setR("T8", "A", 1, 90)
		f.setR("T8", "B", 1, 85)
		f.aggregate()
		f.wantGate(rules.GateMaxTaskDrop, "0.05", true)
		f.wantGate(rules.GateMacroGain, "0.125", true)
		f.wantDecision(tables.DecisionAdvance, "")
	})
	t.Run("drop of 0.06 fails", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.setR("T8", "A", 1, 90)
		f.setR("T8", "B", 1, 84)
		f.aggregate()
		f.wantGate(rules.GateMaxTaskDrop, "0.06", false)
		f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateMaxTaskDrop))
	})
	t.Run("cost ratio exactly 1.10 passes", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		for _, task := range []string{"T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"} {
			f.setCost(task, "B", 0, "1.10")
		}
		f.aggregate()
		f.wantGate(rules.GateCostAggregate, "1.1", true)
		f.wantDecision(tables.DecisionAdvance, "")
	})
	t.Run("cost ratio one pico-unit above 1.10 fails", func(t *testing.T) {
		// Σ B = 8 × 1.100000000001, Σ A = 8: ratio 1.100000000001 > 1.10.
		f := newFixture(t, 8, 1)
		for _, task := range []string{"T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"} {
			f.setCost(task, "B", 0, "1.100000000001")
		}
		f.aggregate()
		f.wantGate(rules.GateCostAggregate, "1.100000000001", false)
		f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateCostAggregate))
	})
}

func TestMedians(t *testing.T) {
	t.Run("even count is the mean of the two middle values", func(t *testing.T) {
		// Four repetitions of T1/B with times 1, 2, 3, 4 s → median 2.5 s;
		// costs 10, 20, 20, 10 → median 15; R 0.50, 1.00, 0.75, 1.00 →
		// sorted 0.50 0.75 1.00 1.00 → (0.75+1.00)/2 = 0.875.
		f := newFixture(t, 1, 4)
		for rep, v := range []struct {
			secs int64
			cost string
			r    int64
		}{{1, "10", 50}, {2, "20", 100}, {3, "20", 75}, {4, "10", 100}} {
			f.edit("T1", "B", int64(rep+1), func(r *tables.Run) { r.WorkflowNS = v.secs * int64(time.Second) })
			f.setCost("T1", "B", int64(rep+1), v.cost)
			f.setR("T1", "B", int64(rep+1), v.r)
		}
		f.aggregate()
		row := f.taskRow("T1", "B")
		if row.MedianNS != 2_500_000_000 || row.MedianCost.String() != "15.00" || row.MedianRExact == nil || *row.MedianRExact != "0.875" || *row.MedianR != 0.875 {
			t.Fatalf("medians ns=%d cost=%v R=%s", row.MedianNS, row.MedianCost, *row.MedianRExact)
		}
	})
	t.Run("median of two is their mean", func(t *testing.T) {
		f := newFixture(t, 1, 2)
		f.setCost("T1", "A", 1, "10")
		f.setCost("T1", "A", 2, "20")
		f.aggregate()
		if got := f.taskRow("T1", "A").MedianCost.String(); got != "15.00" {
			t.Fatalf("median cost %s, want 15.00", got)
		}
	})
	t.Run("an unscored run makes the task median null and the decision no_verdict", func(t *testing.T) {
		f := newFixture(t, 8, 3)
		f.edit("T2", "B", 2, func(r *tables.Run) { r.Scored, r.R, r.RNum = false, nil, 0 })
		f.aggregate()
		row := f.taskRow("T2", "B")
		if row.MedianR != nil || row.MedianRExact != nil || row.ScoredRuns != 2 || row.Runs != 3 {
			t.Fatalf("task row %+v", row)
		}
		d := f.decision()
		if d.Decision != tables.DecisionNoVerdict || !contains(d.Reason, "T2/r2/B") {
			t.Fatalf("decision %+v", d)
		}
	})
}

func TestOrderIndependence(t *testing.T) {
	// The same runs in reverse order give identical tables.
	build := func(reverse bool) *fixture {
		f := newFixture(t, 8, 3)
		f.edit("T5", "B", 2, func(r *tables.Run) { r.CriticalFailures = 1 })
		f.edit("T2", "B", 1, func(r *tables.Run) { r.CriticalFailures = 1 })
		if reverse {
			slices.Reverse(f.runs)
		}
		f.aggregate()
		return f
	}
	a, b := build(false), build(true)
	if !reflect.DeepEqual(a.s.Gates, b.s.Gates) || !reflect.DeepEqual(a.s.Tasks, b.s.Tasks) ||
		!reflect.DeepEqual(a.s.Repositories, b.s.Repositories) || !reflect.DeepEqual(a.s.Decision, b.s.Decision) {
		t.Fatalf("output depends on run order:\n%+v\n%+v", a.s.Gates, b.s.Gates)
	}
	if g := a.gate(rules.GateCriticalSource); strings.Join(g.Failing, ",") != "T2/r1,T5/r2" {
		t.Fatalf("failing %q", g.Failing)
	}
}
