package importers

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// ImportedSession is one source record turned into a campaign session:
// its receipt, the answer bytes it returned (nil when the source holds no
// final output) and the ledger record of the import.
type ImportedSession struct {
	Receipt tables.Receipt
	Answer  []byte
	// Input is the recorded input a reviewer benchmark's review keeps
	// (receipt.recorded_input); nil for every other session.
	Input []byte
	// Trial is the trial record a reviewer benchmark's probe keeps in the
	// campaign (Harbor's result.json, byte for byte) and TrialPath where
	// (trials/<trial_name>/result.json): a review's finding binds a probe
	// by that path and sha256, and only a bound trial establishes that
	// the probe ran. Nil for every other session.
	Trial     []byte
	TrialPath string
	Record    tables.ImportRecord
}

// AnswerPath is where an imported session's answer is written in the
// campaign (docs/format.md: answers/<session-id>.json).
func AnswerPath(sessionID string) string { return "answers/" + sessionID + ".json" }

// ReviewPath and RecordedInputPath are where an imported review attempt of
// a reviewer benchmark keeps its review and its recorded input
// (docs/format.md: reviews/<session-id>/).
func ReviewPath(sessionID string) string { return "reviews/" + sessionID + "/review.json" }

// RecordedInputPath: see ReviewPath.
func RecordedInputPath(sessionID string) string { return "reviews/" + sessionID + "/input.json" }

// TrialPath is where an imported probe of a reviewer benchmark keeps its
// Harbor trial record (docs/format.md: trials/<name>/result.json).
func TrialPath(name string) string { return "trials/" + name + "/result.json" }

// BuildImport maps every source record to its session by the mapping's
// explicit entries and builds its receipt. Times, IDs, model identity,
// meters and errors come from the record; task, repetition, role, arm,
// prompts and the reservation from the mapping; the delivered task,
// packet and response-schema hashes from the manifest's design of the
// mapped task. What neither records — a monotonic clock, a rendered
// prompt, a reservation the mapping leaves null — stays absent, so the
// campaign fails the rules that need it. A record no entry names, an
// error no class maps, a source ID that cannot be a request ID or a
// record without a start time refuses the import; every problem is
// reported. mapFile names the mapping in findings.
//
// A reviewer benchmark's review attempt (the mapping's task_id a case,
// arm a profile, repetition a run) is delivered its case's task checksum
// (checksums: case ID → the task checksum of its inventory files), its
// answer is the review (reviews/<session>/review.json) and the input the
// record holds is its recorded input (reviews/<session>/input.json), whose
// digest is the rendered input's: the receipt says exactly what the
// source recorded the reviewer received.
func BuildImport(m *tables.ImportMap, mapFile string, man *tables.Manifest, checksums map[string]string, recs []SourceRecord) ([]ImportedSession, rules.Findings) {
	b := importBuilder{m: m, mapFile: mapFile, man: man, checksums: checksums, classes: map[string]string{}}
	b.checkCampaign()
	for _, e := range m.ErrorClasses {
		b.classes[e.SourceError] = e.Class
	}
	entries := map[tables.ImportMatch]int{}
	for i, s := range m.Sessions {
		entries[s.Match] = i
	}
	used := map[int]bool{}
	var out []ImportedSession
	for i := range recs {
		r := &recs[i]
		idx, ok := entries[r.Match]
		if !ok {
			b.reject(r, rules.CodeImportUnmapped, fmt.Sprintf("%s is not named by any entry of %s; map it (or leave the file out) so no record is dropped silently",
				describeMatch(r.Source, r.Match), mapFile))
			continue
		}
		used[idx] = true
		if s, ok := b.session(r, &m.Sessions[idx], idx); ok {
			out = append(out, s)
		}
	}
	for i, s := range m.Sessions {
		if !used[i] {
			b.out.Add(rules.Finding{Code: rules.CodeImportMapUnmatched, Severity: rules.Warn, File: mapFile,
				Pointer: "/sessions/" + strconv.Itoa(i) + "/match", Message: describeMatch(m.Source, s.Match) + " is not in the files imported"})
		}
	}
	if len(out) > 0 && m.Identity.Host == "" {
		b.out.Add(rules.Finding{Code: rules.CodeImportNoHost, Severity: rules.Warn, File: mapFile, Pointer: "/identity",
			Message: fmt.Sprintf("no %s record names the host it ran on and the mapping gives none, so the %d session(s) imported have no identity.host, which a paired review refuses (session_host_missing); "+
				"write the host they ran on (the manifest's identities.host) at %s#/identity/host and import again: the receipts are filled in place", m.Source, len(out), mapFile)})
	}
	found := b.out.Findings()
	found.Sort()
	if found.Rejected() {
		return nil, found
	}
	return out, found
}

