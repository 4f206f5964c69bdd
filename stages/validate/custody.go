package validate

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Custody of a paired review (rules D3–D5, D7): each dispatched session on
// the manifest's one host and without tools, its reservation within the
// session ceilings; across sessions, serial execution in schedule order,
// each review after its draft's terminal receipt, the manifest frozen and
// every truth signed off before the first session, and the reviews of a
// repetition with the same output allowance.

// custodyEvent is what the cross-session checks keep of one draft or
// review receipt of a scheduled slot: about 40 bytes a session.
type custodyEvent struct {
	start, end int64 // UTC ns; end == start when no terminal time is known
	sr         *sessionResult
	resOut     int64 // reservation output tokens, -1 without a reservation
	slot       int32 // index into the schedule
	attempt    int32
	pos        int8 // 0 the draft, 1 + the arm's place in the slot's order
	dispatched bool // not a not_dispatched receipt
	ended      bool
}

// custody holds the state of the custody checks of one validation.
type custody struct {
	slots  map[slotKey]int32
	events []custodyEvent
}

func newCustody(m *tables.Manifest) *custody {
	cu := &custody{slots: make(map[slotKey]int32, len(m.Design.Schedule))}
	for i, s := range m.Design.Schedule {
		k := slotKey{s.Task, s.Repetition}
		if _, dup := cu.slots[k]; !dup {
			cu.slots[k] = int32(i)
		}
	}
	return cu
}

// fixedEvidence reports whether r is a planned draft or review of a
// paired review that was dispatched.
func fixedEvidence(sr *sessionResult, r *tables.Receipt) bool {
	return sr.planned && r.Status != tables.StatusNotDispatched && (r.Role == tables.RoleDraft || r.Role == tables.RoleReview)
}

// custodySession applies the per-session rules to one receipt of a paired
// review (already classified by session) and files it for the
// cross-session checks.
func (v *runner) custodySession(r *tables.Receipt, sr *sessionResult) {
	if v.custody == nil {
		v.custody = newCustody(&v.c.Manifest)
	}
	v.reservationCeiling(r, sr)
	if !fixedEvidence(sr, r) {
		v.fileEvent(r, sr)
		return
	}
	if len(r.ToolCalls) > 0 { // the message is worded only for a finding
		v.toolCalls(r, sr, rules.CodeFixedEvidenceToolCall, fmt.Sprintf("The %s recorded", describeRole(r)))
	}
	switch host, want := r.Identity.Host, v.c.Manifest.Identities.Host; {
	case host == "":
		v.addReceipt(sr, rules.CodeSessionHostMissing, fmt.Sprintf("The receipt records no host (identity.host), so nothing shows the session ran on the campaign's one host %q; the execution is invalid. Record the host in the receipt's identity.host (an imported session: the import mapping's identity.host, then import again).", want))
		sr.class = classInvalid
	case host != want:
		v.addReceipt(sr, rules.CodeSessionHostMismatch, fmt.Sprintf("The session ran on host %q, not on the campaign's one recorded host %q; the execution is invalid.", host, want))
		sr.class = classInvalid
	}
	v.fileEvent(r, sr)
}

// toolCalls makes a dispatched session that has no tools invalid when its
// receipt records any ordinary or MCP call (rule D5: undeclared
// permissions).
func (v *runner) toolCalls(r *tables.Receipt, sr *sessionResult, code rules.Code, who string) {
	if len(r.ToolCalls) == 0 {
		return
	}
	kinds := map[string]int{}
	for _, c := range r.ToolCalls {
		kinds[c.Kind]++
	}
	v.addReceipt(sr, code, fmt.Sprintf("%s %d tool call(s) (%d ordinary, %d MCP; the first %s %q) although it has no tools; the execution is invalid (undeclared permissions).",
		who, len(r.ToolCalls), kinds["ordinary"], kinds["mcp"], r.ToolCalls[0].Kind, r.ToolCalls[0].Name))
	sr.class = classInvalid
}

