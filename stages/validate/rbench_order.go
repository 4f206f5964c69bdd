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
	early            int        // dispatched sessions started before the manifest froze the splits
	first            finalStart // the earliest of them
	frozen           time.Time  // the manifest's frozen_at: when cases.json and its splits were frozen
	selectionEnd     time.Time  // the latest end of a selection-split session
	selectionSession string     // the session that ended last
	finals           []finalStart
}

// note records one dispatched receipt of a scheduled attempt.
func (o *protocolOrder) note(split string, line int64, r *tables.Receipt) {
	if r.Status == tables.StatusNotDispatched {
		return
	}
	if r.StartedAt.Before(o.frozen) {
		if o.early == 0 || r.StartedAt.Before(o.first.started) {
			o.first = finalStart{line, r.SessionID, r.StartedAt}
		}
		o.early++
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
	if o.early > 0 {
		// Rule G6: "Freeze 10 development / 5 selection / 5 final-test
		// families before tuning": the manifest freezes cases.json, and so
		// every case's split, by sha256 at its frozen_at.
		b.add(rules.CodeRbenchSplitsFrozenLate, rules.Reject, receiptsFile, o.first.line, "/started_at", o.first.session,
			"%d review session(s) started before the manifest froze the cases and their splits at %s, the first %s at %s: the splits are frozen before tuning",
			o.early, o.frozen.UTC().Format(time.RFC3339Nano), o.first.session, o.first.started.UTC().Format(time.RFC3339Nano))
	}
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
