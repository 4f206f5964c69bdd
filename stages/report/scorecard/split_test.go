package scorecard

import (
	"math/big"
	"testing"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages/aggregate"
	"github.com/evalgate/evalgate/tables"
)

// A two-split campaign under paired-review-evaluation-v1 (one
// repetition), workflow cost and time per task:
//
//	evaluation  E1: A 1.00 / 100 s, B 1.10 / 110 s
//	evaluation  E2: A 1.00 / 100 s, B 1.30 / 130 s
//	development D1: A 2.00 / 200 s, B 1.00 / 100 s
//
// By hand: judged (evaluation) cost ratio (1.10+1.30)/(1.00+1.00) = 6/5,
// time (110+130)/(100+100) = 6/5; development alone 1.00/2.00 = 1/2; all
// splits (1.10+1.30+1.00)/(1.00+1.00+2.00) = 17/20, time 340/400 = 17/20.
func TestRatiosBySplitMatchTheGates(t *testing.T) {
	c := &tables.Campaign{}
	m := &c.Manifest
	m.Kind = "paired-review"
	m.GatePolicy.Preset = string(rules.PresetEvaluation)
	m.Design.Arms = []tables.Arm{{ID: "A"}, {ID: "B", Reconciliation: true}}
	m.Design.Repetitions = 1
	s := &tables.Set{Runs: spool.New[tables.Run](nil)}
	for _, task := range []struct {
		id, split          string
		costA, costB       string
		secondsA, secondsB int64
	}{
		{"E1", "evaluation", "1.00", "1.10", 100, 110},
		{"E2", "evaluation", "1.00", "1.30", 100, 130},
		{"D1", "development", "2.00", "1.00", 200, 100},
	} {
		m.Design.Tasks = append(m.Design.Tasks, tables.TaskSpec{ID: task.id, Repository: "R", Family: task.id, Split: task.split, Category: tables.CategoryChangeImpact})
		s.Runs.Add(splitRun(t, task.id, "A", task.costA, task.secondsA), splitRun(t, task.id, "B", task.costB, task.secondsB))
	}
	out := aggregate.Run(c, tables.Validated{}, tables.Accounted{}, tables.Scored{Runs: s.Runs})
	ct := buildCostAndTime(out.Figures)

	observed := map[rules.GateName]string{}
	for _, g := range out.Gates {
		observed[g.Gate] = g.Observed
	}
	if ct.JudgedSplit != "evaluation" {
		t.Fatalf("judged_split %q, want evaluation", ct.JudgedSplit)
	}
	judged := ct.RatiosBySplit["evaluation"]
	if len(judged) != 1 || judged[0].Arm != "B" {
		t.Fatalf("ratios_by_split[evaluation] = %+v, want one row for arm B", judged)
	}
	for _, check := range []struct {
		name string
		got  *Change
		gate rules.GateName
	}{
		{"cost", judged[0].Cost, rules.GateCostAggregate},
		{"time", judged[0].Time, rules.GateTimeAggregate},
	} {
		if check.got == nil || check.got.Ratio.Exact != "6/5" {
			t.Errorf("evaluation %s ratio %+v, want 6/5", check.name, check.got)
			continue
		}
		gate, ok := new(big.Rat).SetString(observed[check.gate])
		if !ok || gate.Cmp(big.NewRat(6, 5)) != 0 {
			t.Errorf("gate %s observed %q, want 6/5 (= the scorecard's judged-split ratio)", check.gate, observed[check.gate])
		}
	}
	if all := ct.Ratios; len(all) != 1 || all[0].Cost.Ratio.Exact != "17/20" || all[0].Time.Ratio.Exact != "17/20" {
		t.Errorf("all-splits ratios %+v, want cost and time 17/20", all)
	}
	if dev := ct.RatiosBySplit["development"]; len(dev) != 1 || dev[0].Cost.Ratio.Exact != "1/2" || dev[0].Time.Ratio.Exact != "1/2" {
		t.Errorf("development ratios %+v, want cost and time 1/2", dev)
	}
}

func splitRun(t *testing.T, task, arm, cost string, seconds int64) tables.Run {
	t.Helper()
	money := func(s string) *tables.Money {
		m, err := tables.ParseMoney(s)
		if err != nil {
			t.Fatalf("ParseMoney(%q): %v", s, err)
		}
		return &m
	}
	yes, r := true, 0.95
	return tables.Run{
		TaskID: task, Repository: "R", Family: task, Repetition: 1, Arm: arm,
		DraftSessionID: task + "-r1-D", ReviewSessionID: task + "-r1-" + arm,
		Classification: "valid", Scored: true, R: &r, RNum: 95, RDen: 100,
		SourceGate: true, ProtocolGate: true, StructuralPass: true, SemanticPass: &yes,
		WorkflowCost: money(cost), ReviewCost: money("0.50"),
		WorkflowNS: seconds * int64(time.Second), ReviewNS: seconds / 2 * int64(time.Second), TimeComplete: true,
	}
}