func describeRole(r *tables.Receipt) string {
	if r.Role == tables.RoleDraft {
		return "draft"
	}
	return "review of arm " + deref(r.Arm)
}

// reservationCeiling refuses a recorded reservation larger than the
// session ceilings (rule D7): admission reserved what no session may use.
func (v *runner) reservationCeiling(r *tables.Receipt, sr *sessionResult) {
	res, c := r.Reservation, v.c.Manifest.Ceilings.Session
	if res == nil {
		return
	}
	if res.InputTokens > c.InputTokens || res.OutputTokens > c.OutputTokens {
		v.addReceipt(sr, rules.CodeReservationAboveCeiling, fmt.Sprintf("Reservation %q holds %d input and %d output tokens; the session ceilings allow %d input and %d output tokens.",
			res.ID, res.InputTokens, res.OutputTokens, c.InputTokens, c.OutputTokens))
	}
}

// fileEvent keeps what the cross-session checks need of a scheduled draft
// or review receipt.
func (v *runner) fileEvent(r *tables.Receipt, sr *sessionResult) {
	if !sr.planned || (r.Role != tables.RoleDraft && r.Role != tables.RoleReview) {
		return
	}
	slot, ok := v.custody.slots[slotKey{r.TaskID, r.Repetition}]
	if !ok {
		return
	}
	ev := custodyEvent{start: r.StartedAt.UnixNano(), sr: sr, resOut: -1, slot: slot, attempt: int32(min(r.Attempt, 1<<30)),
		dispatched: r.Status != tables.StatusNotDispatched}
	ev.end = ev.start
	if r.EndedAt != nil {
		ev.end, ev.ended = r.EndedAt.UnixNano(), true
	}
	if r.Reservation != nil {
		ev.resOut = r.Reservation.OutputTokens
	}
	if r.Role == tables.RoleReview {
		order := v.c.Manifest.Design.Schedule[slot].Order
		ev.pos = int8(1 + min(slices.Index(order, deref(r.Arm)), 100))
		if ev.pos == 0 { // an arm the slot does not order: after its others
			ev.pos = int8(1 + min(len(order), 100))
		}
	}
	v.custody.events = append(v.custody.events, ev)
}

// custodyCampaign runs the cross-session checks once every receipt is
// read.
func (v *runner) custodyCampaign() {
	cu := v.custody
	if cu == nil || len(cu.events) == 0 {
		return
	}
	evs := cu.events
	slices.SortStableFunc(evs, func(a, b custodyEvent) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.slot, b.slot), cmp.Compare(a.attempt, b.attempt), cmp.Compare(a.pos, b.pos))
	})
	v.freezeTimes(evs)
	v.serial(evs)
	v.equalAllowances(evs)
	cu.events = nil
}

