package validate

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

var modelErrors = []string{tables.ErrorModelTimeout, tables.ErrorBudgetExhausted, tables.ErrorRefused, tables.ErrorMalformed, tables.ErrorEmpty}

var infraErrors = []string{tables.ErrorRecorderLoss, tables.ErrorWrongInputs, tables.ErrorUndeclaredPermissions, tables.ErrorCrossArmLeakage, tables.ErrorPlatformOutage}

// session validates one receipt on its own: identity (V1), terminal status,
// the answer and its citations (V3–V6); the completeness pass runs later.
func (v *runner) session(l *tables.Line[tables.Receipt]) *sessionResult {
	sr, r, task := v.openSession(l)
	role, prompts, planned := v.plannedRole(r, task)
	sr.planned = planned
	if (r.Role == tables.RoleDraft || r.Role == tables.RoleReview) && !planned {
		v.addReceipt(sr, rules.CodeSessionUnplanned, fmt.Sprintf("%s receipt for task %q, arm %q matches no planned session of the design.", r.Role, r.TaskID, deref(r.Arm)))
	}
	v.checkIdentity(sr, r, planned, func() []string { return v.identityMismatches(r, task, prompts) })
	v.setClass(sr, v.classify(sr, r, task, role))
	v.closeSession()
	return sr
}

// openSession starts the row of one receipt, with the task's repository
// and family when the task is known.
func (v *runner) openSession(l *tables.Line[tables.Receipt]) (*sessionResult, *tables.Receipt, *tables.LoadedTask) {
	r := &l.Record
	if _, seen := v.firsts[r.SessionID]; seen {
		v.shared[r.SessionID] = struct{}{}
	}
	sr := v.newSession(baseRow(r, &v.times))
	sr.line = l.Line
	if d := r.Inputs.DraftSessionID; d != nil {
		sr.draftID, sr.hasDraft = *d, true
	}
	task := v.tasks[r.TaskID]
	if task != nil {
		v.open.Repository, v.open.Family = task.Spec.Repository, task.Spec.Family
	}
	return sr, r, task
}

// checkIdentity applies V1 to a planned, dispatched session: mismatches
// lists what differs from the manifest, and any difference makes the
// execution invalid.
func (v *runner) checkIdentity(sr *sessionResult, r *tables.Receipt, planned bool, mismatches func() []string) {
	sr.identity = true
	if !planned || r.Status == tables.StatusNotDispatched {
		return
	}
	if bad := mismatches(); len(bad) > 0 {
		sr.identity = false
		v.addReceipt(sr, rules.CodeIdentityMismatch, "The receipt's "+strings.Join(bad, ", ")+" differ from the manifest"+
			modelDetail(bad, "returned_model", r.Identity.ReturnedModel, v.c.Manifest.Identities.ReturnedModel)+"; the execution is invalid.")
	}
}

// modelDetail shows both model names when name is among the mismatches:
// the receipt's raw string and the one it was compared with under the
// model identity rule (tables.SameModel).
func modelDetail(bad []string, name, got, want string) string {
	if !slices.Contains(bad, name) {
		return ""
	}
	return fmt.Sprintf(" (%s %q, the manifest's %q, compared with one provider prefix ignored)", name, got, want)
}

// setClass records a session's classification; an identity mismatch makes
// any dispatched session invalid, whatever the answer was.
func (v *runner) setClass(sr *sessionResult, c tables.Classification) {
	sr.class = classOf(c)
	if !sr.identity && c != tables.ClassNotDispatched {
		sr.class = classInvalid
	}
}

// baseRow fills the columns copied from the receipt; the end time and
// duration it points at are taken from times.
func baseRow(r *tables.Receipt, times *int64Arena) tables.Session {
	row := tables.Session{
		SessionID:    r.SessionID,
		RequestID:    r.RequestID,
		Attempt:      r.Attempt,
		TaskID:       r.TaskID,
		Repetition:   r.Repetition,
		Role:         r.Role,
		Arm:          r.Arm,
		Status:       r.Status,
		ErrorClass:   r.ErrorClass,
		StartedAtNS:  r.StartedAt.UnixNano(),
		ValidationNS: msToNS(r.ValidationMS),
	}
	if r.EndedAt != nil {
		end, duration := times.new(), times.new()
		*end = r.EndedAt.UnixNano()
		*duration = r.EndedAt.Sub(r.StartedAt).Nanoseconds()
		if r.MonotonicStartNS != nil && r.MonotonicEndNS != nil {
			*duration = *r.MonotonicEndNS - *r.MonotonicStartNS
		}
		row.EndedAtNS, row.DurationNS = end, duration
	}
	return row
}

func msToNS(ms int64) int64 {
	const nsPerMS = int64(1_000_000)
	if ms > math.MaxInt64/nsPerMS {
		return math.MaxInt64
	}
	if ms < math.MinInt64/nsPerMS {
		return math.MinInt64
	}
	return ms * nsPerMS
}

