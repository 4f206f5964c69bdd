package score

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/evalgate/evalgate/tables"
)

// usableRatings are the ratings of one review session that may settle its
// run: at most two primaries from distinct raters and at most one
// adjudicator, each blinded and complete, in file order.
type usableRatings struct {
	primaries   []*tables.Adjudication
	adjudicator *tables.Adjudication
	raters      map[string]bool // every rater seen for the session, usable or not
	nPrimary    int             // primary records seen, usable or not
	nAdjudic    int
}

// ratingChecker collects the findings of adjudications.jsonl.
type ratingChecker struct {
	in         *inputs
	out        *tables.Findings
	unblinding *tables.Unblinding // the campaign's unblinding.json, nil when absent
}

func (rc *ratingChecker) add(sev tables.Severity, code tables.Code, line int64, ptr, session, format string, args ...any) {
	*rc.out = append(*rc.out, tables.Finding{
		Code:     code,
		Severity: sev,
		File:     adjudicationsFile,
		Pointer:  ptr,
		Line:     line,
		Session:  session,
		Message:  fmt.Sprintf(format, args...),
	})
}

// checkRatings checks every adjudication and returns the usable ones per
// scored review session ID.
func checkRatings(c *tables.Campaign, in *inputs, out *tables.Findings) map[string]*usableRatings {
	rc := &ratingChecker{in: in, out: out, unblinding: c.Unblinding}
	usable := map[string]*usableRatings{}
	for l := range c.Adjudications.All() {
		line, a := l.Line, &l.Record // l is this iteration's own copy (Go 1.22): a may be kept
		p := rc.runOf(a, line)
		if p == nil {
			continue
		}
		ok := rc.checkContent(a, line, p)
		u := usable[a.SessionID]
		if u == nil {
			u = &usableRatings{raters: map[string]bool{}}
			usable[a.SessionID] = u
		}
		rc.admit(u, a, line, ok)
	}
	return usable
}

// runOf finds the run a rating belongs to, or reports why it has none.
func (rc *ratingChecker) runOf(a *tables.Adjudication, line int64) *plannedRun {
	p := rc.in.runOfReview(a.SessionID)
	switch {
	case p != nil && needsRatings(p):
		return p
	case p != nil:
		rc.add(tables.Warn, tables.CodeRatingUnscoreableRun, line, "/session_id", a.SessionID,
			"session %s has no valid final answer or no valid execution to rate, so this rating is ignored", a.SessionID)
	case rc.in.isSession(a.SessionID):
		rc.add(tables.Warn, tables.CodeRatingUnscoreableRun, line, "/session_id", a.SessionID,
			"session %s is not the scored review attempt of a planned run, so this rating is ignored", a.SessionID)
	default:
		rc.add(tables.Reject, tables.CodeRatingUnknownSession, line, "/session_id", a.SessionID,
			"session %q is not a review session of this campaign", a.SessionID)
	}
	return nil
}

// admit adds a checked rating to its session's usable set, reporting
// duplicate raters and extra records.
func (rc *ratingChecker) admit(u *usableRatings, a *tables.Adjudication, line int64, ok bool) {
	if u.raters[a.Rater] {
		rc.add(tables.Reject, tables.CodeRatingDuplicateRater, line, "/rater", a.SessionID,
			"rater %q already rated session %s; only the first rating counts", a.Rater, a.SessionID)
		return
	}
	u.raters[a.Rater] = true
	switch a.RaterRole {
	case tables.RaterPrimary:
		u.nPrimary++
		if u.nPrimary > 2 {
			rc.add(tables.Reject, tables.CodeRatingExtraPrimary, line, "/rater_role", a.SessionID,
				"session %s already has two primary ratings; this third one does not count", a.SessionID)
			return
		}
		if ok {
			u.primaries = append(u.primaries, a)
		}
	case tables.RaterAdjudicator:
		u.nAdjudic++
		if u.nAdjudic > 1 {
			rc.add(tables.Reject, tables.CodeRatingExtraAdjudicator, line, "/rater_role", a.SessionID,
				"session %s already has an adjudicator record; this one does not count", a.SessionID)
			return
		}
		if ok {
			u.adjudicator = a
		}
	}
}

// checkContent checks one rating against the task's truth and the final
// answer's citations and reports whether it is usable.
func (rc *ratingChecker) checkContent(a *tables.Adjudication, line int64, p *plannedRun) bool {
	n := len(*rc.out)
	sid := a.SessionID
	if a.RaterRole != tables.RaterPrimary && a.RaterRole != tables.RaterAdjudicator {
		rc.add(tables.Reject, tables.CodeRatingUnknownRole, line, "/rater_role", sid,
			"rater_role %q is neither primary nor adjudicator", a.RaterRole)
	}
	if !a.Blinded {
		rc.add(tables.Reject, tables.CodeRatingNotBlinded, line, "/blinded", sid,
			"rater %q was not blinded to arm, cost and reconciliation, so the rating cannot count", a.Rater)
	}
	rc.checkObligations(a, line, p.truth)
	rc.checkCitations(a, line, p)
	rc.checkCounts(a, line)
	rc.checkUnblinding(a, line)
	return len(*rc.out) == n
}

