package validate

import (
	"fmt"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// systemCompleteness applies V2 to a system comparison: every system of
// every scheduled slot has one investigation and one review receipt in the
// slot's final attempt; a review after a failed investigation is
// not_dispatched; a dispatched review received its own investigation's
// draft and observations; replaced attempts were infrastructure-invalid.
// It runs after the pass has noted every receipt.
func (v *workflows) systemCompleteness() {
	v.walkSchedule("slots", v.systemSlot)
}

// workflows checks the slots of a system comparison with what the pass
// noted of the receipts, so checking every review costs time linear in
// the receipts: the first observations reference recorded under each
// session ID, and what each session's receipt declared (a system
// comparison has few sessions).
type workflows struct {
	*runner
	observations map[string]*tables.OutputRef
	noted        map[*sessionResult]notedReceipt
}

// notedReceipt is what the workflow checks compare of one receipt: its
// declared packet_sha256 and its UTC start and, when it has one, end.
type notedReceipt struct {
	packetSHA  string
	start, end time.Time
	ended      bool
}

// note records what the workflow checks need of r, whose session is sr.
func (v *workflows) note(r *tables.Receipt, sr *sessionResult) {
	if r.Observations != nil {
		if _, seen := v.observations[r.SessionID]; !seen {
			v.observations[r.SessionID] = r.Observations
		}
	}
	n := notedReceipt{packetSHA: r.Inputs.PacketSHA256, start: r.StartedAt}
	if r.EndedAt != nil {
		n.end, n.ended = *r.EndedAt, true
	}
	v.noted[sr] = n
}

// systemSlot checks the final attempt of one slot: one investigation and
// one review per system in the slot's order.
func (v *workflows) systemSlot(slot tables.Slot, final int64, rs []*sessionResult) {
	used := map[*sessionResult]bool{}
	for _, arm := range slot.Order {
		inv := v.expect(slot, final, tables.RoleInvestigation, arm, rs, used)
		rv := v.expect(slot, final, tables.RoleReview, arm, rs, used)
		if inv != nil && v.statusOf(inv) == tables.StatusNotDispatched {
			v.addReceipt(inv, rules.CodeNotDispatchedUnexpected, "An investigation is never not_dispatched.")
		}
		if rv != nil {
			v.reviewAfterInvestigation(rv, inv)
		}
	}
	for _, sr := range rs {
		if sr.attempt != final {
			continue
		}
		if !used[sr] {
			v.addReceipt(sr, rules.CodeSessionUnplanned, fmt.Sprintf("System %q is not in the order of %s repetition %d.", v.armOf(sr), slot.Task, slot.Repetition))
		}
		if sr.infra {
			v.addReceipt(sr, rules.CodeInfrastructureInvalid, fmt.Sprintf("The session failed with infrastructure error %q and its slot was not replaced.", v.errorOf(sr)))
		}
	}
}

// reviewAfterInvestigation applies C23 to a workflow and checks that the
// review received its own investigation's draft and observations, which
// exist only once the investigation has ended (D3's review after its
// draft's terminal receipt).
func (v *workflows) reviewAfterInvestigation(rv, inv *sessionResult) {
	failed := inv != nil && inv.class == classScoredFailure
	dispatched := v.statusOf(rv) != tables.StatusNotDispatched
	switch {
	case failed && dispatched:
		v.addReceipt(rv, rules.CodeReviewAfterFailedDraft, fmt.Sprintf("The review was dispatched although investigation %s failed; it must be a not_dispatched receipt.", inv.id))
	case !failed && !dispatched:
		v.addReceipt(rv, rules.CodeNotDispatchedUnexpected, "The review was not dispatched although its investigation did not fail.")
	}
	if !dispatched || inv == nil {
		return
	}
	if in, out := v.noted[inv], v.noted[rv]; in.ended && out.start.Before(in.end) {
		v.addReceipt(rv, rules.CodeReviewBeforeDraftEnd, fmt.Sprintf("The review started at %s, before its investigation's terminal receipt at %s: its draft and observations did not exist yet.", stamp(out.start), stamp(in.end)))
	}
	var bad string
	switch obs := v.observations[inv.id]; {
	case !rv.hasDraft || rv.draftID != inv.id:
		bad = fmt.Sprintf("draft_session_id %q is not its workflow's investigation %q", rv.draftID, inv.id)
	case obs != nil && v.noted[rv].packetSHA != obs.SHA256:
		bad = fmt.Sprintf("packet_sha256 is not the sha256 %s of investigation %s's observations", obs.SHA256, inv.id)
	}
	if bad != "" {
		rv.identity = false
		rv.class = classInvalid
		v.addReceipt(rv, rules.CodeIdentityMismatch, "The review's "+bad+"; the execution is invalid.")
	}
}
