package score

import (
	"testing"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// The fixture is one task T1 of repository R1 with four obligations:
//
//	O1 answerable, critical
//	O2 answerable
//	O3 answerable
//	O4 unanswerable, critical
//
// so R = addressed among {O1,O2,O3} / 3 and U = credited among {O4} / 1.
// Arms: A (baseline, ordinary review) and B (reconciliation). Every review
// final has two citations. Costs: draft 0.10, each review 0.20 (reference),
// tool charges 0.01 on B's review; durations: draft 60 s, reviews 30 s,
// validation 1 s each.

type fixture struct {
	c         *tables.Campaign
	s         *tables.Set
	sessions  []tables.Session // the validate stage's session rows, spooled into s by run
	citations map[string]int64 // the validate stage's citation counts
}

func money(t *testing.T, s string) *tables.Money {
	t.Helper()
	m, err := tables.ParseMoney(s)
	if err != nil {
		t.Fatalf("ParseMoney(%q): %v", s, err)
	}
	return &m
}

func newFixture(t *testing.T, reps int64) *fixture {
	t.Helper()
	spec := tables.TaskSpec{ID: "T1", Repository: "R1", Family: "F1", Split: "evaluation", Category: tables.CategoryChangeImpact, TruthPath: "tasks/T1/truth.json"}
	truth := tables.Truth{TaskID: "T1", Obligations: []tables.TruthObligation{
		{ID: "O1", Answerable: true, Critical: true},
		{ID: "O2", Answerable: true},
		{ID: "O3", Answerable: true},
		{ID: "O4", Answerable: false, Critical: true},
	}}
	f := &fixture{
		c: &tables.Campaign{Manifest: tables.Manifest{Design: tables.Design{
			Repetitions: reps,
			Arms:        []tables.Arm{{ID: "A"}, {ID: "B", Reconciliation: true}},
			Tasks:       []tables.TaskSpec{spec},
		}}, Tasks: []tables.LoadedTask{{Spec: spec, Truth: truth}},
			Unblinding: &tables.Unblinding{Format: tables.FormatUnblinding, UnblindedAt: time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)}},
		s:         &tables.Set{Tokens: spool.New[tables.Token](nil)},
		citations: map[string]int64{},
	}
	for rep := int64(1); rep <= reps; rep++ {
		order := []string{"A", "B"}
		if rep%2 == 0 {
			order = []string{"B", "A"}
		}
		f.c.Manifest.Design.Schedule = append(f.c.Manifest.Design.Schedule, tables.Slot{Task: "T1", Repetition: rep, Order: order})
		f.addSession(t, sessionID(rep, "D"), rep, tables.RoleDraft, "", "0.10", "0", 60)
		f.addSession(t, sessionID(rep, "A"), rep, tables.RoleReview, "A", "0.20", "0", 30)
		f.addSession(t, sessionID(rep, "B"), rep, tables.RoleReview, "B", "0.20", "0.01", 30)
	}
	return f
}

func sessionID(rep int64, role string) string {
	return "T1-r" + string(rune('0'+rep)) + "-" + role
}

func (f *fixture) addSession(t *testing.T, id string, rep int64, role, arm, cost, tools string, seconds int64) {
	t.Helper()
	yes := true
	dur := seconds * int64(time.Second)
	s := tables.Session{
		SessionID: id, Attempt: 1, TaskID: "T1", Repository: "R1", Family: "F1", Repetition: rep, Role: role,
		Status: tables.StatusResponse, Classification: "valid", AnswerValid: &yes, FinalValid: &yes,
		IdentityMatches: true, DurationNS: &dur, ValidationNS: int64(time.Second),
	}
	if arm != "" {
		s.Arm = &arm
		if arm == "B" {
			s.ReconciliationValid = &yes
		}
		f.citations[id] = 2
	}
	f.sessions = append(f.sessions, s)
	f.s.Tokens.Add(tables.Token{SessionID: id, ReferenceCost: money(t, cost), ToolCharges: money(t, tools)})
}