type importBuilder struct {
	m         *tables.ImportMap
	mapFile   string
	man       *tables.Manifest
	checksums map[string]string // a reviewer benchmark's case → task checksum
	classes   map[string]string
	out       rules.FindingCap // a million unmapped records keep a hundred findings
}

// benchReview reports whether e is a review attempt of a reviewer
// benchmark.
func (b *importBuilder) benchReview(e *tables.ImportSession) bool {
	return b.man.Kind == rules.KindReviewerBenchmark && e.Role == tables.RoleReview
}

// benchRemote reports whether e is a reviewer benchmark's probe or remote
// execution: a control trial or remote check, which runs no model of the
// benchmark and has no token meter.
func (b *importBuilder) benchRemote(e *tables.ImportSession) bool {
	return b.man.Kind == rules.KindReviewerBenchmark && tables.RemoteRole(e.Role)
}

func (b *importBuilder) reject(r *SourceRecord, code rules.Code, msg string) {
	b.out.Add(rules.Finding{Code: code, Severity: rules.Reject, File: r.File, Line: r.Line, Pointer: r.Pointer, Message: msg})
}

func (b *importBuilder) mapFinding(ptr, msg string) {
	b.out.Add(rules.Finding{Code: rules.CodeImportMapInvalid, Severity: rules.Reject, File: b.mapFile, Pointer: ptr, Message: msg})
}

// checkCampaign ties the mapping to the manifest: its rate card exists
// (and is in US dollars when Harbor's cost is the actual charge), and
// every prompt it names is a manifest prompt.
func (b *importBuilder) checkCampaign() {
	i := slices.IndexFunc(b.man.RateCards, func(c tables.RateCard) bool { return c.ID == b.m.RateCard })
	switch {
	case i < 0:
		b.mapFinding("/rate_card", fmt.Sprintf("rate card %q is not one of the manifest's rate_cards", b.m.RateCard))
	case b.m.Billing == tables.BillingActual && b.man.RateCards[i].Currency != "USD":
		b.mapFinding("/billing", fmt.Sprintf("Harbor's cost_usd is in USD but rate card %q is in %s; it cannot be the actual charge", b.m.RateCard, b.man.RateCards[i].Currency))
	}
	for i, s := range b.m.Sessions {
		for j, id := range s.PromptIDs {
			if !slices.ContainsFunc(b.man.Prompts, func(p tables.PromptFile) bool { return p.ID == id }) {
				b.mapFinding(fmt.Sprintf("/sessions/%d/prompt_ids/%d", i, j), fmt.Sprintf("prompt %q is not one of the manifest's prompts", id))
			}
		}
	}
}

