package score

import (
	"fmt"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// checkUnblinding refuses a rating frozen at or after the campaign's
// unblinding time (unblinding.json): rule Q1 freezes both source-based
// ratings before arm and cost are revealed. Equal instants are refused, as
// their order cannot be known. Without unblinding.json nothing is checked.
func (rc *ratingChecker) checkUnblinding(a *tables.Adjudication, line int64) {
	u := rc.unblinding
	if u == nil || a.FrozenAt.Before(u.UnblindedAt) {
		return
	}
	rc.add(rules.Reject, rules.CodeRatingAfterUnblinding, line, "/frozen_at", a.SessionID,
		"rater %q froze this rating at %s, not before the unblinding at %s, so it cannot count",
		a.Rater, a.FrozenAt.UTC().Format(time.RFC3339Nano), u.UnblindedAt.UTC().Format(time.RFC3339Nano))
}

// requireUnblinding refuses ratings without an unblinding record: the
// blinded protocol is proven, not assumed (rule Q1), so a campaign
// with adjudications but no unblinding.json has nothing showing its
// ratings were frozen before arm and cost were revealed.
func requireUnblinding(c *tables.Campaign) rules.Findings {
	if c.Adjudications.Len() == 0 || c.Unblinding != nil {
		return nil
	}
	return rules.Findings{{Code: rules.CodeUnblindingMissing, Severity: rules.Reject, File: "unblinding.json",
		Message: fmt.Sprintf("the campaign has %d ratings but no unblinding.json, so nothing shows they were frozen before arm and cost were revealed", c.Adjudications.Len())}}
}

// checkAfterAnswer refuses a rating frozen at or before the end of the
// session whose answer it rates (rule D4): no rating can judge an answer
// that did not yet exist. Equal instants are refused, as their order
// cannot be known.
func (rc *ratingChecker) checkAfterAnswer(a *tables.Adjudication, line int64, p *plannedRun) {
	s := p.review
	if s == nil || !s.ended || a.FrozenAt.UnixNano() > s.endedAt {
		return
	}
	rc.add(rules.Reject, rules.CodeRatingBeforeAnswer, line, "/frozen_at", a.SessionID,
		"rater %q froze this rating at %s, not after session %s returned its answer at %s, so it cannot count",
		a.Rater, a.FrozenAt.UTC().Format(time.RFC3339Nano), s.SessionID, time.Unix(0, s.endedAt).UTC().Format(time.RFC3339Nano))
}