// plannedRole returns the answer role and expected prompt IDs of a draft or
// review receipt, and whether it names a known task and arm.
func (v *runner) plannedRole(r *tables.Receipt, task *tables.LoadedTask) (role string, prompts []string, ok bool) {
	if task == nil {
		return "", nil, false
	}
	switch {
	case r.Role == tables.RoleDraft && r.Arm == nil:
		return RoleDraft, v.c.Manifest.Design.DraftPrompts, true
	case r.Role == tables.RoleReview && r.Arm != nil:
		arm, known := v.arms[*r.Arm]
		if !known {
			return "", nil, false
		}
		if arm.Reconciliation {
			return RoleReconciliation, v.armPrompts(arm, r), true
		}
		return RoleReview, v.armPrompts(arm, r), true
	}
	return "", nil, false
}

// identityMismatches lists the identities of r that differ from the
// manifest (V1).
func (v *runner) identityMismatches(r *tables.Receipt, task *tables.LoadedTask, prompts []string) []string {
	m := &v.c.Manifest
	var bad []string
	check := func(name, got, want string) {
		if got != want {
			bad = append(bad, name)
		}
	}
	bad = append(bad, ConsumerDrift(m, r)...)
	check("permission_policy", r.Identity.PermissionPolicy, m.Identities.PermissionPolicy)
	check("task_sha256", r.Inputs.TaskSHA256, task.Spec.TaskSHA256)
	check("packet_sha256", r.Inputs.PacketSHA256, task.Spec.PacketSHA256)
	check("response_schema_sha256", r.Inputs.ResponseSchemaSHA256, m.ResponseSchemaSHA256)
	if !slices.Equal(r.Inputs.PromptIDs, prompts) {
		bad = append(bad, "prompt_ids")
	} else if !v.promptHashesMatch(r.Inputs.PromptSHA256s, prompts) {
		bad = append(bad, "prompt_sha256s")
	}
	return bad
}

// ConsumerDrift lists the consumer identities a receipt reports other than
// the manifest's (returned model, CLI executable hash): the model or CLI
// drift that stops a campaign (contract #741 §5), which admission refuses
// to continue past as well as making the session invalid (rule V1).
func ConsumerDrift(m *tables.Manifest, r *tables.Receipt) []string {
	var bad []string
	if !tables.SameModel(r.Identity.ReturnedModel, m.Identities.ReturnedModel) {
		bad = append(bad, "returned_model")
	}
	if r.Identity.CLISHA256 != m.Identities.CLISHA256 {
		bad = append(bad, "cli_sha256")
	}
	return bad
}

func (v *runner) promptHashesMatch(hashes, ids []string) bool {
	if len(hashes) != len(ids) {
		return false
	}
	for i, id := range ids {
		if p, ok := v.prompts[id]; !ok || p.SHA256 != hashes[i] {
			return false
		}
	}
	return true
}

// classify applies V7 to one receipt on its own.
func (v *runner) classify(sr *sessionResult, r *tables.Receipt, task *tables.LoadedTask, role string) tables.Classification {
	code, msg := terminalDefect(r)
	if code == "" && (r.Status == tables.StatusError || r.Status == tables.StatusInterruption) {
		code, msg = errorClassDefect(r)
	}
	if code != "" {
		v.addReceipt(sr, code, msg)
		return tables.ClassInvalid
	}
	switch {
	case r.Status == tables.StatusNotDispatched:
		return tables.ClassNotDispatched
	case r.Status == tables.StatusResponse && role == "":
		return tables.ClassValid // not an answer of the response contract
	case r.Status == tables.StatusResponse:
		return v.response(sr, r, task, role)
	case slices.Contains(modelErrors, *r.ErrorClass): // the model's own failure is scored
		return tables.ClassScoredFailure
	}
	sr.infra = true // the infrastructure's failure makes the execution invalid
	return tables.ClassInvalid
}

// terminalDefect is what is wrong with a receipt's terminal record on its
// own (V2, control C15), for every kind of campaign: a started session
// without an end (terminal_missing), a response with an error class or a
// status that is not terminal (receipt_inconsistent). "" when there is
// nothing.
func terminalDefect(r *tables.Receipt) (rules.Code, string) {
	switch {
	case r.EndedAt == nil:
		return rules.CodeTerminalMissing, "The session started but has no terminal receipt (ended_at is null); the execution is invalid."
	case r.Status == tables.StatusNotDispatched, r.Status == tables.StatusError, r.Status == tables.StatusInterruption:
		return "", ""
	case r.Status == tables.StatusResponse:
		if r.ErrorClass != nil {
			return rules.CodeReceiptInconsistent, fmt.Sprintf("A response receipt has error class %q.", *r.ErrorClass)
		}
		return "", ""
	}
	return rules.CodeReceiptInconsistent, fmt.Sprintf("Status %q is not a terminal status.", r.Status)
}

// errorClassDefect is what is wrong with an error or interruption
// receipt's error class in a paired review or system comparison, whose
// scoring tells a model's failure (scored) from the infrastructure's
// (invalid) by it: none, or one that does not fit. A reviewer benchmark
// counts every error and interruption as an execution error, whatever
// its class.
func errorClassDefect(r *tables.Receipt) (rules.Code, string) {
	switch {
	case r.ErrorClass == nil:
		return rules.CodeReceiptInconsistent, fmt.Sprintf("A %s receipt has no error class.", r.Status)
	case slices.Contains(modelErrors, *r.ErrorClass), slices.Contains(infraErrors, *r.ErrorClass):
		return "", ""
	}
	return rules.CodeReceiptInconsistent, fmt.Sprintf("Error class %q does not fit a %s receipt.", *r.ErrorClass, r.Status)
}
