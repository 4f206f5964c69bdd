package score

import (
	"testing"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

func checkR(t *testing.T, run tables.Run, num, den int64) {
	t.Helper()
	if !run.Scored || run.RNum != num || run.RDen != den || run.R == nil || *run.R != float64(num)/float64(den) {
		t.Fatalf("run %s/%d: scored=%v R=%d/%d (%v), want scored R=%d/%d", run.Arm, run.Repetition, run.Scored, run.RNum, run.RDen, run.R, num, den)
	}
}

func checkU(t *testing.T, run tables.Run, num, den int64) {
	t.Helper()
	if run.UNum != num || run.UDen != den || run.U == nil || *run.U != float64(num)/float64(den) {
		t.Fatalf("run %s/%d: U=%d/%d (%v), want %d/%d", run.Arm, run.Repetition, run.UNum, run.UDen, run.U, num, den)
	}
}

func TestEveryPlannedRunHasARow(t *testing.T) {
	t.Run("three repetitions and two arms make six rows sorted by repetition and arm", func(t *testing.T) {
		f := newFixture(t, 3)
		f.rateAll(addr, addr, addr, unkc)
		f.run(t)
		if f.s.Runs.Len() != 6 {
			t.Fatalf("got %d runs, want 6", f.s.Runs.Len())
		}
		want := []struct {
			rep      int64
			arm      string
			position int64
		}{{1, "A", 1}, {1, "B", 2}, {2, "A", 2}, {2, "B", 1}, {3, "A", 1}, {3, "B", 2}}
		runs := f.s.Runs.Collect()
		for i, w := range want {
			r := runs[i]
			if r.Repetition != w.rep || r.Arm != w.arm || r.Position != w.position {
				t.Fatalf("row %d = rep %d arm %s position %d, want %+v", i, r.Repetition, r.Arm, r.Position, w)
			}
		}
		// 6 runs × 4 obligations.
		if f.s.Obligations.Len() != 24 {
			t.Fatalf("got %d obligation rows, want 24", f.s.Obligations.Len())
		}
	})
	t.Run("a planned run without sessions is kept, unscored, classified invalid", func(t *testing.T) {
		f := newFixture(t, 1)
		f.sessions = f.sessions[:2] // drop T1-r1-B
		f.rateAll(addr, addr, addr, unkc)
		f.run(t)
		b := f.runRow(t, 1, "B")
		if b.Scored || b.R != nil || b.Classification != "invalid" || b.SemanticPass != nil {
			t.Fatalf("missing run: %+v", b)
		}
		if b.RDen != 3 {
			t.Fatalf("denominator shrank: RDen=%d, want 3", b.RDen)
		}
	})
}

func TestSameRatingsSameScore(t *testing.T) {
	// C01 (correct answer), C02 (paraphrase) and C03 (another valid path)
	// are rated the same, so they score the same: R = 3/3, U = 1/1.
	f := newFixture(t, 1)
	f.rateAll(addr, addr, addr, unkc)
	f.run(t)
	a, b := f.runRow(t, 1, "A"), f.runRow(t, 1, "B")
	checkR(t, a, 3, 3)
	checkR(t, b, 3, 3)
	checkU(t, a, 1, 1)
	checkU(t, b, 1, 1)
	for _, r := range []tables.Run{a, b} {
		t.Run("run "+r.Arm, func(t *testing.T) {
			if r.CriticalFailures != 0 || !r.SourceGate || !r.ProtocolGate || !r.StructuralPass || r.SemanticPass == nil || !*r.SemanticPass {
				t.Fatalf("full-credit run: %+v", r)
			}
			if r.WrongClaims == nil || *r.WrongClaims != 0 {
				t.Fatalf("wrong claims of a valid answer must be 0, not null: %v", r.WrongClaims)
			}
		})
	}
	if len(f.s.Rejections) != 0 {
		t.Fatalf("unexpected findings: %v", f.s.Rejections)
	}
}

func TestSemanticControls(t *testing.T) {
	tests := []struct {
		name           string
		o1, o2, o3, o4 string
		edit           func(*tables.Adjudication)
		rNum, uNum     int64
		critical       int64
		sourceGate     bool
		semantic       bool
	}{
		// C05: critical O1 omitted though its source is supplied: R = 2/3,
		// one critical failure.
		{name: "C05 critical condition omitted", o1: miss, o2: addr, o3: addr, o4: unkc, rNum: 2, uNum: 1, critical: 1, sourceGate: true},
		// C05 on a non-critical obligation: coverage loss only.
		{name: "C05 non-critical condition omitted", o1: addr, o2: miss, o3: addr, o4: unkc, rNum: 2, uNum: 1, critical: 0, sourceGate: true, semantic: true},
		// C06: precise unknown with bounded verification: U = 1/1, R unchanged.
		{name: "C06 uncertainty credit", o1: addr, o2: addr, o3: addr, o4: unkc, rNum: 3, uNum: 1, critical: 0, sourceGate: true, semantic: true},
		// C07: generic caveat: no U credit; O4 is critical so 1 critical failure.
		{name: "C07 generic caveat", o1: addr, o2: addr, o3: addr, o4: miss, rNum: 3, uNum: 0, critical: 1, sourceGate: true},
		// C08: asserting the missing fact: unsupported claim, source gate fails,
		// critical failures = O4 not credited (1) + 1 critical wrong claim = 2.
		{name: "C08 asserted missing fact", o1: addr, o2: addr, o3: addr, o4: wrng,
			edit: func(a *tables.Adjudication) { a.UnsupportedClaims, a.CriticalWrongClaims = 1, 1 },
			rNum: 3, uNum: 0, critical: 2, sourceGate: false},
		// C10: valid coordinates, citation does not support its claim.
		{name: "C10 unsupporting citation", o1: addr, o2: addr, o3: addr, o4: unkc,
			edit: func(a *tables.Adjudication) { a.Citations[1].Supports = false },
			rNum: 3, uNum: 1, critical: 0, sourceGate: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, 1)
			a := rating(sessionID(1, "B"), "", "", tc.o1, tc.o2, tc.o3, tc.o4)
			if tc.edit != nil {
				tc.edit(&a)
			}
			f.rate(a)
			f.rate(rating(sessionID(1, "A"), "", "", addr, addr, addr, unkc))
			f.run(t)
			b := f.runRow(t, 1, "B")
			checkR(t, b, tc.rNum, 3)
			checkU(t, b, tc.uNum, 1)
			if b.CriticalFailures != tc.critical || b.SourceGate != tc.sourceGate || *b.SemanticPass != tc.semantic {
				t.Fatalf("critical=%d source=%v semantic=%v, want %d %v %v", b.CriticalFailures, b.SourceGate, *b.SemanticPass, tc.critical, tc.sourceGate, tc.semantic)
			}
		})
	}
}

