package score

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// usableRatings is what the ratings of one review session settle, kept
// as they pass (adjudications.jsonl is read once, in file order): its run
// is rated by two usable primaries from distinct raters that agree, else
// by a usable adjudicator. Only the ratings that may still settle it are
// kept, in the few facts scoring reads (keptRating): the first usable
// primary until a second one agrees or differs, and the adjudicator
// unless two primaries agree.
type usableRatings struct {
	first       *keptRating // the first usable primary; nil once a second differs
	adjudicator *keptRating // the usable adjudicator, nil when none or not needed
	raters      raterSet    // every rater seen for the session, usable or not
	nPrimary    int32       // primary records seen, usable or not
	nAdjudic    int32
	primaries   int8 // usable primaries among the first two primary records
	agree       bool // the two usable primaries agree (sameRating)
}

// ratingChecker collects the findings of adjudications.jsonl.
type ratingChecker struct {
	in         *inputs
	out        *rules.Findings
	unblinding *tables.Unblinding // the campaign's unblinding.json, nil when absent
	shared     ratingLists        // the lists of the ratings kept, shared by content
}

func (rc *ratingChecker) add(sev rules.Severity, code rules.Code, line int64, ptr, session, format string, args ...any) {
	*rc.out = append(*rc.out, rules.Finding{
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
func checkRatings(c *tables.Campaign, in *inputs, out *rules.Findings) map[string]*usableRatings {
	rc := &ratingChecker{in: in, out: out, unblinding: c.Unblinding}
	usable := map[string]*usableRatings{}
	for l := range c.Adjudications.All() {
		line, a := l.Line, &l.Record
		p := rc.runOf(a, line)
		if p == nil {
			continue
		}
		ok := rc.checkContent(a, line, p)
		u := usable[a.SessionID]
		if u == nil {
			u = &usableRatings{}
			usable[p.reviewID()] = u // the plan's string, not the rating's
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
		rc.add(rules.Warn, rules.CodeRatingUnscoreableRun, line, "/session_id", a.SessionID,
			"session %s has no valid final answer or no valid execution to rate, so this rating is ignored", a.SessionID)
	case rc.in.isSession(a.SessionID):
		rc.add(rules.Warn, rules.CodeRatingUnscoreableRun, line, "/session_id", a.SessionID,
			"session %s is not the scored review attempt of a planned run, so this rating is ignored", a.SessionID)
	default:
		rc.add(rules.Reject, rules.CodeRatingUnknownSession, line, "/session_id", a.SessionID,
			"session %q is not a review session of this campaign", a.SessionID)
	}
	return nil
}

// admit adds a checked rating to its session's usable set, reporting
// duplicate raters and extra records.
func (rc *ratingChecker) admit(u *usableRatings, a *tables.Adjudication, line int64, ok bool) {
	if !u.raters.add(a.Rater) {
		rc.add(rules.Reject, rules.CodeRatingDuplicateRater, line, "/rater", a.SessionID,
			"rater %q already rated session %s; only the first rating counts", a.Rater, a.SessionID)
		return
	}
	switch a.RaterRole {
	case tables.RaterPrimary:
		u.nPrimary++
		if u.nPrimary > 2 {
			rc.add(rules.Reject, rules.CodeRatingExtraPrimary, line, "/rater_role", a.SessionID,
				"session %s already has two primary ratings; this third one does not count", a.SessionID)
			return
		}
		if !ok {
			return
		}
		u.primaries++
		switch {
		case u.primaries == 1:
			u.first = rc.keep(a)
		case u.first.same(a): // the second usable primary agrees: it settles the run
			u.agree, u.adjudicator = true, nil
		default: // they differ: only an adjudicator can settle the run
			u.first = nil
		}
	case tables.RaterAdjudicator:
		u.nAdjudic++
		if u.nAdjudic > 1 {
			rc.add(rules.Reject, rules.CodeRatingExtraAdjudicator, line, "/rater_role", a.SessionID,
				"session %s already has an adjudicator record; this one does not count", a.SessionID)
			return
		}
		if ok && !u.agree {
			u.adjudicator = rc.keep(a)
		}
	}
}

// checkContent checks one rating against the task's truth and the final
// answer's citations and reports whether it is usable.
func (rc *ratingChecker) checkContent(a *tables.Adjudication, line int64, p *plannedRun) bool {
	n := len(*rc.out)
	sid := a.SessionID
	if a.RaterRole != tables.RaterPrimary && a.RaterRole != tables.RaterAdjudicator {
		rc.add(rules.Reject, rules.CodeRatingUnknownRole, line, "/rater_role", sid,
			"rater_role %q is neither primary nor adjudicator", a.RaterRole)
	}
	if !a.Blinded {
		rc.add(rules.Reject, rules.CodeRatingNotBlinded, line, "/blinded", sid,
			"rater %q was not blinded to arm, cost and reconciliation, so the rating cannot count", a.Rater)
	}
	rc.checkObligations(a, line, p.truth)
	rc.checkCitations(a, line, p)
	rc.checkCounts(a, line)
	rc.checkUnblinding(a, line)
	rc.checkAfterAnswer(a, line, p)
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
			rc.add(rules.Reject, rules.CodeRatingUnknownObligation, line, ptr("/obligation_id"), sid,
				"obligation %q is not in the task's truth", r.ObligationID)
		case rated[r.ObligationID]:
			rc.add(rules.Reject, rules.CodeRatingDuplicateOblig, line, ptr("/obligation_id"), sid,
				"obligation %s is rated more than once", r.ObligationID)
		}
		rated[r.ObligationID] = true
		if !slices.Contains(outcomes, r.Outcome) {
			rc.add(rules.Reject, rules.CodeRatingUnknownOutcome, line, ptr("/outcome"), sid,
				"outcome %q is not one of addressed, missed, wrong, unknown_credited, not_applicable", r.Outcome)
		}
	}
	if truth == nil {
		return
	}
	for _, o := range truth.Obligations {
		if !rated[o.ID] {
			rc.add(rules.Reject, rules.CodeRatingMissingObligation, line, "/obligations", sid,
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
			rc.add(rules.Reject, rules.CodeRatingCitationIndex, line, ptr(), sid,
				"citation index %d does not name a citation of the final answer (it has %d)", r.Index, count)
		case judged[r.Index]:
			rc.add(rules.Reject, rules.CodeRatingCitationIndex, line, ptr(), sid,
				"citation %d is judged more than once", r.Index)
		}
		judged[r.Index] = true
	}
	for i := int64(0); known && i < count; i++ {
		if !judged[i] {
			rc.add(rules.Reject, rules.CodeRatingMissingCitation, line, "/citations", sid,
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
			rc.add(rules.Reject, rules.CodeRatingNegativeCount, line, "/"+c.name, a.SessionID,
				"%s is %d; a count cannot be negative", c.name, c.v)
		}
	}
}

// settle picks the rating that scores a run: the first primary when both
// primaries agree on everything, else the adjudicator's record. It returns
// nil and the reason when the run stays unrated. The rating returned holds
// what scoring reads (see keptRating), not the record's identity fields.
func settle(u *usableRatings) (*tables.Adjudication, string) {
	if u == nil || u.primaries < 2 {
		return nil, settledUnrated
	}
	if u.agree {
		return u.first.adjudication(), settledAgreement
	}
	if u.adjudicator != nil {
		return u.adjudicator.adjudication(), settledAdjudicator
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

// keptRating is what scoring reads of a usable rating (scoreRated,
// obligationRows): its obligation outcomes, citation judgments and
// counts. Its lists are shared with the equal lists of ratings kept
// before (ratingLists) and never modified.
type keptRating struct {
	obligations                                                      []tables.ObligationRating
	citations                                                        []tables.CitationRating
	critical, wrong, unsupported, falseCompleteness, wrongExclusions int64
}

// keep returns the kept facts of a usable rating.
func (rc *ratingChecker) keep(a *tables.Adjudication) *keptRating {
	return &keptRating{
		obligations: rc.shared.obligations(a.Obligations), citations: rc.shared.citations(a.Citations),
		critical: a.CriticalWrongClaims, wrong: a.WrongClaims, unsupported: a.UnsupportedClaims,
		falseCompleteness: a.FalseCompletenessClaims, wrongExclusions: a.WrongExclusions,
	}
}

// adjudication is the kept rating as the record scoring reads: outcomes,
// judgments and counts, no identity.
func (k *keptRating) adjudication() *tables.Adjudication {
	return &tables.Adjudication{Obligations: k.obligations, Citations: k.citations,
		CriticalWrongClaims: k.critical, WrongClaims: k.wrong, UnsupportedClaims: k.unsupported,
		FalseCompletenessClaims: k.falseCompleteness, WrongExclusions: k.wrongExclusions}
}

// same reports whether a agrees with the kept rating (sameRating).
func (k *keptRating) same(a *tables.Adjudication) bool { return sameRating(k.adjudication(), a) }

// ratingLists shares the obligation and citation lists of kept ratings by
// content: the ratings of a campaign repeat a few lists (a task's
// obligations, its outcomes), so a million kept ratings hold those few.
// Each table holds at most maxSharedRatingLists lists; past that a list is
// kept as it is, so a campaign of distinct lists costs what it did.
type ratingLists struct {
	obligationLists map[string][]tables.ObligationRating
	citationLists   map[string][]tables.CitationRating
	key             []byte // the key being built
}

const maxSharedRatingLists = 4096

func (rl *ratingLists) obligations(list []tables.ObligationRating) []tables.ObligationRating {
	rl.key = rl.key[:0]
	for _, o := range list { // each string with its length: no two lists share a key
		rl.key = strconv.AppendInt(rl.key, int64(len(o.ObligationID)), 10)
		rl.key = append(append(rl.key, ':'), o.ObligationID...)
		rl.key = strconv.AppendInt(rl.key, int64(len(o.Outcome)), 10)
		rl.key = append(append(rl.key, ':'), o.Outcome...)
	}
	return sharedList(&rl.obligationLists, rl.key, list)
}

func (rl *ratingLists) citations(list []tables.CitationRating) []tables.CitationRating {
	rl.key = rl.key[:0]
	for _, c := range list {
		rl.key = strconv.AppendInt(rl.key, c.Index, 10)
		rl.key = append(rl.key, "-+"[b2i(c.Supports)])
	}
	return sharedList(&rl.citationLists, rl.key, list)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sharedList returns the list of *table under key, when its nilness is
// list's; else list itself (clipped), stored under key while the table
// has room.
func sharedList[T any](table *map[string][]T, key []byte, list []T) []T {
	if *table == nil {
		*table = map[string][]T{}
	}
	if shared, ok := (*table)[string(key)]; ok && (shared == nil) == (list == nil) {
		return shared
	}
	list = slices.Clip(list)
	if len(*table) < maxSharedRatingLists {
		(*table)[string(key)] = list
	}
	return list
}

// raterSet is the raters seen for one session: a few in a slice, a map
// past raterSetFew, so that a session rated a million times costs no
// quadratic time.
type raterSet struct {
	few  []string
	many map[string]bool
}

const raterSetFew = 8

// add adds rater and reports whether it was not in the set yet.
func (s *raterSet) add(rater string) bool {
	switch {
	case s.many != nil:
		if s.many[rater] {
			return false
		}
		s.many[rater] = true
		return true
	case slices.Contains(s.few, rater):
		return false
	case s.few == nil:
		s.few = make([]string, 0, 3) // two primaries and an adjudicator
	case len(s.few) == raterSetFew:
		s.many = make(map[string]bool, 2*raterSetFew)
		for _, r := range s.few {
			s.many[r] = true
		}
		s.few = nil
		s.many[rater] = true
		return true
	}
	s.few = append(s.few, rater)
	return true
}