// freezeTimes applies D4's first half: the manifest frozen and every
// task's truth signed off strictly before the first session started
// (equal instants are refused: their order cannot be known).
func (v *runner) freezeTimes(evs []custodyEvent) {
	first := -1
	for i := range evs {
		if evs[i].dispatched {
			first = i
			break
		}
	}
	if first < 0 {
		return
	}
	at := time.Unix(0, evs[first].start).UTC()
	m := &v.c.Manifest
	if !m.FrozenAt.Before(at) {
		v.addManifest(rules.CodeManifestFrozenLate, "/frozen_at", fmt.Sprintf("The manifest was frozen at %s, not before the first session (%s) started at %s.",
			stamp(m.FrozenAt), evs[first].sr.id, stamp(at)))
	}
	for i := range v.c.Tasks {
		t := &v.c.Tasks[i]
		if signed := t.Truth.Oracle.SignedOffAt; !signed.Before(at) {
			v.findings = append(v.findings, rules.Finding{Code: rules.CodeTruthSignedOffLate, Severity: rules.Reject, File: t.Spec.TruthPath, Pointer: "/oracle/signed_off_at",
				Message: fmt.Sprintf("The truth of task %q was signed off at %s, not before the first session (%s) started at %s.", t.Spec.ID, stamp(signed), evs[first].sr.id, stamp(at))})
		}
	}
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// serial applies D3 across sessions, over the receipts in start order: no
// session starts before the one before it ended, a review starts no
// earlier than its draft's end, and first attempts run in schedule order.
//
// A dispatched session that starts before every session dispatched
// earlier has ended, and a not_dispatched receipt recorded before (or as)
// the last of them ended, join those sessions' run. A run in which
// sessions overlap is one defect however many sessions it holds: every
// overlapping receipt is refused, each with the same message (the run's
// sessions, its first overlap, the reason and the way forward), so the run
// prints as one line with its count. The sessions of such a run ran at
// once, not one after another, so their order among themselves is not
// judged against the schedule (the overlap refuses them, and its way
// forward is to run them again serially, in schedule order); each is
// judged against the schedule position reached before the run, and what
// follows the run against the furthest position in it.
func (v *runner) serial(evs []custodyEvent) {
	type slotAttempt struct{ slot, attempt int32 }
	draftEnd := map[slotAttempt]int64{}
	counts := func(ev *custodyEvent) bool {
		_, dup := v.shared[ev.sr.id] // a repeated receipt is receipt_duplicate
		return ev.dispatched && !dup
	}
	var last *custodyEvent // the dispatched session that ended last so far
	var prev *custodyEvent // the furthest first attempt in start order so far
	var overlaps []int     // the overlapping receipts of the current run
	for i := 0; i < len(evs); {
		j, concurrent := v.concurrentRun(evs, i, last, counts)
		before, furthest := prev, prev // the run is judged against before
		var firstOver, firstPrev *custodyEvent
		overlaps = overlaps[:0]
		for k := i; k < j; k++ {
			ev := &evs[k]
			if counts(ev) {
				if last != nil && ev.start < last.end {
					if firstOver == nil {
						firstOver, firstPrev = ev, last
					}
					overlaps = append(overlaps, k)
				}
				if last == nil || ev.end > last.end {
					last = ev
				}
			}
			sa := slotAttempt{ev.slot, ev.attempt}
			if ev.pos == 0 {
				if ev.ended {
					draftEnd[sa] = ev.end
				}
			} else if end, ok := draftEnd[sa]; ok && ev.dispatched && ev.start < end {
				v.addReceipt(ev.sr, rules.CodeReviewBeforeDraftEnd, fmt.Sprintf("The review started at %s, before its draft's terminal receipt at %s.", stamp(time.Unix(0, ev.start)), stamp(time.Unix(0, end))))
			}
			if _, dup := v.shared[ev.sr.id]; ev.attempt != 1 || dup {
				continue
			}
			if !concurrent {
				before = prev
			}
			if before != nil && !after(ev, before) {
				s := v.c.Manifest.Design.Schedule[ev.slot]
				v.addReceipt(ev.sr, rules.CodeDispatchOutOfSchedule, fmt.Sprintf("The session (slot %d of the schedule: %s repetition %d) started after session %s (slot %d): sessions run in schedule order, each repetition's draft and then its reviews in the slot's order %v.",
					ev.slot+1, s.Task, s.Repetition, before.sr.id, before.slot+1, s.Order))
				continue // keep the furthest position reached
			}
			if furthest == nil || after(ev, furthest) {
				furthest = ev
			}
			prev = furthest
		}
		if len(overlaps) > 0 {
			msg := overlapMessage(evs[i:j], counts, firstOver, firstPrev)
			for _, k := range overlaps {
				v.addReceipt(evs[k].sr, rules.CodeSessionOverlap, msg)
			}
		}
		i = j
	}
}

// after reports whether ev's place in the schedule is after p's: a later
// slot, or a later place in the same slot.
func after(ev, p *custodyEvent) bool {
	return ev.slot > p.slot || (ev.slot == p.slot && ev.pos > p.pos)
}

// concurrentRun returns the end of the run of receipts that starts at
// evs[i] (last is the dispatched session that ended last before it) and
// whether sessions overlap in it: a dispatched session joins the run when
// it starts before the run's sessions so far have all ended, a
// not_dispatched receipt when it is recorded no later than that.
func (v *runner) concurrentRun(evs []custodyEvent, i int, last *custodyEvent, counts func(*custodyEvent) bool) (int, bool) {
	end := int64(math.MinInt64)
	if last != nil {
		end = last.end
	}
	concurrent := false
	j := i
	for ; j < len(evs); j++ {
		ev := &evs[j]
		if j > i && (ev.start > end || (counts(ev) && ev.start == end)) {
			break
		}
		if counts(ev) {
			concurrent = concurrent || ev.start < end
			end = max(end, ev.end)
		}
	}
	return j, concurrent
}

// shownSessions is how many sessions an overlap message names.
const shownSessions = 5

// overlapMessage is the one message of every overlapping receipt of a run
// of concurrent sessions: the run's dispatched sessions (the first few, and
// how many more), its first overlap's instants, why such records cannot be
// a serial campaign's and what to do instead.
func overlapMessage(run []custodyEvent, counts func(*custodyEvent) bool, first, before *custodyEvent) string {
	var ids []string
	n := 0
	for k := range run {
		if !counts(&run[k]) {
			continue
		}
		if n++; len(ids) < shownSessions {
			ids = append(ids, run[k].sr.id)
		}
	}
	names := strings.Join(ids, ", ")
	if n > len(ids) {
		names += fmt.Sprintf(" and %d more", n-len(ids))
	}
	return fmt.Sprintf("%d sessions ran concurrently (%s): the first overlap, session %s started at %s, before session %s ended at %s. "+
		"Sessions must run serially, each dispatched after the previous one ended (records of sessions run concurrently, such as an Inspect eval's samples without max_samples 1, cannot be this campaign's). "+
		"A paired review needs its sessions run one at a time on one host, in schedule order: each repetition's draft, then its reviews (an Inspect eval: --max-samples 1). "+
		"Records of concurrent sessions can instead be a reviewer benchmark's review attempts (evalgate init --kind reviewer-benchmark), whose runs are independent and may overlap.",
		n, names, first.sr.id, stamp(time.Unix(0, first.start)), before.sr.id, stamp(time.Unix(0, before.end)))
}

// equalAllowances applies D7's second half: the reviews of one slot
// attempt reserve the same output allowance.
func (v *runner) equalAllowances(evs []custodyEvent) {
	type slotAttempt struct{ slot, attempt int32 }
	first := map[slotAttempt]*custodyEvent{}
	for i := range evs {
		ev := &evs[i]
		if ev.pos == 0 || !ev.dispatched || ev.resOut < 0 {
			continue
		}
		k := slotAttempt{ev.slot, ev.attempt}
		f, ok := first[k]
		if !ok {
			first[k] = ev
			continue
		}
		if f.resOut != ev.resOut {
			v.addReceipt(ev.sr, rules.CodeArmAllowanceUnequal, fmt.Sprintf("The review reserved an output allowance of %d tokens; the other review of its repetition, %s, reserved %d: both reviews get the same output allowance.",
				ev.resOut, f.sr.id, f.resOut))
		}
	}
}

// systemCustody applies the per-session custody rules of a system
// comparison: its review has no tools or further acquisition (rule D5,
// contract #741 §6), and no reservation exceeds the session ceilings
// (rule D7).
func (v *runner) systemCustody(r *tables.Receipt, sr *sessionResult) {
	v.reservationCeiling(r, sr)
	if sr.planned && r.Role == tables.RoleReview && r.Status != tables.StatusNotDispatched {
		v.toolCalls(r, sr, rules.CodeReviewToolCall, "The review of system "+deref(r.Arm)+" recorded")
	}
}