func TestStructuralPassSemanticFail(t *testing.T) {
	// C11: every evidence ID accounted for (structurally valid) but relevant
	// evidence wrongly excluded: structural pass, semantic fail.
	f := newFixture(t, 1)
	a := rating(sessionID(1, "B"), "", "", addr, miss, addr, unkc)
	a.WrongExclusions = 1
	f.rate(a)
	f.rate(rating(sessionID(1, "A"), "", "", addr, addr, addr, unkc))
	f.run(t)
	b := f.runRow(t, 1, "B")
	if !b.StructuralPass || !b.ProtocolGate || b.SemanticPass == nil || *b.SemanticPass {
		t.Fatalf("C11: structural=%v protocol=%v semantic=%v, want true true false", b.StructuralPass, b.ProtocolGate, b.SemanticPass)
	}
	checkR(t, b, 2, 3)
}

func TestCompletionFailures(t *testing.T) {
	t.Run("C16 review timeout scores R=0 without ratings", func(t *testing.T) {
		f := newFixture(t, 1)
		s := f.session(sessionID(1, "B"))
		timeout := tables.ErrorModelTimeout
		s.Status, s.ErrorClass, s.Classification, s.FinalValid, s.AnswerValid = tables.StatusError, &timeout, "scored_failure", nil, nil
		f.rate(rating(sessionID(1, "A"), "", "", addr, addr, addr, unkc))
		f.run(t)
		b := f.runRow(t, 1, "B")
		checkR(t, b, 0, 3)
		checkU(t, b, 0, 1)
		// Critical failures: O1 and O4 are critical and neither is met.
		if !b.CriticalCompletionFailed || b.CriticalFailures != 2 || b.SourceGate || b.ProtocolGate || b.StructuralPass {
			t.Fatalf("timeout run: %+v", b)
		}
		if b.WrongClaims != nil || b.CriticalWrongClaims != nil || b.UnsupportedClaims != nil || b.FalseCompletenessClaims != nil {
			t.Fatal("wrong-claim counts of a run without a valid answer must be null, not zero")
		}
		if len(f.s.Rejections) != 0 {
			t.Fatalf("a completion failure needs no ratings, got findings %v", f.s.Rejections)
		}
	})
	t.Run("valid final with invalid reconciliation is scored, protocol gate false", func(t *testing.T) {
		f := newFixture(t, 1)
		s := f.session(sessionID(1, "B"))
		no := false
		s.Classification, s.AnswerValid, s.ReconciliationValid = "scored_failure", &no, &no
		f.rateAll(addr, addr, addr, unkc)
		f.run(t)
		b := f.runRow(t, 1, "B")
		checkR(t, b, 3, 3)
		if b.ProtocolGate || !b.SourceGate || b.CriticalCompletionFailed || b.StructuralPass {
			t.Fatalf("protocol=%v source=%v completion=%v structural=%v", b.ProtocolGate, b.SourceGate, b.CriticalCompletionFailed, b.StructuralPass)
		}
	})
	t.Run("C09 structural citation failure closes the source gate", func(t *testing.T) {
		f := newFixture(t, 1)
		f.session(sessionID(1, "A")).CitationFailures = 1
		f.rateAll(addr, addr, addr, unkc)
		f.run(t)
		if a := f.runRow(t, 1, "A"); a.SourceGate {
			t.Fatal("source gate passed with a structural citation failure")
		}
	})
}