func (f *fixture) session(id string) *tables.Session {
	for i := range f.sessions {
		if f.sessions[i].SessionID == id {
			return &f.sessions[i]
		}
	}
	panic("no session " + id)
}

// rating is a complete, blinded adjudication: outcomes for O1..O4 in
// order, both citations supporting, zero counts.
func rating(session, rater, role string, o1, o2, o3, o4 string) tables.Adjudication {
	return tables.Adjudication{
		Format: tables.FormatAdjudication, SessionID: session, Rater: rater, RaterRole: role, Blinded: true,
		FrozenAt: time.Date(2026, 9, 10, 0, 0, 0, 0, time.UTC),
		Obligations: []tables.ObligationRating{
			{ObligationID: "O1", Outcome: o1}, {ObligationID: "O2", Outcome: o2},
			{ObligationID: "O3", Outcome: o3}, {ObligationID: "O4", Outcome: o4},
		},
		Citations: []tables.CitationRating{{Index: 0, Supports: true}, {Index: 1, Supports: true}},
	}
}

const (
	addr = tables.OutcomeAddressed
	miss = tables.OutcomeMissed
	wrng = tables.OutcomeWrong
	unkc = tables.OutcomeUnknownCredited
)

// rate adds the same rating from two primary raters.
func (f *fixture) rate(a tables.Adjudication) {
	p1, p2 := a, a
	p1.Rater, p1.RaterRole = "rater1", tables.RaterPrimary
	p2.Rater, p2.RaterRole = "rater2", tables.RaterPrimary
	f.add(p1, p2)
}

func (f *fixture) add(as ...tables.Adjudication) {
	if f.c.Adjudications == nil {
		f.c.Adjudications = spool.New[tables.Line[tables.Adjudication]](nil)
	}
	for _, a := range as {
		f.c.Adjudications.Add(tables.Line[tables.Adjudication]{Line: int64(f.c.Adjudications.Len() + 1), Record: a})
	}
}

// rateAll gives every review of the fixture the same agreed rating.
func (f *fixture) rateAll(o1, o2, o3, o4 string) {
	for rep := int64(1); rep <= f.c.Manifest.Design.Repetitions; rep++ {
		for _, arm := range []string{"A", "B"} {
			f.rate(rating(sessionID(rep, arm), "", "", o1, o2, o3, o4))
		}
	}
}

func (f *fixture) run(t *testing.T) {
	t.Helper()
	f.s.Sessions = spool.Of(f.sessions...)
	scoreInto(f.c, f.s, f.citations)
}

// scoreInto runs the stage on the earlier stages' tables in s and the
// validate stage's citation counts, and adds its output to s.
func scoreInto(c *tables.Campaign, s *tables.Set, citations map[string]int64) {
	var counts []int64 // validate's column beside the session rows
	for r := range s.Sessions.All() {
		n, ok := citations[r.SessionID]
		if !ok {
			n = tables.NoCitationCount
		}
		counts = append(counts, n)
	}
	out := Run(c, tables.Validated{Sessions: s.Sessions, CitationCounts: counts}, tables.Accounted{Tokens: s.Tokens})
	if s.Runs == nil {
		s.Runs = spool.New[tables.Run](nil)
	}
	s.Runs.Add(out.Runs.Collect()...)
	s.Obligations = out.Obligations
	s.Rejections = append(s.Rejections, out.Findings...)
}

func (f *fixture) runRow(t *testing.T, rep int64, arm string) tables.Run {
	t.Helper()
	for _, r := range f.s.Runs.Collect() {
		if r.Repetition == rep && r.Arm == arm {
			return r
		}
	}
	t.Fatalf("no run row for repetition %d arm %s in %+v", rep, arm, f.s.Runs)
	return tables.Run{}
}

func (f *fixture) codes() map[rules.Code]int {
	m := map[rules.Code]int{}
	for _, r := range f.s.Rejections {
		m[r.Code]++
	}
	return m
}
