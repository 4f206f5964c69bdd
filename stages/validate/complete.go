package validate

import (
	"fmt"
	"slices"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// slotKey names one planned repetition of one task.
type slotKey struct {
	task string
	rep  int64
}

// completeness applies V2 over the design: every planned session of every
// slot's final attempt has exactly one receipt; reviews after a failed draft
// are not_dispatched (C23); replaced attempts were infrastructure-invalid;
// at most the allowed number of triplets is invalid.
func (v *runner) completeness() {
	v.walkSchedule("triplets", v.finalAttempt)
}

// walkSchedule groups the planned sessions by scheduled slot, checks every
// slot's attempts (replacements, invalid attempts) and its final attempt
// with checkFinal, reports planned sessions of slots the schedule does not
// list, and stops the campaign when more attempts are infrastructure-invalid
// than the allowed replacements. unit names an attempt in messages.
func (v *runner) walkSchedule(unit string, checkFinal func(slot tables.Slot, final int64, rs []*sessionResult)) {
	index, groups := v.slotGroups()
	taken := make([]bool, len(groups)) // the group's slot was walked
	invalid := int64(0)
	replaced := map[string]string{} // session of a replaced invalid attempt → "attempt N of T repetition R"
	for _, slot := range v.c.Manifest.Design.Schedule {
		var rs []*sessionResult
		if g, ok := index[slotKey{slot.Task, slot.Repetition}]; ok && !taken[g] { // a slot listed twice walks its sessions once
			rs, taken[g] = groups[g], true
		}
		final, bad := v.attempts(slot, rs, replaced)
		invalid += bad
		checkFinal(slot, final, rs)
	}
	for sr := range v.results.all() { // slots the schedule does not list, in file order
		if sr.planned && !taken[index[slotKey{v.taskOf(sr), sr.rep}]] {
			v.addReceipt(sr, rules.CodeSessionUnplanned, fmt.Sprintf("Task %q has no scheduled repetition %d.", v.taskOf(sr), sr.rep))
		}
	}
	allowed := v.c.Manifest.Ceilings.Campaign.InfrastructureReplacements
	v.replacements = tables.Replacements{Unit: unit, Invalid: invalid, Allowed: allowed, Exceeded: invalid > allowed}
	if v.replacements.Exceeded {
		v.findings = append(v.findings, rules.Finding{
			Code: rules.CodeInvalidTripletsExceeded, Severity: rules.Reject, File: receiptsFile,
			Message: fmt.Sprintf("%d %s are infrastructure-invalid but the campaign allows %d replacement(s); the campaign stops.", invalid, unit, allowed),
		})
		return
	}
	v.noteReplaced(replaced)
}

// slotGroups groups the planned sessions by slot (task and repetition),
// each group in the order opened: index numbers the slots, groups[g] is
// slot g's sessions. The groups share one array, filled by a counting
// sort, rather than each growing its own.
func (v *runner) slotGroups() (index map[slotKey]int32, groups [][]*sessionResult) {
	index = map[slotKey]int32{}
	var of []int32 // each planned session's group, in the order opened
	var counts []int32
	for sr := range v.results.all() {
		if !sr.planned {
			continue
		}
		k := slotKey{v.taskOf(sr), sr.rep}
		g, ok := index[k]
		if !ok {
			g = int32(len(counts))
			index[k] = g
			counts = append(counts, 0)
		}
		counts[g]++
		of = append(of, g)
	}
	all := make([]*sessionResult, len(of))
	groups = make([][]*sessionResult, len(counts))
	start := 0
	for g, n := range counts {
		groups[g] = all[start : start : start+int(n)]
		start += int(n)
	}
	i := 0
	for sr := range v.results.all() {
		if sr.planned {
			groups[of[i]] = append(groups[of[i]], sr)
			i++
		}
	}
	return index, groups
}

// infrastructureCodes are the validate findings that make a session
// infrastructure-invalid (the replacement rule: recorder loss, wrong
// delivered inputs, undeclared permissions or another identity): the
// defects a replacement within the allowance answers.
var infrastructureCodes = []rules.Code{
	rules.CodeIdentityMismatch, rules.CodeRenderedInputMismatch, rules.CodeTerminalMissing, rules.CodeOutputMissing,
	rules.CodeProviderToolNotAllowed,
	// rules D3 and D5 (custody.go): another host, no host recorded, a tool
	// call in a session that has no tools.
	rules.CodeSessionHostMismatch, rules.CodeSessionHostMissing, rules.CodeFixedEvidenceToolCall, rules.CodeReviewToolCall,
}

// noteReplaced turns each rejecting infrastructure finding of a session of
// a replaced attempt into a note, once the replacements are within the
// allowance: the original attempt is retained and charged (the account
// stage still checks its meters and reservation), and only its replacement
// is scored. Every other finding keeps its severity, and the final
// attempt's findings are untouched.
func (v *runner) noteReplaced(replaced map[string]string) {
	for i, f := range v.findings {
		attempt, ok := replaced[f.Session]
		if !ok || f.Severity != rules.Reject || !slices.Contains(infrastructureCodes, f.Code) {
			continue
		}
		v.findings[i] = rules.Finding{Code: rules.CodeReplacedAttemptNoted, Severity: rules.ClassOf(rules.CodeReplacedAttemptNoted).Severity(),
			File: f.File, Line: f.Line, Pointer: f.Pointer, Session: f.Session,
			Message: fmt.Sprintf("%s was replaced within the infrastructure-replacement allowance, so its %s is a note: %s", attempt, f.Code, f.Message)}
	}
}

// attempts returns a slot's final attempt and how many of its attempts
// hold an invalid session, and adds the sessions of replaced invalid
// attempts to replaced; a replaced attempt with no invalid session is
// reported.
func (v *runner) attempts(slot tables.Slot, rs []*sessionResult, replaced map[string]string) (final, invalid int64) {
	final = 1
	for _, sr := range rs {
		final = max(final, sr.attempt)
	}
	for attempt := int64(1); attempt <= final; attempt++ {
		var first *sessionResult
		bad := false
		for _, sr := range rs {
			if sr.attempt == attempt {
				first = cmpOr(first, sr)
				bad = bad || sr.class == classInvalid
			}
		}
		if bad {
			invalid++
			if attempt < final {
				for _, sr := range rs {
					if sr.attempt == attempt {
						replaced[sr.id] = fmt.Sprintf("Attempt %d of %s repetition %d", attempt, slot.Task, slot.Repetition)
					}
				}
			}
		}
		if attempt < final && first != nil && !bad {
			v.addReceipt(first, rules.CodeReplacementUnjustified, fmt.Sprintf("Attempt %d of %s repetition %d was replaced although none of its sessions is infrastructure-invalid.", attempt, slot.Task, slot.Repetition))
		}
	}
	return final, invalid
}

func cmpOr(a, b *sessionResult) *sessionResult {
	if a != nil {
		return a
	}
	return b
}

// finalAttempt checks the planned sessions of a slot's final attempt.
func (v *runner) finalAttempt(slot tables.Slot, final int64, rs []*sessionResult) {
	used := map[*sessionResult]bool{}
	draft := v.expect(slot, final, tables.RoleDraft, "", rs, used)
	draftFailed := draft != nil && draft.class == classScoredFailure
	if draft != nil && v.statusOf(draft) == tables.StatusNotDispatched {
		v.addReceipt(draft, rules.CodeNotDispatchedUnexpected, "A draft is never not_dispatched.")
	}
	if draftFailed {
		v.failedDraft = draft.id
	}
	for _, arm := range slot.Order {
		rv := v.expect(slot, final, tables.RoleReview, arm, rs, used)
		if rv == nil {
			continue
		}
		v.reviewAfterDraft(rv, draft, draftFailed)
	}
	v.failedDraft = ""
	for _, sr := range rs {
		if sr.attempt != final {
			continue
		}
		if !used[sr] {
			v.addReceipt(sr, rules.CodeSessionUnplanned, fmt.Sprintf("Arm %q is not in the order of %s repetition %d.", v.armOf(sr), slot.Task, slot.Repetition))
		}
		if sr.infra {
			v.addReceipt(sr, rules.CodeInfrastructureInvalid, fmt.Sprintf("The session failed with infrastructure error %q and its repetition was not replaced.", v.errorOf(sr)))
		}
	}
}

// reviewAfterDraft applies C23 and the draft identity to one review.
func (v *runner) reviewAfterDraft(rv, draft *sessionResult, draftFailed bool) {
	dispatched := v.statusOf(rv) != tables.StatusNotDispatched
	switch {
	case draftFailed && dispatched:
		v.addReceipt(rv, rules.CodeReviewAfterFailedDraft, fmt.Sprintf("The review was dispatched although draft %s failed; it must be a not_dispatched receipt.", draft.id))
	case !draftFailed && !dispatched:
		v.addReceipt(rv, rules.CodeNotDispatchedUnexpected, "The review was not dispatched although its draft did not fail.")
	}
	if dispatched && draft != nil && (!rv.hasDraft || rv.draftID != draft.id) {
		rv.identity = false
		rv.class = classInvalid
		v.addReceipt(rv, rules.CodeIdentityMismatch, fmt.Sprintf("The review's draft_session_id %q is not its repetition's draft %q; the execution is invalid.", rv.draftID, draft.id))
	}
}

// expect returns the first unused receipt of one planned session, reports
// any further one as a duplicate and a missing one with a row of status
// missing.
func (v *runner) expect(slot tables.Slot, attempt int64, role, arm string, rs []*sessionResult, used map[*sessionResult]bool) *sessionResult {
	var got *sessionResult
	for _, sr := range rs {
		if sr.attempt != attempt || v.roleOf(sr) != role || v.armOf(sr) != arm || used[sr] {
			continue
		}
		used[sr] = true
		if got != nil {
			v.addReceipt(sr, rules.CodeReceiptDuplicate, fmt.Sprintf("Session %s already has a receipt on line %d.", got.id, got.line))
			continue
		}
		got = sr
	}
	if got == nil {
		v.missing(slot, attempt, role, arm)
	}
	return got
}

// missingWayForward is the way forward of a missing session: a review of a
// failed draft is recorded as not dispatched; any other session's record
// is imported or appended.
func (v *runner) missingWayForward(role string) string {
	if role == tables.RoleReview && v.failedDraft != "" {
		return fmt.Sprintf(": its draft %s failed, so it was never to be dispatched; append a receipt of it to receipts.jsonl with status not_dispatched and error_class %s", v.failedDraft, tables.ErrorUpstreamDraftFailed)
	}
	return ": import the session's record (an entry of the import mapping naming its task, repetition, role and arm) or append its receipt to receipts.jsonl"
}

// missing records a planned session without a receipt, under the ID the
// examples use: <task>-r<rep>-D for a draft, -<arm> for a paired review,
// -<system>-I and -<system>-R for a system comparison's investigation and
// review, with -a<attempt> for a replacement.
func (v *runner) missing(slot tables.Slot, attempt int64, role, arm string) {
	suffix, unit := arm, "arm"
	switch {
	case role == tables.RoleDraft:
		suffix = "D"
	case v.c.Manifest.Kind == rules.KindSystemComparison && role == tables.RoleInvestigation:
		suffix, unit = arm+"-I", "system"
	case v.c.Manifest.Kind == rules.KindSystemComparison:
		suffix, unit = arm+"-R", "system"
	}
	id := fmt.Sprintf("%s-r%d-%s", slot.Task, slot.Repetition, suffix)
	if attempt > 1 {
		id += fmt.Sprintf("-a%d", attempt)
	}
	row := tables.Session{
		SessionID: id, Attempt: attempt, TaskID: slot.Task, Repetition: slot.Repetition,
		Role: role, Status: tables.StatusMissing, Classification: tables.ClassInvalid,
	}
	if arm != "" {
		row.Arm = &arm
	}
	if t := v.tasks[slot.Task]; t != nil {
		row.Repository, row.Family = t.Spec.Repository, t.Spec.Family
	}
	if _, seen := v.firsts[id]; seen {
		v.shared[id] = struct{}{}
	}
	v.newSession(row)
	v.closeSession()
	v.findings = append(v.findings, rules.Finding{
		Code: rules.CodeSessionMissing, Severity: rules.Reject, File: receiptsFile, Session: id,
		Message: fmt.Sprintf("The planned %s session of %s repetition %d (%s %q, attempt %d) has no receipt%s.", role, slot.Task, slot.Repetition, unit, arm, attempt, v.missingWayForward(role)),
	})
}