// session builds the receipt of record r mapped by entry e (index idx).
func (b *importBuilder) session(r *SourceRecord, e *tables.ImportSession, idx int) (ImportedSession, bool) {
	ok := true
	if !load.IsIdentifier(r.RequestID) {
		b.reject(r, rules.CodeImportIDInvalid, fmt.Sprintf("the source's own ID %q is not a campaign identifier, so it cannot be the request ID", load.Clip(r.RequestID)))
		ok = false
	}
	if r.StartedAt == nil {
		b.reject(r, rules.CodeImportTimeMissing, describeMatch(r.Source, r.Match)+" records no start time; none is invented")
		ok = false
	}
	rc := tables.Receipt{
		Format: tables.FormatReceipt, SessionID: e.SessionID, RequestID: r.RequestID, Attempt: e.Attempt,
		TaskID: e.TaskID, Repetition: e.Repetition, Role: e.Role, Arm: e.Arm, EndedAt: r.EndedAt,
		Status:    tables.StatusResponse,
		Identity:  tables.ReceiptIdentity{ReturnedModel: r.ReturnedModel, CLISHA256: b.m.Identity.CLISHA256, PermissionPolicy: b.m.Identity.PermissionPolicy, Host: b.m.Identity.Host},
		Inputs:    b.inputs(e),
		ToolCalls: []tables.ToolCall{}, Reservation: e.Reservation,
		Billing: tables.Billing{Basis: tables.BillingReference},
	}
	if r.StartedAt != nil {
		rc.StartedAt = *r.StartedAt
	}
	switch {
	case r.Error != "":
		class, known := b.classes[r.Error]
		if !known {
			b.reject(r, rules.CodeImportErrorUnmapped, fmt.Sprintf("%s ended with error %q, which the mapping's error_classes does not map to an error class",
				describeMatch(r.Source, r.Match), load.Clip(r.Error)))
			ok = false
		}
		rc.Status, rc.ErrorClass = tables.StatusError, &class
	case r.NoOutcome:
		class := tables.ErrorRecorderLoss
		rc.Status, rc.ErrorClass = tables.StatusError, &class
	}
	remote := b.benchRemote(e)
	switch {
	case r.NoModel != "" && !remote:
		b.reject(r, rules.CodeImportAgentNoModel, fmt.Sprintf("Harbor trial %q ran the %s agent, %s, not a model: it is no model's session, so it cannot be the %s session %s; "+
			"import it into a reviewer benchmark as a control trial (role \"probe\" at %s#/sessions/%d/role, task_id the case or work it checked), or leave the file out",
			load.Clip(r.Match.Record), load.Clip(r.Agent), r.NoModel, e.Role, e.SessionID, b.mapFile, idx))
		ok = false
	case remote && e.ReturnedModel != "":
		b.mapFinding(fmt.Sprintf("/sessions/%d/returned_model", idx), fmt.Sprintf("a reviewer benchmark's %s runs no model of the benchmark, so it has no returned model; remove %q", e.Role, load.Clip(e.ReturnedModel)))
		ok = false
	case remote:
		// No model of the benchmark: the record's own, if any, is kept, and
		// none is asked for.
	case r.ReturnedModel != "" && e.ReturnedModel != "" && !tables.SameModel(r.ReturnedModel, e.ReturnedModel):
		b.mapFinding(fmt.Sprintf("/sessions/%d/returned_model", idx), fmt.Sprintf("%s names returned model %q but the mapping says %q; the record's own is kept only when they agree",
			describeMatch(r.Source, r.Match), load.Clip(r.ReturnedModel), load.Clip(e.ReturnedModel)))
		ok = false
	case r.ReturnedModel == "" && e.ReturnedModel != "":
		rc.Identity.ReturnedModel = e.ReturnedModel
	case r.ReturnedModel == "":
		b.out.Add(rules.Finding{Code: rules.CodeImportNoReturnedModel, Severity: rules.Warn, File: r.File, Line: r.Line, Pointer: r.Pointer,
			Session: e.SessionID, Message: describeMatch(r.Source, r.Match) + " records no model the provider returned, so returned_model is left empty and validate refuses the session's identity; " +
				fmt.Sprintf("write the model from your runner's records at %s#/sessions/%d/returned_model", b.mapFile, idx)})
	}
	if r.MeterShape != "" {
		rc.Meter = &tables.Meter{Shape: r.MeterShape, RateCard: b.m.RateCard, Usage: r.Usage}
	}
	switch {
	case b.m.Billing == tables.BillingActual:
		charge, exact := exactUSD(r.CostUSD)
		if !exact {
			b.reject(r, rules.CodeHarborCostInexact, fmt.Sprintf("the mapping bills Harbor's cost_usd as the actual charge, but it is %s", costText(r.CostUSD)))
			ok = false
		}
		rc.Billing = tables.Billing{Basis: tables.BillingActual, ActualCharge: &charge}
	case remote:
		// A remote execution is charged by its bill, never by tokens: until
		// the bill is reconciled it is held at its reservation.
		rc.Billing = tables.Billing{Basis: tables.BillingUnavailable}
	}
	if remote && r.TaskChecksum != "" {
		rc.Inputs.TaskSHA256 = r.TaskChecksum // the task the trial ran, as it records it
		if want, isCase := b.checksums[e.TaskID]; isCase && want != r.TaskChecksum {
			b.reject(r, rules.CodeRbenchReceiptOtherCase, fmt.Sprintf("Harbor trial %q ran the task whose checksum is %s, not case %s's task checksum %s (its inventory.json files): "+
				"it is no trial of that case; map it at %s#/sessions/%d/task_id to the case it ran on, or to the work it served (a task_id that is no case)",
				load.Clip(r.Match.Record), load.Clip(r.TaskChecksum), e.TaskID, want, b.mapFile, idx))
			ok = false
		}
	}
	s := ImportedSession{Answer: r.Output}
	if remote && r.Trial != nil {
		// The trial record is no bill (its cost_usd is the agent's model
		// cost): it is kept as the probe's evidence, under its own trial
		// name, or its id when the name cannot be a path segment.
		name := r.TrialName
		if !load.IsIdentifier(name) {
			name = r.RequestID
		}
		s.Trial, s.TrialPath = r.Trial, TrialPath(name)
	}
	answerPath := AnswerPath(e.SessionID)
	if b.benchReview(e) {
		answerPath = ReviewPath(e.SessionID)
		rc.Inputs.TaskSHA256, rc.Inputs.PacketSHA256 = b.checksums[e.TaskID], sha256Hex(nil) // a case has no evidence packet
		if r.Settings != nil {
			settings := *r.Settings
			rc.Settings = &settings
		}
		if r.Input != nil {
			s.Input = r.Input
			rc.RecordedInput = &tables.OutputRef{Path: RecordedInputPath(e.SessionID), SHA256: sha256Hex(r.Input), Bytes: int64(len(r.Input))}
			rc.Inputs.RenderedSHA256, rc.Inputs.RenderedBytes = rc.RecordedInput.SHA256, rc.RecordedInput.Bytes
		}
	}
	if r.Output != nil {
		rc.Output = &tables.OutputRef{Path: answerPath, SHA256: sha256Hex(r.Output), Bytes: int64(len(r.Output))}
	}
	s.Receipt = rc
	s.Record = tables.ImportRecord{Format: tables.FormatImportRecord, Source: r.Source, Match: r.Match,
		File: r.File, FileSHA256: r.FileSHA256, SessionID: e.SessionID}
	if r.Output != nil {
		s.Record.AnswerSHA256 = sha256Hex(r.Output)
	}
	return s, ok
}