func (rc *ratingChecker) checkObligations(a *tables.Adjudication, line int64, truth *tables.Truth) {
	sid := a.SessionID
	known := map[string]bool{}
	if truth != nil {
		for _, o := range truth.Obligations {
			known[o.ID] = true
		}
	}
	rated := map[string]bool{}
	for i, r := range a.Obligations {
		ptr := func(member string) string { return "/obligations/" + strconv.Itoa(i) + member } // built only for a finding
		switch {
		case !known[r.ObligationID]:
			rc.add(tables.Reject, tables.CodeRatingUnknownObligation, line, ptr("/obligation_id"), sid,
				"obligation %q is not in the task's truth", r.ObligationID)
		case rated[r.ObligationID]:
			rc.add(tables.Reject, tables.CodeRatingDuplicateOblig, line, ptr("/obligation_id"), sid,
				"obligation %s is rated more than once", r.ObligationID)
		}
		rated[r.ObligationID] = true
		if !slices.Contains(outcomes, r.Outcome) {
			rc.add(tables.Reject, tables.CodeRatingUnknownOutcome, line, ptr("/outcome"), sid,
				"outcome %q is not one of addressed, missed, wrong, unknown_credited, not_applicable", r.Outcome)
		}
	}
	if truth == nil {
		return
	}
	for _, o := range truth.Obligations {
		if !rated[o.ID] {
			rc.add(tables.Reject, tables.CodeRatingMissingObligation, line, "/obligations", sid,
				"obligation %s of the task's truth has no outcome", o.ID)
		}
	}
}

var outcomes = []string{
	tables.OutcomeAddressed, tables.OutcomeMissed, tables.OutcomeWrong,
	tables.OutcomeUnknownCredited, tables.OutcomeNotApplicable,
}

// checkCitations checks the citation support judgments. The number of
// final citations is known from the validate stage's citation rows; when a
// session has none, only negative and repeated indexes can be detected.
func (rc *ratingChecker) checkCitations(a *tables.Adjudication, line int64, p *plannedRun) {
	sid := a.SessionID
	count, known := p.reviewCitations, p.reviewCitations != tables.NoCitationCount
	judged := map[int64]bool{}
	for i, r := range a.Citations {
		ptr := func() string { return "/citations/" + strconv.Itoa(i) + "/index" } // built only for a finding
		switch {
		case r.Index < 0 || (known && r.Index >= count):
			rc.add(tables.Reject, tables.CodeRatingCitationIndex, line, ptr(), sid,
				"citation index %d does not name a citation of the final answer (it has %d)", r.Index, count)
		case judged[r.Index]:
			rc.add(tables.Reject, tables.CodeRatingCitationIndex, line, ptr(), sid,
				"citation %d is judged more than once", r.Index)
		}
		judged[r.Index] = true
	}
	for i := int64(0); known && i < count; i++ {
		if !judged[i] {
			rc.add(tables.Reject, tables.CodeRatingMissingCitation, line, "/citations", sid,
				"final citation %d has no support judgment", i)
		}
	}
}

func (rc *ratingChecker) checkCounts(a *tables.Adjudication, line int64) {
	counts := []struct {
		name string
		v    int64
	}{
		{"critical_wrong_claims", a.CriticalWrongClaims},
		{"wrong_claims", a.WrongClaims},
		{"unsupported_claims", a.UnsupportedClaims},
		{"false_completeness_claims", a.FalseCompletenessClaims},
		{"wrong_exclusions", a.WrongExclusions},
	}
	for _, c := range counts {
		if c.v < 0 {
			rc.add(tables.Reject, tables.CodeRatingNegativeCount, line, "/"+c.name, a.SessionID,
				"%s is %d; a count cannot be negative", c.name, c.v)
		}
	}
}

// settle picks the rating that scores a run: the first primary when both
// primaries agree on everything, else the adjudicator's record. It returns
// nil and the reason when the run stays unrated.
func settle(u *usableRatings) (*tables.Adjudication, string) {
	if u == nil || len(u.primaries) < 2 {
		return nil, settledUnrated
	}
	if sameRating(u.primaries[0], u.primaries[1]) {
		return u.primaries[0], settledAgreement
	}
	if u.adjudicator != nil {
		return u.adjudicator, settledAdjudicator
	}
	return nil, settledDisagreement
}

// How a run's rating was settled (ObligationOutcome.SettledBy).
const (
	settledAgreement   = "agreement"
	settledAdjudicator = "adjudicator"
	settledUnrated     = "unrated"
	settledNotScorable = "not_scorable"
	settledInvalid     = "invalid"
	settledDefective   = "oracle_defective"
	// settledDisagreement is an internal reason; the row says unrated.
	settledDisagreement = "disagreement"
)

// sameRating reports whether two complete ratings agree on every
// obligation outcome, every citation judgment and every count.
func sameRating(a, b *tables.Adjudication) bool {
	if a.CriticalWrongClaims != b.CriticalWrongClaims || a.WrongClaims != b.WrongClaims ||
		a.UnsupportedClaims != b.UnsupportedClaims || a.FalseCompletenessClaims != b.FalseCompletenessClaims ||
		a.WrongExclusions != b.WrongExclusions {
		return false
	}
	return maps.Equal(outcomeMap(a), outcomeMap(b)) && maps.Equal(supportMap(a), supportMap(b))
}

func outcomeMap(a *tables.Adjudication) map[string]string {
	m := map[string]string{}
	for _, r := range a.Obligations {
		m[r.ObligationID] = r.Outcome
	}
	return m
}

func supportMap(a *tables.Adjudication) map[int64]bool {
	m := map[int64]bool{}
	for _, r := range a.Citations {
		m[r.Index] = r.Supports
	}
	return m
}
