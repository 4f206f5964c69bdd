package aggregate

import (
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// sysFixture is a hand-built system comparison: two tasks (T1 in r1, T2 in
// r2), one repetition, three systems. Every run is scored and valid; the
// numbers below are set per test.
type sysFixture struct {
	t    *testing.T
	c    *tables.Campaign
	s    *tables.Set
	runs []tables.Run
}

// usd converts a decimal text in dollars to Money.
func usd(t *testing.T, text string) *tables.Money {
	t.Helper()
	m, err := tables.ParseMoney(text)
	if err != nil {
		t.Fatal(err)
	}
	return &m
}

// newSysFixture builds the passing base case. Hand computation:
//
//	R (of 2000):      native 1600, madar 1900, serena 2000 on both tasks
//	cost (USD):       native 1.00, madar 0.85, serena 0.85
//	time (ns):        native 1000, madar  850, serena  850
//	g2_task_floor     min task-median R_sys of madar = 0.95 ≥ 0.80
//	g2_macro_floor    (0.95 + 0.95)/2 = 0.95 ≥ 0.90
//	sc_baseline_cost_aggregate   (0.85+0.85)/(1.00+1.00) = 0.85 ≤ 0.85 (exactly at the bound: passes)
//	sc_baseline_time_aggregate   (850+850)/(1000+1000)   = 0.85 ≤ 0.85
//	sc_comparator_macro_loss     1.00 − 0.95 = 0.05 ≤ 0.05 (exactly: passes)
//	sc_comparator_cost/time_aggregate  1.70/1.70 = 1 ≤ 1.05
//	task and pair ratios: 0.85 against native, 1 against serena
//
// so every gate passes and the decision is advance.
func newSysFixture(t *testing.T) *sysFixture {
	m := tables.Manifest{Kind: rules.KindSystemComparison, GatePolicy: tables.GatePolicy{Preset: string(rules.PresetSystemComparison)}}
	m.Design = tables.Design{
		Repetitions: 1,
		Arms: []tables.Arm{
			{ID: "native", ComparatorRole: tables.ComparatorBaseline},
			{ID: "madar", ComparatorRole: tables.ComparatorCandidate},
			{ID: "serena", ComparatorRole: tables.ComparatorComparator},
		},
		Tasks: []tables.TaskSpec{
			{ID: "T1", Repository: "r1", Family: "F1", Split: "evaluation"},
			{ID: "T2", Repository: "r2", Family: "F2", Split: "evaluation"},
		},
	}
	f := &sysFixture{t: t, c: &tables.Campaign{Manifest: m}, s: &tables.Set{}}
	for _, task := range []string{"T1", "T2"} {
		for _, arm := range []struct {
			id, cost string
			r, ns    int64
		}{{"madar", "0.85", 1900, 850}, {"native", "1.00", 1600, 1000}, {"serena", "0.85", 2000, 850}} {
			f.runs = append(f.runs, tables.Run{
				TaskID: task, Repository: "r" + task[1:], Family: "F" + task[1:], Repetition: 1, Arm: arm.id,
				Classification: "valid", Scored: true, RNum: arm.r, RDen: 2000,
				SourceGate: true, ProtocolGate: true, StructuralPass: true,
				WorkflowCost: usd(t, arm.cost), ReviewCost: usd(t, "0.10"), WorkflowNS: arm.ns, ReviewNS: 100, TimeComplete: true,
			})
		}
	}
	return f
}

func (f *sysFixture) run(task, arm string) *tables.Run {
	for i := range f.runs {
		if r := &f.runs[i]; r.TaskID == task && r.Arm == arm {
			return r
		}
	}
	f.t.Fatalf("no run %s %s", task, arm)
	return nil
}

func (f *sysFixture) judge() (map[rules.GateName]tables.Gate, tables.Decision) {
	f.t.Helper()
	aggregateInto(f.c, f.s, f.runs, tables.Replacements{})
	gates := map[rules.GateName]tables.Gate{}
	for _, g := range f.s.Gates {
		gates[g.Gate] = g
	}
	if len(f.s.Decision) != 1 {
		f.t.Fatalf("decisions %+v", f.s.Decision)
	}
	return gates, f.s.Decision[0]
}

func TestSystemComparisonGates(t *testing.T) {
	t.Run("hand-computed base case advances at every exact bound", func(t *testing.T) {
		gates, d := newSysFixture(t).judge()
		if d.Decision != tables.DecisionAdvance || d.Arm != "madar" || strings.Join(d.FailingGates, ",") != "" {
			t.Fatalf("decision %+v", d)
		}
		if len(gates) != len(sysPreset(t).Gates) {
			t.Fatalf("%d gates, want %d", len(gates), len(sysPreset(t).Gates))
		}
		for name, want := range map[rules.GateName]string{
			rules.GateBaselineCostAggregate: "0.85", rules.GateBaselineTimeAggregate: "0.85", rules.GateComparatorMacroLoss: "0.05",
			rules.GateComparatorCostAggregate: "1", rules.GateMacroFloor: "0.95", rules.GateTaskFloor: "0.95", rules.GateBaselineCostPair: "0.85",
		} {
			if g := gates[name]; g.Observed != want || !g.Pass {
				t.Errorf("%s observed %q pass %v, want %q and pass", name, g.Observed, g.Pass, want)
			}
		}
		if g := gates[rules.GateBaselineCostAggregate]; g.Threshold != "<= 0.85" {
			t.Errorf("threshold %q", g.Threshold)
		}
	})
	t.Run("baseline cost ratio 0.8501 fails and stops for no gain", func(t *testing.T) {
		// madar T1 0.8502: (0.8502 + 0.85) / 2.00 = 0.8501 > 0.85.
		f := newSysFixture(t)
		f.run("T1", "madar").WorkflowCost = usd(t, "0.8502")
		gates, d := f.judge()
		if g := gates[rules.GateBaselineCostAggregate]; g.Pass || g.Observed != "0.8501" {
			t.Fatalf("gate %+v", g)
		}
		if d.Decision != tables.DecisionStopNoGain || strings.Join(d.FailingGates, ",") != string(rules.GateBaselineCostAggregate) {
			t.Fatalf("decision %+v", d)
		}
	})
	t.Run("macro loss 0.05025 against the comparator fails", func(t *testing.T) {
		// madar T1 R 1899/2000: macro (0.9495 + 0.95)/2 = 0.94975; loss 1 − 0.94975 = 0.05025.
		f := newSysFixture(t)
		f.run("T1", "madar").RNum = 1899
		gates, d := f.judge()
		if g := gates[rules.GateComparatorMacroLoss]; g.Pass || g.Observed != "0.05025" {
			t.Fatalf("gate %+v", g)
		}
		if d.Decision != tables.DecisionDoNotAdvance || strings.Join(d.FailingGates, ",") != string(rules.GateComparatorMacroLoss) {
			t.Fatalf("decision %+v", d)
		}
	})
	t.Run("comparator cost ratio exactly 1.05 passes, above fails", func(t *testing.T) {
		// native 2.00, madar 1.68, serena 1.60: 3.36/3.20 = 1.05; against
		// native 3.36/4.00 = 0.84. Serena T1 1.5999: 3.36/3.1999 > 1.05.
		f := newSysFixture(t)
		for _, task := range []string{"T1", "T2"} {
			f.run(task, "native").WorkflowCost = usd(t, "2.00")
			f.run(task, "madar").WorkflowCost = usd(t, "1.68")
			f.run(task, "serena").WorkflowCost = usd(t, "1.60")
		}
		gates, d := f.judge()
		if g := gates[rules.GateComparatorCostAggregate]; !g.Pass || g.Observed != "1.05" || d.Decision != tables.DecisionAdvance {
			t.Fatalf("gate %+v decision %+v", g, d)
		}
		f = newSysFixture(t)
		for _, task := range []string{"T1", "T2"} {
			f.run(task, "native").WorkflowCost = usd(t, "2.00")
			f.run(task, "madar").WorkflowCost = usd(t, "1.68")
			f.run(task, "serena").WorkflowCost = usd(t, "1.60")
		}
		f.run("T1", "serena").WorkflowCost = usd(t, "1.5999")
		gates, d = f.judge()
		if g := gates[rules.GateComparatorCostAggregate]; g.Pass || strings.Join(d.FailingGates, ",") != string(rules.GateComparatorCostAggregate) {
			t.Fatalf("gate %+v decision %+v", g, d)
		}
	})
	t.Run("one individual time regression over 25% blocks an otherwise green campaign", func(t *testing.T) {
		// madar T2 time 1063 against serena 850: 1.250588 > 1.25, task
		// ratio the same > 1.15; against native 1063/1000 ≤ 1.15.
		f := newSysFixture(t)
		f.run("T2", "madar").WorkflowNS = 1063
		gates, d := f.judge()
		if gates[rules.GateComparatorTimePair].Pass || strings.Join(gates[rules.GateComparatorTimePair].Failing, ",") != "T2/r1" {
			t.Fatalf("pair gate %+v", gates[rules.GateComparatorTimePair])
		}
		if d.Decision == tables.DecisionAdvance {
			t.Fatalf("decision %+v", d)
		}
	})
	t.Run("critical failure above the baseline's is a critical loss", func(t *testing.T) {
		f := newSysFixture(t)
		f.run("T1", "madar").CriticalFailures = 1
		gates, d := f.judge()
		if g := gates[rules.GateBaselineCriticalLoss]; g.Pass || strings.Join(g.Failing, ",") != "T1" {
			t.Fatalf("gate %+v", g)
		}
		if !slices.Contains(d.FailingGates, string(rules.GateCriticalSource)) {
			t.Fatalf("decision %+v", d)
		}
	})
	t.Run("no comparator system fails the comparator gates", func(t *testing.T) {
		f := newSysFixture(t)
		f.c.Manifest.Design.Arms[2].ComparatorRole = ""
		gates, d := f.judge()
		if g := gates[rules.GateComparatorMacroLoss]; g.Pass || g.Detail != "the design names no comparator system" {
			t.Fatalf("gate %+v", g)
		}
		if d.Decision != tables.DecisionDoNotAdvance {
			t.Fatalf("decision %+v", d)
		}
	})
	t.Run("an unscored run gives no verdict", func(t *testing.T) {
		f := newSysFixture(t)
		f.run("T2", "serena").Scored = false
		_, d := f.judge()
		if d.Decision != tables.DecisionNoVerdict {
			t.Fatalf("decision %+v", d)
		}
	})
}

func TestGatePresetKindMismatch(t *testing.T) {
	t.Run("paired preset on a system comparison", func(t *testing.T) {
		f := newSysFixture(t)
		f.c.Manifest.GatePolicy.Preset = string(rules.PresetEvaluation)
		_, d := f.judge()
		if d.Decision != tables.DecisionNoVerdict || len(f.s.Gates) != 0 || !hasCode(f.s.Rejections, rules.CodeGatePresetKind) {
			t.Fatalf("decision %+v gates %d findings %v", d, len(f.s.Gates), f.s.Rejections)
		}
	})
	t.Run("system preset on a paired review", func(t *testing.T) {
		f := newSysFixture(t)
		f.c.Manifest.Kind = rules.KindPairedReview
		aggregateInto(f.c, f.s, f.runs, tables.Replacements{})
		if len(f.s.Decision) != 2 || f.s.Decision[0].Decision != tables.DecisionNoVerdict || !hasCode(f.s.Rejections, rules.CodeGatePresetKind) {
			t.Fatalf("decisions %+v findings %v", f.s.Decision, f.s.Rejections)
		}
	})
}

func sysPreset(t *testing.T) rules.Preset {
	p, ok := rules.FindPreset(rules.PresetSystemComparison)
	if !ok {
		t.Fatal("no system-comparison preset")
	}
	return p
}

// TestNoGateEvaluatedRejects: a system-comparison policy that evaluates no
// gate gives no verdict, and a rejecting finding says why, so validate
// rejects the campaign too. No registered preset is empty; the policy here
// is built by hand.
func TestNoGateEvaluatedRejects(t *testing.T) {
	f := newSysFixture(t)
	var out Out
	judgeSystems(f.c, &inputs{}, &out, &policy{name: rules.PresetSystemComparison}, runSet{}, validityReport{})
	if len(out.Decision) != 1 || out.Decision[0].Decision != tables.DecisionNoVerdict || !hasCode(out.Findings, rules.CodeGateNoneEvaluated) {
		t.Fatalf("decisions %+v findings %v", out.Decision, out.Findings)
	}
	if c := rules.ClassOf(rules.CodeGateNoneEvaluated); c != rules.ClassRecordDefect {
		t.Errorf("gate_none_evaluated is %s, want a record defect", c)
	}
}