// inputs are what the mapped session received according to the frozen
// design: the task's task and packet hashes, the response schema, the
// mapped prompts with their manifest hashes and the draft it revised.
// The rendered prompt is not recorded by any source: it is the mapping's,
// absent unless the mapping names it.
func (b *importBuilder) inputs(e *tables.ImportSession) tables.DeliveredInputs {
	in := tables.DeliveredInputs{PromptIDs: slices.Clone(e.PromptIDs), PromptSHA256s: []string{},
		ResponseSchemaSHA256: b.man.ResponseSchemaSHA256, DraftSessionID: e.DraftSessionID,
		RenderedSHA256: e.RenderedSHA256, RenderedBytes: e.RenderedBytes}
	if in.PromptIDs == nil {
		in.PromptIDs = []string{}
	}
	for _, id := range e.PromptIDs {
		if i := slices.IndexFunc(b.man.Prompts, func(p tables.PromptFile) bool { return p.ID == id }); i >= 0 {
			in.PromptSHA256s = append(in.PromptSHA256s, b.man.Prompts[i].SHA256)
		}
	}
	if i := slices.IndexFunc(b.man.Design.Tasks, func(t tables.TaskSpec) bool { return t.ID == e.TaskID }); i >= 0 {
		in.TaskSHA256, in.PacketSHA256 = b.man.Design.Tasks[i].TaskSHA256, b.man.Design.Tasks[i].PacketSHA256
	}
	return in
}

// exactUSD reads a JSON number as an exact money decimal: a plain decimal
// of at most 12 fractional digits (trailing zeros beyond them trimmed).
func exactUSD(v []byte) (string, bool) {
	s := string(v)
	if _, err := tables.ParseMoney(s); err != nil {
		return "", false
	}
	return s, true
}

func costText(v []byte) string {
	if v == nil {
		return "absent"
	}
	return fmt.Sprintf("%s, not an exact decimal of at most 12 places", load.Clip(string(v)))
}

// describeMatch names a source record in messages.
func describeMatch(source string, m tables.ImportMatch) string {
	switch source {
	case tables.SourceInspect:
		return fmt.Sprintf("Inspect record (run %q, sample %q, epoch %d, model %q)", load.Clip(m.Record), load.Clip(m.Sample), m.Epoch, load.Clip(m.Model))
	case tables.SourceCodex:
		return fmt.Sprintf("Codex session %q (model %q)", load.Clip(m.Record), load.Clip(m.Model))
	}
	return fmt.Sprintf("Harbor trial %q (model %q)", load.Clip(m.Record), load.Clip(m.Model))
}
