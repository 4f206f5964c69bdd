package validate

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// response reads, decodes and checks the answer of a response receipt and
// returns the session's classification.
func (v *runner) response(sr *sessionResult, r *tables.Receipt, task *tables.LoadedTask, role string) tables.Classification {
	if r.Output == nil {
		v.addReceipt(sr, rules.CodeOutputMissing, "A response receipt has no output.")
		return tables.ClassInvalid
	}
	data, ok := v.readOutput(sr, r.Output)
	if !ok {
		return tables.ClassInvalid
	}
	if role == RoleDraft {
		v.digests.keep(r.Output, data) // its reviews' renderings frame it
	}
	ans := v.checkAnswer(sr.id, r.Output.Path, data, role, task)
	// The row points at shared values: a pointer into ans would keep the
	// whole decoded answer alive as long as the row.
	row := v.open
	row.FinalValid = boolPtr(ans.finalValid)
	if role == RoleReconciliation {
		row.ReconciliationValid = boolPtr(ans.recValid)
	}
	if ans.answer != nil {
		row.CitationFailures = v.citationRows(sr, r.Output.Path, ans.answer, task, ans.findings)
		if role == RoleReconciliation {
			v.dispositionRows(sr.id, task, ans.answer, ans.findings)
		}
	}
	valid := ans.answer != nil && len(ans.findings) == 0 && row.CitationFailures == 0
	row.AnswerValid = boolPtr(valid)
	if valid {
		return tables.ClassValid
	}
	return tables.ClassScoredFailure
}

// boolValues are what every row's nullable booleans point at: rows are
// never modified through them.
var boolValues = [2]bool{false, true}

// boolPtr returns a pointer to a shared b, so that a session row's
// nullable booleans cost no allocation.
func boolPtr(b bool) *bool {
	if b {
		return &boolValues[1]
	}
	return &boolValues[0]
}

// readOutput reads the output a receipt names through the answer reader,
// recording why it cannot be used when it cannot.
func (v *runner) readOutput(sr *sessionResult, out *tables.OutputRef) ([]byte, bool) {
	data, matches, err := v.answers.Read(out)
	switch {
	case err != nil:
		v.addReceipt(sr, outputUnreadable(err), fmt.Sprintf("The output %q cannot be read: %v.", out.Path, err))
		return nil, false
	case !matches:
		v.addReceipt(sr, rules.CodeOutputMismatch, fmt.Sprintf("The output %q does not have the receipt's sha256 %s and %d bytes.", out.Path, out.SHA256, out.Bytes))
		return nil, false
	}
	return data, true
}

// outputUnreadable is the code of an output that cannot be read: the
// confinement's own code for a FIFO, device or escaping symlink (see
// confined.CampaignDir), else output_missing.
func outputUnreadable(err error) rules.Code {
	return confined.FileErrorCode(err, rules.CodeOutputMissing)
}

// answerCheck is the outcome of decoding and checking one answer.
type answerCheck struct {
	answer     *tables.Answer // nil when not even the final part decodes
	findings   rules.Findings
	finalValid bool
	recValid   bool
}

// checkAnswer decodes data and applies the answer rules with task's packet.
// When the answer fails to decode only because of its reconciliation, the
// final part is decoded on its own, so a valid final with a malformed
// reconciliation is still scored (V7).
func (v *runner) checkAnswer(session, file string, data []byte, role string, task *tables.LoadedTask) answerCheck {
	a, found := v.answers.Decode(file, data)
	recOnly := a == nil && len(found) > 0 && allUnder(found, "/reconciliation")
	if recOnly {
		if doc := finalOnly(data); doc != nil {
			var more rules.Findings
			a, more = v.answers.Decode(file, doc)
			if a != nil {
				found = append(found, more...)
			}
		}
	}
	if a != nil {
		ruleRole := role
		if recOnly {
			ruleRole = RoleReview // the reconciliation was already found malformed
		}
		found = append(found, AnswerRules(a, AnswerOptions{File: file, Role: ruleRole, Packet: &task.Packet, items: v.packetOf(task).items, scratch: &v.scratch})...)
	}
	if a == nil && len(found) == 0 {
		found = append(found, rules.Finding{Code: rules.CodeJSONSyntax, File: file, Message: "The answer could not be decoded."})
	}
	for i := range found {
		found[i].Severity, found[i].Session = rules.Warn, session
	}
	found.Sort()
	v.findings = append(v.findings, found...)
	ac := answerCheck{answer: a, findings: found}
	ac.finalValid = a != nil && !anyOutside(found, "/reconciliation")
	ac.recValid = a != nil && !recOnly && !anyUnder(found, "/reconciliation")
	return ac
}

// finalOnly returns {"final":<final>,"reconciliation":null} built from the
// top-level final member of data, or nil.
func finalOnly(data []byte) []byte {
	var top map[string]jsontext.Value
	if err := json.Unmarshal(data, &top); err != nil {
		return nil
	}
	f, ok := top["final"]
	if !ok {
		return nil
	}
	return []byte(`{"final":` + string(f) + `,"reconciliation":null}`)
}

func under(p, prefix string) bool {
	return p == prefix || strings.HasPrefix(p, prefix+"/")
}

func allUnder(fs rules.Findings, prefix string) bool {
	for _, f := range fs {
		if !under(f.Pointer, prefix) {
			return false
		}
	}
	return true
}

func anyUnder(fs rules.Findings, prefix string) bool {
	for _, f := range fs {
		if under(f.Pointer, prefix) {
			return true
		}
	}
	return false
}

func anyOutside(fs rules.Findings, prefix string) bool {
	for _, f := range fs {
		if !under(f.Pointer, prefix) {
			return true
		}
	}
	return false
}

// firstCode returns the code of the first finding at or under p, or "";
// p is joined only when there are findings.
func firstCode(fs rules.Findings, p pointer) rules.Code {
	if len(fs) == 0 {
		return ""
	}
	s := p.String()
	for _, f := range fs {
		if under(f.Pointer, s) {
			return f.Code
		}
	}
	return ""
}
