package aggregate

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// The default campaign passes every gate of paired-review-evaluation-v1:
// eight evaluation tasks T1..T8 in repositories R1..R4, one repetition,
// R over 100 answerable-obligation points for readable decimals.
//
//	A: R = 0.80, workflow cost 1.00 (review 0.50), time 100 s (review 50 s)
//	B: R = 0.95, workflow cost 1.05 (review 0.55), time 105 s (review 55 s)
//
// By hand: macro B = 0.95 ≥ 0.90; gain = 0.95 − 0.80 = 0.15 ≥ 0.10;
// 8 of 8 tasks improve; cost and time ratios 1.05 everywhere.

type fixture struct {
	t            *testing.T
	c            *tables.Campaign
	s            *tables.Set
	runs         []tables.Run        // the score stage's, edited in place; spooled by aggregate
	replacements tables.Replacements // the validate stage's replacement outcome
}

func newFixture(t *testing.T, tasks int, reps int64) *fixture {
	t.Helper()
	f := &fixture{t: t, c: &tables.Campaign{}, s: &tables.Set{Tokens: spool.New[tables.Token](nil)}}
	m := &f.c.Manifest
	m.GatePolicy.Preset = string(rules.PresetEvaluation)
	m.Ceilings.Session = tables.SessionCeilings{WallMS: 240_000, InputTokens: 90_000, OutputTokens: 8_000}
	m.Ceilings.Campaign.InfrastructureReplacements = 1
	m.Design.Arms = []tables.Arm{{ID: "A"}, {ID: "B", Reconciliation: true}}
	m.Design.Repetitions = reps
	for i := 1; i <= tasks; i++ {
		id := fmt.Sprintf("T%d", i)
		repo := fmt.Sprintf("R%d", (i+1)/2)
		m.Design.Tasks = append(m.Design.Tasks, tables.TaskSpec{ID: id, Repository: repo, Family: id, Split: "evaluation", Category: tables.CategoryChangeImpact})
		for rep := int64(1); rep <= reps; rep++ {
			f.runs = append(f.runs,
				f.run(id, repo, rep, "A", 80, "1.00", "0.50", 100),
				f.run(id, repo, rep, "B", 95, "1.05", "0.55", 105))
		}
	}
	return f
}

func (f *fixture) money(s string) *tables.Money {
	f.t.Helper()
	m, err := tables.ParseMoney(s)
	if err != nil {
		f.t.Fatalf("ParseMoney(%q): %v", s, err)
	}
	return &m
}

func (f *fixture) run(task, repo string, rep int64, arm string, r int64, cost, review string, seconds int64) tables.Run {
	rf := float64(r) / 100
	yes := true
	return tables.Run{
		TaskID: task, Repository: repo, Family: task, Repetition: rep, Arm: arm,
		DraftSessionID: fmt.Sprintf("%s-r%d-D", task, rep), ReviewSessionID: fmt.Sprintf("%s-r%d-%s", task, rep, arm),
		Classification: "valid", Scored: true, R: &rf, RNum: r, RDen: 100,
		SourceGate: true, ProtocolGate: true, StructuralPass: true, SemanticPass: &yes,
		WorkflowCost: f.money(cost), ReviewCost: f.money(review),
		WorkflowNS: seconds * int64(time.Second), ReviewNS: seconds / 2 * int64(time.Second), TimeComplete: true,
	}
}

// edit changes the runs of a task and arm (all repetitions when rep is 0).
func (f *fixture) edit(task, arm string, rep int64, fn func(*tables.Run)) {
	n := 0
	for i := range f.runs {
		r := &f.runs[i]
		if r.TaskID == task && r.Arm == arm && (rep == 0 || r.Repetition == rep) {
			fn(r)
			n++
		}
	}
	if n == 0 {
		f.t.Fatalf("no run %s %s r%d", task, arm, rep)
	}
}

func (f *fixture) setR(task, arm string, rep, r int64) {
	f.edit(task, arm, rep, func(run *tables.Run) {
		rf := float64(r) / 100
		run.RNum, run.R = r, &rf
	})
}

func (f *fixture) setCost(task, arm string, rep int64, cost string) {
	f.edit(task, arm, rep, func(run *tables.Run) { run.WorkflowCost = f.money(cost) })
}

func (f *fixture) aggregate() {
	aggregateInto(f.c, f.s, f.runs, f.replacements)
}

// aggregateInto runs the stage on the earlier stages' tables in s (their
// findings in s.Rejections, which the stage never reads) and runs, and adds
// its output to s, with the decision after tables.ApplyRejections.
func aggregateInto(c *tables.Campaign, s *tables.Set, runs []tables.Run, replacements tables.Replacements) {
	s.Runs = spool.Of(runs...)
	out := Run(c, tables.Validated{Sessions: s.Sessions, Replacements: replacements}, tables.Accounted{Tokens: s.Tokens, Ceilings: s.Ceilings}, tables.Scored{Runs: s.Runs, Findings: s.Rejections})
	s.Tasks = append(s.Tasks, out.Tasks...)
	s.Repositories = append(s.Repositories, out.Repositories...)
	s.Gates = append(s.Gates, out.Gates...)
	s.Rejections = append(s.Rejections, out.Findings...)
	// The one rule stages.Run applies after every stage: any rejecting
	// finding gives no_verdict.
	s.Decision = append(s.Decision, tables.ApplyRejections(out.Decision, s.Rejections)...)
}

func (f *fixture) gate(name rules.GateName) tables.Gate {
	f.t.Helper()
	for _, g := range f.s.Gates {
		if g.Gate == name {
			return g
		}
	}
	f.t.Fatalf("no gate %s in %+v", name, f.s.Gates)
	return tables.Gate{}
}

func (f *fixture) decision() tables.Decision {
	f.t.Helper()
	if len(f.s.Decision) != 1 {
		f.t.Fatalf("got %d decision rows, want 1", len(f.s.Decision))
	}
	return f.s.Decision[0]
}

func (f *fixture) wantDecision(decision tables.Verdict, failing string) {
	f.t.Helper()
	d := f.decision()
	if d.Decision != decision || strings.Join(d.FailingGates, ",") != failing {
		f.t.Fatalf("decision %s failing %q (%s), want %s failing %q", d.Decision, d.FailingGates, d.Reason, decision, failing)
	}
}

func (f *fixture) wantGate(name rules.GateName, observed string, pass bool) {
	f.t.Helper()
	g := f.gate(name)
	if g.Observed != observed || g.Pass != pass {
		f.t.Fatalf("gate %s observed %q pass %v (failing %q, %s), want %q %v", name, g.Observed, g.Pass, g.Failing, g.Detail, observed, pass)
	}
}

func (f *fixture) taskRow(task, arm string) tables.Task {
	f.t.Helper()
	for _, r := range f.s.Tasks {
		if r.TaskID == task && r.Arm == arm {
			return r
		}
	}
	f.t.Fatalf("no task row %s %s", task, arm)
	return tables.Task{}
}

func hasCode(fs []rules.Finding, code rules.Code) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// failingList is a decision's failing_gates column for gates, in order.
func failingList(gates ...rules.GateName) string {
	var out []string
	for _, g := range gates {
		out = append(out, string(g))
	}
	return strings.Join(out, ",")
}
