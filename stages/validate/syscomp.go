package validate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// System comparison (rule G5). A workflow is one (task,
// repetition, system): an investigation session that returns a plain-text
// draft and a raw-observation packet (receipt.observations), then a review
// session that receives exactly that packet and draft and answers with the
// response contract. There is no shared draft. One preparation session per
// (system, repository) records the cold setup; it names the first workflow
// of its system in that repository (schedule order), which it is charged to.
//
// Readings:
//   - An investigation receives no packet: its inputs.packet_sha256 is the
//     sha256 of the empty string, as is a preparation's; the review's
//     packet_sha256 is the sha256 of its investigation's observations file.
//   - Prompts: the investigation renders design.draft_prompts, the review
//     its system's prompts, a preparation none.
//   - An investigation that errs with a model error or returns an empty or
//     non-UTF-8 draft is a scored failure (an investigation-stage system
//     failure); its review must be not_dispatched (C23 applied to G5).
//   - Review citations are checked against the workflow's raw observations
//     and the content-addressed sources, exactly as against a task packet.

// emptySHA256 is the sha256 of no bytes: what a session that receives no
// packet declares as packet_sha256.
var emptySHA256 = func() string { s := sha256.Sum256(nil); return hex.EncodeToString(s[:]) }()

// runSystems validates a system-comparison campaign.
// It reads the receipts in one pass, like Run: each session, then its
// rendering, a review whose investigation comes after it at the end.
func (v *runner) runSystems() {
	w := &workflows{runner: v, observations: map[string]*tables.OutputRef{}, noted: map[*sessionResult]notedReceipt{}}
	var later []ordered
	ord := 0
	for line := range v.c.Receipts.All() {
		l := &line
		sr := v.systemSession(l)
		v.systemCustody(&l.Record, sr)
		v.noteReceipt(&l.Record)
		w.note(&l.Record, sr)
		if v.draftAfter(&l.Record) {
			later = append(later, ordered{ord: ord, r: l.Record, sr: sr})
		} else {
			v.renderedInput(ord, &l.Record, sr)
		}
		ord++
	}
	for i := range later {
		v.renderedInput(later[i].ord, &later[i].r, later[i].sr)
	}
	v.pairsBlocks()
	w.systemCompleteness()
	v.setupCompleteness()
}

// systemSession validates one receipt of a system comparison on its own.
func (v *runner) systemSession(l *tables.Line[tables.Receipt]) *sessionResult {
	sr, r, task := v.openSession(l)
	arm, known := v.arms[deref(r.Arm)]
	planned := task != nil && r.Arm != nil && known
	switch r.Role {
	case tables.RoleInvestigation, tables.RoleReview:
		sr.planned = planned
	case tables.RolePreparation:
	default:
		planned = false
	}
	if !planned && r.Role != tables.RoleAdjudication {
		v.addReceipt(sr, rules.CodeSessionUnplanned, fmt.Sprintf("%s receipt for task %q, system %q matches no planned session of the system comparison.", r.Role, r.TaskID, deref(r.Arm)))
	}
	v.checkIdentity(sr, r, planned, func() []string { return v.systemIdentity(r, task, arm) })
	v.setClass(sr, v.systemClassify(sr, r, task, arm))
	if planned && v.providerToolCalls(sr, r, arm) && sr.class != classNotDispatched {
		sr.class = classInvalid
	}
	v.closeSession()
	return sr
}

// systemIdentity lists the identities of r that differ from the manifest.
// The review's packet is checked against its investigation later.
func (v *runner) systemIdentity(r *tables.Receipt, task *tables.LoadedTask, arm tables.Arm) []string {
	m := &v.c.Manifest
	var bad []string
	check := func(name, got, want string) {
		if got != want {
			bad = append(bad, name)
		}
	}
	if !tables.SameModel(r.Identity.ReturnedModel, m.Identities.ReturnedModel) {
		bad = append(bad, "returned_model")
	}
	check("cli_sha256", r.Identity.CLISHA256, m.Identities.CLISHA256)
	check("permission_policy", r.Identity.PermissionPolicy, m.Identities.PermissionPolicy)
	check("task_sha256", r.Inputs.TaskSHA256, task.Spec.TaskSHA256)
	check("response_schema_sha256", r.Inputs.ResponseSchemaSHA256, m.ResponseSchemaSHA256)
	var prompts []string
	switch r.Role {
	case tables.RoleInvestigation:
		prompts = m.Design.DraftPrompts
		check("packet_sha256", r.Inputs.PacketSHA256, emptySHA256)
	case tables.RoleReview:
		prompts = arm.Prompts
	case tables.RolePreparation:
		check("packet_sha256", r.Inputs.PacketSHA256, emptySHA256)
	}
	if !slices.Equal(r.Inputs.PromptIDs, prompts) && (len(prompts) > 0 || len(r.Inputs.PromptIDs) > 0) {
		bad = append(bad, "prompt_ids")
	} else if !v.promptHashesMatch(r.Inputs.PromptSHA256s, prompts) {
		bad = append(bad, "prompt_sha256s")
	}
	return bad
}

