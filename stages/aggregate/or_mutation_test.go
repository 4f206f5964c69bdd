package aggregate

// Mutation test of rule C2's "make a cost/time cap an OR condition"
// (rules C2, A8, C21): cost and time are separate conjunctive gates, so a
// campaign that fails only on time must not advance. The owning control
// passes with the real gates and fails, for exactly that reason, when
// the cost and time caps are combined with OR.

import (
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// capPairs are the cost and time caps of A8, paired.
var capPairs = [][2]rules.GateName{
	{rules.GateCostAggregate, rules.GateTimeAggregate},
	{rules.GateCostTask, rules.GateTimeTask},
	{rules.GateCostPair, rules.GateTimePair},
}

// orCaps is the mutated combiner: each cost/time cap passes when either
// of the pair passes.
func orCaps(gates []tables.Gate) []tables.Gate {
	out := append([]tables.Gate(nil), gates...)
	pass := map[rules.GateName]bool{}
	for _, g := range gates {
		pass[g.Gate] = g.Pass
	}
	for i, g := range out {
		for _, p := range capPairs {
			if g.Gate == p[0] || g.Gate == p[1] {
				out[i].Pass = pass[p[0]] || pass[p[1]]
			}
		}
	}
	return out
}

func sameGates(gates []tables.Gate) []tables.Gate { return gates }

// timeOnlyFailureControl builds a campaign whose only failure is time —
// every B workflow takes 120 s against A's 100 s while costing 1.05
// against 1.00 — and checks that the decision combined by combine does
// not advance and names the failing time caps. By hand: time aggregate
// and task ratios 120/100 = 1.20 > 1.10 and > 1.15 fail; the pair ratio
// 1.20 ≤ 1.25 passes; every cost ratio is 1.05. It returns "" when the
// control passes.
func timeOnlyFailureControl(t *testing.T, combine func([]tables.Gate) []tables.Gate) string {
	t.Helper()
	f := newFixture(t, 8, 1)
	for _, task := range []string{"T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"} {
		f.edit(task, "B", 0, func(r *tables.Run) { r.WorkflowNS = 120 * int64(time.Second) })
	}
	f.aggregate()
	for _, g := range f.s.Gates {
		wantFail := g.Gate == rules.GateTimeAggregate || g.Gate == rules.GateTimeTask
		if g.Pass == wantFail {
			t.Fatalf("setup: gate %s pass=%v (observed %s); only the time aggregate and task caps should fail", g.Gate, g.Pass, g.Observed)
		}
	}
	pol, fs := resolvePolicy(&f.c.Manifest)
	if pol == nil || len(fs) > 0 {
		t.Fatalf("setup: policy %v", fs)
	}
	d := decide(pol, combine(f.s.Gates), "B", validityReport{})
	if d.Decision == tables.DecisionAdvance {
		return "a time-only failure advanced: " + d.Reason
	}
	if d.Decision != tables.DecisionDoNotAdvance || strings.Join(d.FailingGates, ",") != failingList(rules.GateTimeAggregate, rules.GateTimeTask) {
		return "decision " + string(d.Decision) + " failing " + strings.Join(d.FailingGates, ",") + ", want do_not_advance failing the time caps"
	}
	return ""
}

func TestMutationCostTimeCapAsOR(t *testing.T) {
	t.Run("control passes: cost and time are separate conjunctive gates", func(t *testing.T) {
		if msg := timeOnlyFailureControl(t, sameGates); msg != "" {
			t.Fatal(msg)
		}
	})
	t.Run("mutation: cost OR time lets the time-only failure advance", func(t *testing.T) {
		msg := timeOnlyFailureControl(t, orCaps)
		if !strings.HasPrefix(msg, "a time-only failure advanced") {
			t.Fatalf("control reported %q, want a time-only failure that advanced", msg)
		}
	})
	t.Run("the real decision does not advance", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		for _, task := range []string{"T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"} {
			f.edit(task, "B", 0, func(r *tables.Run) { r.WorkflowNS = 120 * int64(time.Second) })
		}
		f.aggregate()
		f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateTimeAggregate, rules.GateTimeTask))
	})
}
