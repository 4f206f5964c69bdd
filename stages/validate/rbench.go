package validate

import (
	"time"

	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Reviewer-benchmark validation (rules I8, G6). The schedule is every case ×
// profile × run; each receipt fills one attempt. Record defects — an
// unplanned or duplicate attempt, a missing one, evidence crossing cases,
// an unrecorded input or one holding a label, a response-cache hit, two
// identical runs — reject the campaign. A reviewer's own faults are
// warnings whose consequence is scored: a malformed review is a schema
// violation, a fabricated quotation or an unbound probe leaves its finding
// ungrounded.

// BenchmarkOut is what the stage produces for a reviewer benchmark.
type BenchmarkOut = tables.ReviewsValidated

// Benchmark validates a reviewer benchmark's sessions, reading their
// files through files.
func Benchmark(c *tables.Campaign, files tables.ReviewFiles) BenchmarkOut {
	b := newBench(c, files)
	b.caseRows()
	for line := range c.Receipts.All() {
		b.receipt(line)
	}
	b.checkPriorDecisions()
	b.finishExecutions()
	b.missing()
	b.checkOrder()
	b.adjudications()
	b.out.Problems = append(b.out.Problems, checkBenchmarkProfiles(&c.Manifest)...)
	b.out.Problems = append(b.out.Problems, Policy(c)...)
	b.out.Problems.Sort()
	slices.SortStableFunc(b.out.Findings, func(x, y tables.FindingRow) int {
		return cmp.Or(cmp.Compare(x.SessionID, y.SessionID), compareIDs(x.FindingID, y.FindingID))
	})
	slices.SortStableFunc(b.out.Criteria, func(x, y tables.CriterionRow) int {
		return cmp.Or(cmp.Compare(x.SessionID, y.SessionID), cmp.Compare(slices.Index(tables.Criteria, x.Criterion), slices.Index(tables.Criteria, y.Criterion)))
	})
	return b.out
}

// attemptKey names one scheduled attempt.
type attemptKey struct {
	caseID, profile string
	run             int64
}

// bench holds the state of one benchmark validation.
type bench struct {
	c        *tables.Campaign
	b        *tables.Benchmark
	files    tables.ReviewFiles
	index    map[attemptKey]int    // → position in out.Attempts
	outputs  map[string]attemptKey // case\x00profile\x00output sha256 → first attempt with it
	bySum    map[string]string     // task checksum → case ID
	findings map[string]bool       // session\x00finding of completed reviews
	labels   *labelMatcher         // every label of the benchmark in normal form, compiled on first use
	norm     []byte                // the normal form of the input being checked, reused
	inputOK  bool                  // norm is the current receipt's recorded input
	decided  decisions             // every review's decision texts (rbench_decisions.go)
	sessions map[string]int        // session ID → position in out.Attempts
	ended    map[string]time.Time  // session ID → end of the execution filling its attempt
	order    protocolOrder
	budgets  map[string]budgetBound // model stratum → its reservation bound
	out      BenchmarkOut

	executionState // auxiliary calls and replacements (rbench_replace.go)
}

func newBench(c *tables.Campaign, files tables.ReviewFiles) *bench {
	b := &bench{c: c, b: c.Benchmark, files: files, index: map[attemptKey]int{},
		outputs: map[string]attemptKey{}, bySum: map[string]string{}, findings: map[string]bool{}, sessions: map[string]int{}, ended: map[string]time.Time{}}
	if b.b == nil {
		b.b = &tables.Benchmark{}
	}
	b.order.frozen = c.Manifest.FrozenAt
	for id, sum := range b.b.Checksums {
		b.bySum[sum] = id
	}
	for i := range b.b.Cases {
		cs := &b.b.Cases[i]
		for _, arm := range c.Manifest.Design.Arms {
			for run := int64(1); run <= c.Manifest.Design.Repetitions; run++ {
				b.index[attemptKey{cs.ID, arm.ID, run}] = len(b.out.Attempts)
				b.out.Attempts = append(b.out.Attempts, tables.ReviewAttempt{Row: tables.ReviewRow{
					CaseID: cs.ID, Family: cs.Family, Split: cs.Split, CaseKind: cs.Kind, Label: cs.Label,
					Regression: cs.Regression, Profile: arm.ID, Model: c.Manifest.Identities.ReturnedModel, Run: run,
					Status: tables.ReviewStatusMissing,
				}})
			}
		}
	}
	return b
}

func (b *bench) add(code rules.Code, sev rules.Severity, file string, line int64, ptr, session, format string, args ...any) {
	b.out.Problems = append(b.out.Problems, rules.Finding{Code: code, Severity: sev, File: file, Line: line,
		Pointer: ptr, Session: session, Message: fmt.Sprintf(format, args...) + "."})
}

// receipt fills the attempt of one receipt.
func (b *bench) receipt(line tables.Line[tables.Receipt]) {
	r := &line.Record
	reject := func(code rules.Code, ptr, format string, args ...any) {
		b.add(code, rules.Reject, receiptsFile, line.Line, ptr, r.SessionID, format, args...)
	}
	b.inputOK = false
	if b.auxiliary(line) {
		return
	}
	key := attemptKey{r.TaskID, deref(r.Arm), r.Repetition}
	i, planned := b.index[key]
	if !planned || r.Role != tables.RoleReview {
		reject(rules.CodeRbenchAttemptUnplanned, "", "%s receipt for case %q, profile %q, run %d is no scheduled review attempt", r.Role, r.TaskID, deref(r.Arm), r.Repetition)
		return
	}
	if !b.execute(key, i, line) {
		return
	}
	a := &b.out.Attempts[i]
	a.Row.Executions++
	a.Line = line.Line
	a.Row.SessionID = r.SessionID
	a.Row.Model, _ = b.stratum(r.Identity.ReturnedModel)
	b.sessions[r.SessionID] = i
	if r.EndedAt != nil {
		b.ended[r.SessionID] = *r.EndedAt
	}
	b.order.note(a.Row.Split, line.Line, r)
	b.checkBudget(r, line.Line, a.Row.Model, a.Row.Profile)
	b.checkSettings(r, line.Line, a.Row.Model, a.Row.Profile)
	if bad := b.identity(r); len(bad) > 0 {
		reject(rules.CodeIdentityMismatch, "", "The receipt's %s differ from the manifest%s; the execution is invalid", strings.Join(bad, ", "),
			b.modelDetail(bad, r.Identity.ReturnedModel))
	}
	if code, msg := terminalDefect(r); code != "" {
		reject(code, "", "%s", strings.TrimSuffix(msg, "."))
	}
	if r.Status != tables.StatusNotDispatched {
		if want := b.b.Checksums[r.TaskID]; r.Inputs.TaskSHA256 != want {
			other := b.bySum[r.Inputs.TaskSHA256]
			if other == "" {
				other = "no case"
			}
			reject(rules.CodeRbenchReceiptOtherCase, "/inputs/task_sha256", "the receipt is for case %s but its task_sha256 is the task checksum of %s", r.TaskID, other)
		}
		b.checkInput(r, line.Line)
	}
	switch r.Status {
	case tables.StatusResponse:
		a.Row.Status = tables.ReviewStatusCompleted
		b.output(a, r, line.Line)
	default:
		a.Row.Status = tables.ReviewStatusExecutionError
	}
}

// identity lists what differs from the manifest: returned model, CLI,
// permission policy, the profile's prompts and the response schema.
// stratum is the manifest's model that a returned model is under the model
// identity rule (tables.SameModel): identities.returned_model or one of
// benchmark.models, so that "anthropic/claude-3-5-haiku-20241022" and
// "claude-3-5-haiku-20241022" are one stratum. ok is false (and the raw
// name returned) when it is none of them.
func (b *bench) stratum(returned string) (string, bool) {
	m := &b.c.Manifest
	models := []string{m.Identities.ReturnedModel}
	if m.Benchmark != nil {
		models = append(models, m.Benchmark.Models...)
	}
	for _, model := range models {
		if tables.SameModel(returned, model) {
			return model, true
		}
	}
	return returned, false
}

// modelDetail shows the returned model and the manifest's models when the
// returned model is among the mismatches.
func (b *bench) modelDetail(bad []string, returned string) string {
	if !slices.Contains(bad, "returned model") {
		return ""
	}
	models := []string{b.c.Manifest.Identities.ReturnedModel}
	if b.c.Manifest.Benchmark != nil {
		models = append(models, b.c.Manifest.Benchmark.Models...)
	}
	return fmt.Sprintf(" (returned model %q; the manifest's models are %q, compared with one provider prefix ignored)", returned, models)
}

func (b *bench) identity(r *tables.Receipt) []string {
	if r.Status == tables.StatusNotDispatched {
		return nil
	}
	m := &b.c.Manifest
	var bad []string
	if _, ok := b.stratum(r.Identity.ReturnedModel); !ok {
		bad = append(bad, "returned model")
	}
	if r.Identity.CLISHA256 != m.Identities.CLISHA256 {
		bad = append(bad, "CLI sha256")
	}
	if r.Identity.PermissionPolicy != m.Identities.PermissionPolicy {
		bad = append(bad, "permission policy")
	}
	if r.Inputs.ResponseSchemaSHA256 != m.ResponseSchemaSHA256 {
		bad = append(bad, "response schema")
	}
	var want, wantSHA []string
	for _, arm := range m.Design.Arms {
		if arm.ID == deref(r.Arm) {
			want = arm.Prompts
		}
	}
	for _, id := range want {
		for _, p := range m.Prompts {
			if p.ID == id {
				wantSHA = append(wantSHA, p.SHA256)
			}
		}
	}
	if !slices.Equal(r.Inputs.PromptIDs, want) || !slices.Equal(r.Inputs.PromptSHA256s, wantSHA) {
		bad = append(bad, "prompts")
	}
	return bad
}

// checkInput reads the recorded input of a dispatched session and checks
// it is what the receipt says was rendered and holds no benchmark label.
func (b *bench) checkInput(r *tables.Receipt, line int64) {
	reject := func(code rules.Code, ptr, format string, args ...any) {
		b.add(code, rules.Reject, receiptsFile, line, ptr, r.SessionID, format, args...)
	}
	ref := r.RecordedInput
	if ref == nil {
		reject(rules.CodeRbenchInputUnrecorded, "/recorded_input", "the session's input bytes are not recorded, so no label can be shown to have stayed out of it; write the exact bytes the reviewer received to reviews/%s/input.json and name them in the receipt's recorded_input, with their sha256 and size as its rendered input (an imported review: an Inspect sample's input and a Codex rollout's are recorded by the import; a Harbor trial's from the trial file the mapping's input_file names)", r.SessionID)
		return
	}
	data, matches, err := b.files.Read(ref)
	switch {
	case err != nil:
		reject(rules.CodeRbenchInputUnrecorded, "/recorded_input", "%s cannot be read: %v", ref.Path, err)
		return
	case !matches || ref.SHA256 != r.Inputs.RenderedSHA256 || ref.Bytes != r.Inputs.RenderedBytes:
		reject(rules.CodeRbenchInputUnrecorded, "/recorded_input", "%s does not have the receipt's sha256 and byte count, or they are not the rendered input's", ref.Path)
		return
	case int64(len(data)) != ref.Bytes:
		reject(rules.CodeRbenchInputUnrecorded, "/recorded_input", "%s exceeds the answer size cap, so it cannot be checked for labels", ref.Path)
		return
	}
	if b.labels == nil {
		b.labels = newLabelMatcher(benchLabels(b.b.Cases))
	}
	b.norm = normalized(b.norm[:0], data)
	b.inputOK = true
	b.scanDecisions(b.norm, r, line)
	for _, l := range groupLeaks(b.labels.found(b.norm)) {
		also := ""
		if l.others > 0 {
			also = fmt.Sprintf(" (and the same text of %d other case(s))", l.others)
		}
		reject(rules.CodeRbenchLabelInInput, "/recorded_input", "the reviewer's input %s contains the %s of case %s%s, compared ignoring case, whitespace and punctuation: %q",
			ref.Path, l.what, l.caseID, also, clipLabel(strings.TrimSpace(l.text)))
	}
}

// caseRows lists every case with its label and task checksum.
func (b *bench) caseRows() {
	retired := b.c.Manifest.Benchmark != nil && b.c.Manifest.Benchmark.FinalRetired
	for _, cs := range b.b.Cases {
		row := tables.CaseRow{CaseID: cs.ID, Family: cs.Family, LineageGroup: cs.LineageGroup, Split: cs.Split,
			Kind: cs.Kind, Label: cs.Label, Regression: cs.Regression, Retired: retired && cs.Split == tables.SplitFinal,
			Variant: cs.Variant, Files: int64(len(b.b.Files[cs.ID])), TaskChecksum: b.b.Checksums[cs.ID]}
		if d := cs.Defect; d != nil {
			l := d.Location
			row.DefectCriterion, row.DefectCategory, row.DefectPath = &d.Criterion, &d.Category, &l.Path
			row.DefectStartLine, row.DefectEndLine = &l.StartLine, &l.EndLine
		}
		b.out.Cases = append(b.out.Cases, row)
	}
}