// systemClassify applies V7 to one receipt of a system comparison.
func (v *runner) systemClassify(sr *sessionResult, r *tables.Receipt, task *tables.LoadedTask, arm tables.Arm) tables.Classification {
	switch {
	case task == nil || r.Role == tables.RolePreparation || r.Role == tables.RoleAdjudication:
		return v.classify(sr, r, task, "")
	case r.Role == tables.RoleInvestigation:
		return v.investigation(sr, r)
	case r.Role != tables.RoleReview:
		return v.classify(sr, r, task, "")
	}
	role := RoleReview
	if arm.Reconciliation {
		role = RoleReconciliation
	}
	if r.Status != tables.StatusResponse || r.EndedAt == nil || r.ErrorClass != nil {
		return v.classify(sr, r, task, role)
	}
	obs := v.c.Observations[deref(r.Inputs.DraftSessionID)]
	if obs == nil {
		v.addReceipt(sr, rules.CodeObservationsMissing, fmt.Sprintf("The review names investigation %q, which recorded no readable raw-observation packet, so its evidence is unknown; the execution is invalid.", deref(r.Inputs.DraftSessionID)))
		return tables.ClassInvalid
	}
	workflow := *task
	workflow.Packet = *obs
	return v.classify(sr, r, &workflow, role)
}

// investigation classifies an investigation session: a terminal response
// with a non-empty UTF-8 draft and a raw-observation packet is valid.
func (v *runner) investigation(sr *sessionResult, r *tables.Receipt) tables.Classification {
	switch {
	case r.EndedAt == nil || r.Status != tables.StatusResponse || r.ErrorClass != nil:
		return v.classify(sr, r, nil, "")
	case r.Output == nil:
		v.addReceipt(sr, rules.CodeOutputMissing, "A response receipt has no output.")
		return tables.ClassInvalid
	case r.Observations == nil:
		v.addReceipt(sr, rules.CodeObservationsMissing, "The investigation returned a response but recorded no raw-observation packet; the execution is invalid.")
		return tables.ClassInvalid
	case v.c.Observations[r.SessionID] == nil:
		return tables.ClassInvalid // the loader reported why the packet is unusable
	}
	data, ok := v.readOutput(sr, r.Output)
	if !ok {
		return tables.ClassInvalid
	}
	ok = utf8.Valid(data) && strings.TrimSpace(string(data)) != ""
	v.open.AnswerValid = boolPtr(ok)
	if !ok {
		v.findings = append(v.findings, rules.Finding{
			Code: rules.CodeInvestigationEmpty, Severity: rules.Warn, File: r.Output.Path, Session: sr.id,
			Message: "The investigation's draft is empty or not UTF-8: an investigation-stage system failure.",
		})
		return tables.ClassScoredFailure
	}
	if n := v.c.ObservationTokens[r.SessionID]; n > tables.PacketTokenLimit {
		v.findings = append(v.findings, rules.Finding{
			Code: rules.CodeEvidenceBudgetExceeded, Severity: rules.Warn, File: r.Observations.Path, Pointer: "/packet_tokens", Session: sr.id,
			Message: fmt.Sprintf("The returned packet is %d tokens under the frozen tokenizer, over the %d-token limit: a valid evidence_budget_exceeded system failure; the packet is never trimmed and the review must not be dispatched.", n, tables.PacketTokenLimit),
		})
		return tables.ClassScoredFailure
	}
	return tables.ClassValid
}
