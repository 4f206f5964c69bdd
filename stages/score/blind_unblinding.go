package score

import (
	"time"

	"github.com/evalgate/evalgate/tables"
)

// checkUnblinding refuses a rating frozen at or after the campaign's
// unblinding time (unblinding.json): seed 000 §5 freezes both source-based
// ratings before arm and cost are revealed. Equal instants are refused, as
// their order cannot be known. Without unblinding.json nothing is checked.
func (rc *ratingChecker) checkUnblinding(a *tables.Adjudication, line int64) {
	u := rc.unblinding
	if u == nil || a.FrozenAt.Before(u.UnblindedAt) {
		return
	}
	rc.add(tables.Reject, tables.CodeRatingAfterUnblinding, line, "/frozen_at", a.SessionID,
		"rater %q froze this rating at %s, not before the unblinding at %s, so it cannot count",
		a.Rater, a.FrozenAt.UTC().Format(time.RFC3339Nano), u.UnblindedAt.UTC().Format(time.RFC3339Nano))
}
