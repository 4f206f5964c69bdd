package score

import (
	"fmt"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

func primary(a tables.Adjudication, rater string) tables.Adjudication {
	a.Rater, a.RaterRole = rater, tables.RaterPrimary
	return a
}

func TestAdjudicationProtocol(t *testing.T) {
	sid := sessionID(1, "B")
	t.Run("disagreement settled wholesale by the adjudicator", func(t *testing.T) {
		f := newFixture(t, 1)
		f.rate(rating(sessionID(1, "A"), "", "", addr, addr, addr, unkc))
		adj := rating(sid, "judge", tables.RaterAdjudicator, addr, miss, miss, unkc)
		f.add(
			primary(rating(sid, "", "", addr, addr, addr, unkc), "rater1"),
			primary(rating(sid, "", "", addr, addr, miss, unkc), "rater2"),
			adj,
		)
		f.run(t)
		// The adjudicator's record decides everything: R = 1/3, not a mix.
		checkR(t, f.runRow(t, 1, "B"), 1, 3)
		for o := range f.s.Obligations.All() {
			if o.Arm == "B" && o.SettledBy != "adjudicator" {
				t.Fatalf("obligation row settled by %q", o.SettledBy)
			}
		}
	})
	t.Run("disagreement on a count alone needs the adjudicator", func(t *testing.T) {
		f := newFixture(t, 1)
		f.rate(rating(sessionID(1, "A"), "", "", addr, addr, addr, unkc))
		other := primary(rating(sid, "", "", addr, addr, addr, unkc), "rater2")
		other.WrongClaims = 1
		f.add(primary(rating(sid, "", "", addr, addr, addr, unkc), "rater1"), other)
		f.run(t)
		b := f.runRow(t, 1, "B")
		if b.Scored || b.R != nil || b.SemanticPass != nil {
			t.Fatalf("unsettled run was scored: %+v", b)
		}
		if f.codes()[rules.CodeDisagreementUnsettled] != 1 {
			t.Fatalf("findings %v", f.s.Rejections)
		}
	})
	t.Run("one primary rating leaves the run unscored, never zero", func(t *testing.T) {
		f := newFixture(t, 1)
		f.rate(rating(sessionID(1, "A"), "", "", addr, addr, addr, unkc))
		f.add(primary(rating(sid, "", "", addr, addr, addr, unkc), "rater1"))
		f.run(t)
		b := f.runRow(t, 1, "B")
		if b.Scored || b.R != nil || b.RNum != 0 || b.RDen != 3 {
			t.Fatalf("run %+v", b)
		}
		if f.codes()[rules.CodeRunUnrated] != 1 {
			t.Fatalf("findings %v", f.s.Rejections)
		}
		for o := range f.s.Obligations.All() {
			if o.Arm == "B" && (o.Outcome != nil || o.SettledBy != "unrated") {
				t.Fatalf("obligation row %+v", o)
			}
		}
	})
}

func TestRatingFindings(t *testing.T) {
	sid := sessionID(1, "B")
	good := func() tables.Adjudication { return rating(sid, "", "", addr, addr, addr, unkc) }
	tests := []struct {
		name string
		edit func(*tables.Adjudication)
		code rules.Code
		ptr  string
	}{
		{"unknown session", func(a *tables.Adjudication) { a.SessionID = "T9-r1-B" }, rules.CodeRatingUnknownSession, "/session_id"},
		{"not blinded", func(a *tables.Adjudication) { a.Blinded = false }, rules.CodeRatingNotBlinded, "/blinded"},
		{"unknown role", func(a *tables.Adjudication) { a.RaterRole = "boss" }, rules.CodeRatingUnknownRole, "/rater_role"},
		{"obligation not in truth", func(a *tables.Adjudication) { a.Obligations[3].ObligationID = "O9" }, rules.CodeRatingUnknownObligation, "/obligations/3/obligation_id"},
		{"obligation rated twice", func(a *tables.Adjudication) {
			a.Obligations = append(a.Obligations, tables.ObligationRating{ObligationID: "O1", Outcome: addr})
		}, rules.CodeRatingDuplicateOblig, "/obligations/4/obligation_id"},
		{"obligation missing", func(a *tables.Adjudication) { a.Obligations = a.Obligations[:3] }, rules.CodeRatingMissingObligation, "/obligations"},
		{"unknown outcome", func(a *tables.Adjudication) { a.Obligations[0].Outcome = "great" }, rules.CodeRatingUnknownOutcome, "/obligations/0/outcome"},
		{"citation index out of range", func(a *tables.Adjudication) { a.Citations[1].Index = 2 }, rules.CodeRatingCitationIndex, "/citations/1/index"},
		{"negative citation index", func(a *tables.Adjudication) { a.Citations[0].Index = -1 }, rules.CodeRatingCitationIndex, "/citations/0/index"},
		{"citation judgment missing", func(a *tables.Adjudication) { a.Citations = a.Citations[:1] }, rules.CodeRatingMissingCitation, "/citations"},
		{"negative count", func(a *tables.Adjudication) { a.UnsupportedClaims = -1 }, rules.CodeRatingNegativeCount, "/unsupported_claims"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, 1)
			f.rate(rating(sessionID(1, "A"), "", "", addr, addr, addr, unkc))
			bad := primary(good(), "rater1")
			tc.edit(&bad)
			f.add(bad, primary(good(), "rater2"))
			f.run(t)
			var hit *rules.Finding
			for i, r := range f.s.Rejections {
				if r.Code == tc.code {
					hit = &f.s.Rejections[i]
				}
			}
			if hit == nil {
				t.Fatalf("no %s finding in %v", tc.code, f.s.Rejections)
			}
			if hit.Pointer != tc.ptr || hit.Line != 3 || hit.File != "adjudications.jsonl" {
				t.Fatalf("finding at %s:%d#%s, want adjudications.jsonl:3#%s", hit.File, hit.Line, hit.Pointer, tc.ptr)
			}
			// The defective rating does not count, so B keeps one usable
			// primary and stays unscored.
			if b := f.runRow(t, 1, "B"); b.Scored {
				t.Fatalf("run scored from a defective rating: %+v", b)
			}
		})
	}
	t.Run("duplicate rater", func(t *testing.T) {
		f := newFixture(t, 1)
		f.add(primary(good(), "rater1"), primary(good(), "rater1"))
		f.run(t)
		if f.codes()[rules.CodeRatingDuplicateRater] != 1 || f.runRow(t, 1, "B").Scored {
			t.Fatalf("findings %v", f.s.Rejections)
		}
	})
	t.Run("duplicate rater among many", func(t *testing.T) {
		// twelve raters of one session, past the few a session's rater set
		// holds in a slice: the repeat of the fifth is still found, once
		f := newFixture(t, 1)
		f.add(primary(good(), "rater1"), primary(good(), "rater2"))
		for i := 3; i <= 12; i++ {
			a := good()
			a.Rater, a.RaterRole = fmt.Sprintf("rater%d", i), tables.RaterAdjudicator
			f.add(a)
		}
		f.add(primary(good(), "rater5"), primary(good(), "rater13"))
		f.run(t)
		if c := f.codes(); c[rules.CodeRatingDuplicateRater] != 1 || c[rules.CodeRatingExtraAdjudicator] != 9 || c[rules.CodeRatingExtraPrimary] != 1 || !f.runRow(t, 1, "B").Scored {
			t.Fatalf("findings %v", f.s.Rejections)
		}
	})
	t.Run("third primary", func(t *testing.T) {
		f := newFixture(t, 1)
		f.add(primary(good(), "rater1"), primary(good(), "rater2"), primary(good(), "rater3"))
		f.run(t)
		if f.codes()[rules.CodeRatingExtraPrimary] != 1 || !f.runRow(t, 1, "B").Scored {
			t.Fatalf("findings %v", f.s.Rejections)
		}
	})
	t.Run("rating of a run without a valid final is ignored", func(t *testing.T) {
		f := newFixture(t, 1)
		s := f.session(sid)
		s.Status, s.FinalValid = tables.StatusError, nil
		f.add(primary(good(), "rater1"), primary(good(), "rater2"))
		f.run(t)
		if f.codes()[rules.CodeRatingUnscoreableRun] != 2 {
			t.Fatalf("findings %v", f.s.Rejections)
		}
		checkR(t, f.runRow(t, 1, "B"), 0, 3)
	})
}

// FuzzRatings feeds hostile rating fields through the stage: it must never
// panic and every planned run keeps its row.
func FuzzRatings(f *testing.F) {
	f.Add("T1-r1-B", "rater1", "primary", "O1", "addressed", int64(0), int64(0), true)
	f.Add("", "", "", "", "", int64(-1), int64(-5), false)
	f.Fuzz(func(t *testing.T, session, rater, role, oblig, outcome string, index, count int64, blinded bool) {
		fx := newFixture(t, 1)
		a := tables.Adjudication{
			SessionID: session, Rater: rater, RaterRole: role, Blinded: blinded,
			Obligations:         []tables.ObligationRating{{ObligationID: oblig, Outcome: outcome}},
			Citations:           []tables.CitationRating{{Index: index, Supports: blinded}},
			WrongClaims:         count,
			CriticalWrongClaims: count,
		}
		fx.add(a, a)
		fx.run(t)
		if fx.s.Runs.Len() != 2 {
			t.Fatalf("got %d runs, want 2", fx.s.Runs.Len())
		}
	})
}