func TestSharedDraftFailure(t *testing.T) {
	// C23: the draft timed out; both reviews were not dispatched.
	f := newFixture(t, 1)
	d := f.session(sessionID(1, "D"))
	timeout := tables.ErrorModelTimeout
	d.Status, d.ErrorClass, d.Classification, d.FinalValid = tables.StatusError, &timeout, "scored_failure", nil
	for _, arm := range []string{"A", "B"} {
		r := f.session(sessionID(1, arm))
		up := tables.ErrorUpstreamDraftFailed
		r.Status, r.ErrorClass, r.Classification, r.FinalValid, r.AnswerValid, r.DurationNS, r.ValidationNS = tables.StatusNotDispatched, &up, "not_dispatched", nil, nil, nil, 0
	}
	f.run(t)
	for _, arm := range []string{"A", "B"} {
		t.Run("arm "+arm, func(t *testing.T) {
			r := f.runRow(t, 1, arm)
			checkR(t, r, 0, 3)
			checkU(t, r, 0, 1)
			if r.Classification != "shared_draft_failure" || !r.CriticalCompletionFailed || r.SourceGate || r.ProtocolGate {
				t.Fatalf("shared-draft failure: %+v", r)
			}
			// Cost and time are the draft's only: 0.10 and 60 s + 1 s.
			if r.WorkflowCost == nil || r.WorkflowCost.String() != "0.10" || r.ReviewCost == nil || *r.ReviewCost != 0 {
				t.Fatalf("cost %v / review %v, want 0.10 / 0", r.WorkflowCost, r.ReviewCost)
			}
			if r.WorkflowNS != int64(61*time.Second) || r.ReviewNS != 0 || !r.TimeComplete {
				t.Fatalf("time %d / review %d / complete %v, want 61s / 0 / true", r.WorkflowNS, r.ReviewNS, r.TimeComplete)
			}
		})
	}
}

func TestCostAndTime(t *testing.T) {
	t.Run("workflow is draft plus own review plus tools and validation", func(t *testing.T) {
		f := newFixture(t, 1)
		f.rateAll(addr, addr, addr, unkc)
		f.run(t)
		a, b := f.runRow(t, 1, "A"), f.runRow(t, 1, "B")
		// A: 0.10 + 0.20 = 0.30; B: 0.10 + 0.20 + 0.01 tools = 0.31.
		if a.WorkflowCost.String() != "0.30" || a.ReviewCost.String() != "0.20" || b.WorkflowCost.String() != "0.31" || b.ReviewCost.String() != "0.21" {
			t.Fatalf("costs A %v/%v B %v/%v", a.WorkflowCost, a.ReviewCost, b.WorkflowCost, b.ReviewCost)
		}
		// (60 + 1) + (30 + 1) = 92 s; review 31 s.
		if a.WorkflowNS != int64(92*time.Second) || a.ReviewNS != int64(31*time.Second) || !a.TimeComplete {
			t.Fatalf("time %d / %d", a.WorkflowNS, a.ReviewNS)
		}
	})
	t.Run("a null part makes the workflow cost null, never zero", func(t *testing.T) {
		f := newFixture(t, 1)
		toks := f.s.Tokens.Collect()
		toks[0].ReferenceCost = nil // the draft has no tariff
		f.s.Tokens = spool.Of(toks...)
		f.rateAll(addr, addr, addr, unkc)
		f.run(t)
		a := f.runRow(t, 1, "A")
		if a.WorkflowCost != nil || a.ReviewCost == nil {
			t.Fatalf("workflow %v review %v, want null and 0.20", a.WorkflowCost, a.ReviewCost)
		}
	})
	t.Run("unknown duration marks time incomplete", func(t *testing.T) {
		f := newFixture(t, 1)
		f.session(sessionID(1, "B")).DurationNS = nil
		f.rateAll(addr, addr, addr, unkc)
		f.run(t)
		if b := f.runRow(t, 1, "B"); b.TimeComplete {
			t.Fatal("time complete without a review duration")
		}
	})
}

