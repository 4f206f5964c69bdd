package aggregate

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/tables"
)

// sessionsOverLimits lists every session beyond an absolute per-session
// ceiling (A6, inclusive): wall time, cumulative input tokens (uncached,
// cached and cache writes) or billed output tokens. Sessions named by an
// account-stage finding of rule A6 are added, and "campaign" when such a
// finding concerns no session (a campaign ceiling). Sorted, unique.
func sessionsOverLimits(c *tables.Campaign, in *inputs) []string {
	lim := c.Manifest.Ceilings.Session
	tokens := map[string]*tables.Token{}
	for i := range in.tokens {
		tokens[in.tokens[i].SessionID] = &in.tokens[i]
	}
	var over []string
	for _, sess := range in.sessions {
		t := tokens[sess.SessionID]
		if sess.DurationNS != nil && exceedsMS(*sess.DurationNS, lim.WallMS) ||
			t != nil && (inputTokens(t) > lim.InputTokens || t.Output > lim.OutputTokens) {
			over = append(over, sess.SessionID)
		}
	}
	stage := codeIndex()
	for _, f := range in.findings {
		doc, ok := stage[f.Code]
		if !ok || doc.Stage != "account" || f.Severity != tables.Reject || !strings.HasPrefix(doc.Rule, "A6") {
			continue
		}
		over = append(over, cmp.Or(f.Session, "campaign"))
	}
	slices.Sort(over)
	return slices.Compact(over)
}

// exceedsMS reports whether ns is beyond a limit of ms milliseconds.
func exceedsMS(ns, ms int64) bool {
	if ms > math.MaxInt64/1_000_000 {
		return false
	}
	return ns > ms*1_000_000
}

// inputTokens is the cumulative input of a session, saturating on overflow.
func inputTokens(t *tables.Token) int64 {
	var total int64
	for _, v := range []int64{t.UncachedInput, t.CachedInput, t.CacheWrite5m, t.CacheWrite1h} {
		if v > math.MaxInt64-total {
			return math.MaxInt64
		}
		total += v
	}
	return total
}

// codeIndex maps every documented code to its documentation.
func codeIndex() map[tables.Code]tables.CodeDoc {
	m := map[tables.Code]tables.CodeDoc{}
	for _, d := range tables.AllCodes() {
		m[d.Code] = d
	}
	return m
}
