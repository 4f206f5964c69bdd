package validate

import (
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The protocol's order (rule G6: "Selection results choose the
// candidate; final test runs occur only after that choice"): no review
// session of a final-split case may start before the last session of the
// selection split has ended. A final session started earlier ran before
// the choice it is meant to test, so the final split is no holdout for
// that choice: a defect of the record, and the campaign is rejected.

// finalStart is one dispatched final-split session, kept until the last
// selection session's end is known.
type finalStart struct {
	line    int64
	session string
	started time.Time
}

// protocolOrder collects what the order check needs as receipts pass.
type protocolOrder struct {
	selectionEnd     time.Time // the latest end of a selection-split session
	selectionSession string    // the session that ended last
	finals           []finalStart
}

// note records one dispatched receipt of a scheduled attempt.
func (o *protocolOrder) note(split string, line int64, r *tables.Receipt) {
	if r.Status == tables.StatusNotDispatched {
		return
	}
	switch split {
	case tables.SplitSelection:
		if r.EndedAt != nil && r.EndedAt.After(o.selectionEnd) {
			o.selectionEnd, o.selectionSession = *r.EndedAt, r.SessionID
		}
	case tables.SplitFinal:
		o.finals = append(o.finals, finalStart{line, r.SessionID, r.StartedAt})
	}
}

// checkOrder reports every final-split session that started before the last
// selection session ended.
func (b *bench) checkOrder() {
	o := &b.order
	if o.selectionSession == "" {
		return
	}
	for _, f := range o.finals {
		if f.started.Before(o.selectionEnd) {
			b.add(rules.CodeRbenchFinalBeforeSelection, rules.Reject, receiptsFile, f.line, "/started_at", f.session,
				"final-split session %s started at %s, before selection session %s ended at %s: final test runs occur only after the selection choice",
				f.session, f.started.UTC().Format(time.RFC3339Nano), o.selectionSession, o.selectionEnd.UTC().Format(time.RFC3339Nano))
		}
	}
}