func TestInfrastructureReplacement(t *testing.T) {
	// Attempt 1 of B was invalid; attempt 2 replaced it and is the one scored.
	f := newFixture(t, 1)
	old := f.session(sessionID(1, "B"))
	old.Classification = "invalid"
	f.addSession(t, "T1-r1-B-a2", 1, tables.RoleReview, "B", "0.20", "0", 30)
	f.sessions[len(f.sessions)-1].Attempt = 2
	f.rate(rating(sessionID(1, "A"), "", "", addr, addr, addr, unkc))
	f.rate(rating("T1-r1-B-a2", "", "", addr, addr, miss, unkc))
	f.run(t)
	b := f.runRow(t, 1, "B")
	if b.ReviewSessionID != "T1-r1-B-a2" {
		t.Fatalf("scored %s, want the replacement", b.ReviewSessionID)
	}
	checkR(t, b, 2, 3)
}

func TestDefectiveOracle(t *testing.T) {
	// C22: rejected before scoring; runs stay unscored.
	f := newFixture(t, 1)
	f.c.Tasks[0].Truth.Oracle.Defective = true
	f.rateAll(addr, addr, addr, unkc)
	f.run(t)
	if a := f.runRow(t, 1, "A"); a.Scored || a.R != nil {
		t.Fatalf("scored a run of a defective oracle: %+v", a)
	}
	if f.codes()[rules.CodeOracleDefective] != 1 {
		t.Fatalf("findings %v", f.s.Rejections)
	}
}

// TestLatestAttemptLinks: a run reads the latest attempt of its draft and
// review whatever the rows' order, a replaced draft is replaced for both
// arms with its own cost, a session of an unplanned repetition is no run's,
// and a rating of a session that is no scored review is told apart from
// one of no session at all. By hand: D attempt 2 costs 0.30 and A's review
// 0.20, so A's workflow costs 0.50; B's review 0.20 + 0.01 tools, 0.51.
func TestLatestAttemptLinks(t *testing.T) {
	f := newFixture(t, 1)
	f.addSession(t, "T1-r1-D-a2", 1, tables.RoleDraft, "", "0.30", "0", 60)
	f.sessions[len(f.sessions)-1].Attempt = 2
	f.sessions = append([]tables.Session{f.sessions[len(f.sessions)-1]}, f.sessions[:len(f.sessions)-1]...) // attempt 2 first
	f.addSession(t, "T1-r7-B", 7, tables.RoleReview, "B", "9", "0", 30)                                     // repetition 7 is not planned
	f.rateAll(addr, addr, addr, unkc)
	f.rate(rating("T1-r1-D", "", "", addr, addr, addr, unkc)) // a session, no scored review: warn
	f.rate(rating("T1-r9-X", "", "", addr, addr, addr, unkc)) // no session: reject
	f.run(t)
	if f.s.Runs.Len() != 2 {
		t.Fatalf("%d runs, want 2", f.s.Runs.Len())
	}
	for _, c := range []struct {
		arm, cost string
	}{{"A", "0.50"}, {"B", "0.51"}} {
		r := f.runRow(t, 1, c.arm)
		if r.DraftSessionID != "T1-r1-D-a2" || r.WorkflowCost == nil || r.WorkflowCost.String() != c.cost {
			t.Errorf("arm %s: draft %s workflow cost %v, want T1-r1-D-a2 and %s", c.arm, r.DraftSessionID, r.WorkflowCost, c.cost)
		}
	}
	codes := f.codes()
	if codes[rules.CodeRatingUnscoreableRun] != 2 || codes[rules.CodeRatingUnknownSession] != 2 {
		t.Errorf("findings %v, want two unscoreable-run warnings and two unknown-session rejections", f.s.Rejections)
	}
}
