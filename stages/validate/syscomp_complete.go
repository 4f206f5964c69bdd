package validate

import (
	"fmt"

	"github.com/evalgate/evalgate/tables"
)

// systemCompleteness applies V2 to a system comparison: every system of
// every scheduled slot has one investigation and one review receipt in the
// slot's final attempt; a review after a failed investigation is
// not_dispatched; a dispatched review received its own investigation's
// draft and observations; replaced attempts were infrastructure-invalid.
func (v *runner) systemCompleteness() {
	w := &workflows{runner: v, observations: map[string]*tables.OutputRef{}, packetSHA: make(map[int64]string, len(v.c.Receipts))}
	for i := range v.c.Receipts {
		l := &v.c.Receipts[i]
		if r := &l.Record; r.Observations != nil {
			if _, seen := w.observations[r.SessionID]; !seen {
				w.observations[r.SessionID] = r.Observations
			}
		}
		if _, seen := w.packetSHA[l.Line]; !seen {
			w.packetSHA[l.Line] = l.Record.Inputs.PacketSHA256
		}
	}
	v.walkSchedule("slots", w.systemSlot)
}

// workflows checks the slots of a system comparison with the receipts
// indexed once, so checking every review costs time linear in the
// receipts: the first observations reference recorded under each session
// ID, and the packet_sha256 of the receipt on each receipts.jsonl line.
type workflows struct {
	*runner
	observations map[string]*tables.OutputRef
	packetSHA    map[int64]string
}

// systemSlot checks the final attempt of one slot: one investigation and
// one review per system in the slot's order.
func (v *workflows) systemSlot(slot tables.Slot, final int64, rs []*sessionResult) {
	used := map[*sessionResult]bool{}
	for _, arm := range slot.Order {
		inv := v.expect(slot, final, tables.RoleInvestigation, arm, rs, used)
		rv := v.expect(slot, final, tables.RoleReview, arm, rs, used)
		if inv != nil && inv.row.Status == tables.StatusNotDispatched {
			v.addReceipt(inv, tables.CodeNotDispatchedUnexpected, "An investigation is never not_dispatched.")
		}
		if rv != nil {
			v.reviewAfterInvestigation(rv, inv)
		}
	}
	for _, sr := range rs {
		if sr.row.Attempt != final {
			continue
		}
		if !used[sr] {
			v.addReceipt(sr, tables.CodeSessionUnplanned, fmt.Sprintf("System %q is not in the order of %s repetition %d.", deref(sr.row.Arm), slot.Task, slot.Repetition))
		}
		if sr.infra {
			v.addReceipt(sr, tables.CodeInfrastructureInvalid, fmt.Sprintf("The session failed with infrastructure error %q and its slot was not replaced.", deref(sr.row.ErrorClass)))
		}
	}
}

// reviewAfterInvestigation applies C23 to a workflow and checks that the
// review received its own investigation's draft and observations.
func (v *workflows) reviewAfterInvestigation(rv, inv *sessionResult) {
	failed := inv != nil && inv.row.Classification == tables.ClassScoredFailure
	dispatched := rv.row.Status != tables.StatusNotDispatched
	switch {
	case failed && dispatched:
		v.addReceipt(rv, tables.CodeReviewAfterFailedDraft, fmt.Sprintf("The review was dispatched although investigation %s failed; it must be a not_dispatched receipt.", inv.row.SessionID))
	case !failed && !dispatched:
		v.addReceipt(rv, tables.CodeNotDispatchedUnexpected, "The review was not dispatched although its investigation did not fail.")
	}
	if !dispatched || inv == nil {
		return
	}
	var bad string
	switch obs := v.observations[inv.row.SessionID]; {
	case rv.draftID == nil || *rv.draftID != inv.row.SessionID:
		bad = fmt.Sprintf("draft_session_id %q is not its workflow's investigation %q", deref(rv.draftID), inv.row.SessionID)
	case obs != nil && v.packetSHA[rv.line] != obs.SHA256:
		bad = fmt.Sprintf("packet_sha256 is not the sha256 %s of investigation %s's observations", obs.SHA256, inv.row.SessionID)
	}
	if bad != "" {
		rv.row.IdentityMatches = false
		rv.row.Classification = tables.ClassInvalid
		v.addReceipt(rv, tables.CodeIdentityMismatch, "The review's "+bad+"; the execution is invalid.")
	}
}
