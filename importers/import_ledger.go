package importers

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// Campaign files an import writes.
const (
	ReceiptsFile = "receipts.jsonl"
	ImportsFile  = "imports.jsonl" // the import ledger (tables.ImportRecord lines)
)

// ImportPlan is what one import makes of a campaign: the whole new
// receipts.jsonl and imports.jsonl (every line the campaign held, byte for
// byte, except the lines of filled sessions, then the added ones) and the
// answer files to write. Added, Filled and Skipped count the records
// appended, completed and already imported identically; Changed is false
// when the import writes nothing.
type ImportPlan struct {
	Receipts []byte
	Ledger   []byte
	Answers  []ImportAnswer
	Sessions []string // the sessions added or filled, in record order
	Added    int
	Filled   int
	Skipped  int
}

// Changed reports whether the plan writes anything.
func (p ImportPlan) Changed() bool { return p.Added+p.Filled > 0 }

// ImportAnswer is one answer file an import writes.
type ImportAnswer struct {
	Path string
	Data []byte
}

// PlanImport decides what importing sessions makes of a campaign whose
// receipts.jsonl and imports.jsonl hold receipts and ledger (either may
// be empty). A record is keyed by its source and the source's own IDs
// (the mapping's match); the sha256 of its receipt line and of its answer
// are its content hash.
//
//   - A record not yet imported is appended, unless receipts.jsonl already
//     holds its session ID (import_conflict).
//   - A record imported with the same content adds nothing.
//   - A record imported before whose receipt now differs only where the
//     earlier receipt was absent — a null reservation, no prompt IDs, an
//     empty cli_sha256 or permission_policy, the members no source records
//     and the mapping supplies, and a returned model the record did not
//     name — is filled: its line is replaced in place.
//   - Any other difference is a conflict (import_conflict).
//
// Nothing is written unless every record is clean.
func PlanImport(receipts, ledger []byte, sessions []ImportedSession) (ImportPlan, rules.Findings) {
	p := planner{receiptLines: splitLines(receipts), ledgerLines: splitLines(ledger),
		done: map[importKey]int{}, bySession: map[string]int{}}
	for i, line := range p.ledgerLines {
		var r tables.ImportRecord
		if json.Unmarshal(line, &r) == nil {
			p.done[importKey{r.Source, r.Match}] = i
		}
	}
	for i, line := range p.receiptLines {
		var r struct {
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal(line, &r) == nil {
			p.bySession[r.SessionID] = i
		}
	}
	for i := range sessions {
		p.session(&sessions[i])
	}
	p.out.Sort()
	if p.out.Rejected() {
		return ImportPlan{}, p.out
	}
	p.plan.Receipts = joinLines(p.receiptLines)
	p.plan.Ledger = joinLines(p.ledgerLines)
	return p.plan, p.out
}

type importKey struct {
	source string
	match  tables.ImportMatch
}

type planner struct {
	receiptLines, ledgerLines [][]byte
	done                      map[importKey]int // ledger line of each imported record
	bySession                 map[string]int    // receipts.jsonl line of each session ID
	plan                      ImportPlan
	out                       rules.Findings
}

func (p *planner) conflict(s *ImportedSession, msg string) {
	p.out = append(p.out, rules.Finding{Code: rules.CodeImportConflict, Severity: rules.Reject,
		File: s.Record.File, Session: s.Receipt.SessionID, Message: msg})
}

func (p *planner) session(s *ImportedSession) {
	line, err := json.Marshal(s.Receipt, json.Deterministic(true))
	if err != nil {
		p.conflict(s, "the receipt cannot be written: "+err.Error())
		return
	}
	s.Record.ReceiptSHA256 = sha256Hex(line)
	rec, err := json.Marshal(s.Record, json.Deterministic(true))
	if err != nil {
		p.conflict(s, "the ledger record cannot be written: "+err.Error())
		return
	}
	k := importKey{s.Record.Source, s.Record.Match}
	at, imported := p.done[k]
	if !imported {
		if _, taken := p.bySession[s.Receipt.SessionID]; taken {
			p.conflict(s, fmt.Sprintf("receipts.jsonl already holds session %q, which no import of this record wrote", s.Receipt.SessionID))
			return
		}
		p.bySession[s.Receipt.SessionID] = len(p.receiptLines)
		p.done[k] = len(p.ledgerLines)
		p.receiptLines = append(p.receiptLines, line)
		p.ledgerLines = append(p.ledgerLines, rec)
		p.answer(s)
		p.plan.Added++
		return
	}
	var prev tables.ImportRecord
	_ = json.Unmarshal(p.ledgerLines[at], &prev)
	if prev.ReceiptSHA256 == s.Record.ReceiptSHA256 && prev.AnswerSHA256 == s.Record.AnswerSHA256 && prev.SessionID == s.Record.SessionID {
		p.plan.Skipped++
		return
	}
	ri, ok := p.bySession[prev.SessionID]
	if !ok || prev.SessionID != s.Record.SessionID || prev.AnswerSHA256 != s.Record.AnswerSHA256 || !fills(p.receiptLines[ri], s.Receipt) {
		p.conflict(s, fmt.Sprintf("%s was already imported as session %q from %s with other content; a conflicting import is refused",
			describeMatch(k.source, k.match), prev.SessionID, load.Clip(prev.File)))
		return
	}
	p.receiptLines[ri] = line
	p.ledgerLines[at] = rec
	p.plan.Sessions = append(p.plan.Sessions, s.Receipt.SessionID)
	p.plan.Filled++
}

func (p *planner) answer(s *ImportedSession) {
	p.plan.Sessions = append(p.plan.Sessions, s.Receipt.SessionID)
	if s.Answer != nil {
		p.plan.Answers = append(p.plan.Answers, ImportAnswer{Path: s.Receipt.Output.Path, Data: s.Answer})
	}
	if s.Input != nil {
		p.plan.Answers = append(p.plan.Answers, ImportAnswer{Path: s.Receipt.RecordedInput.Path, Data: s.Input})
	}
	if s.Trial != nil {
		p.plan.Answers = append(p.plan.Answers, ImportAnswer{Path: s.TrialPath, Data: s.Trial})
	}
}

// fills reports whether receipt now differs from the earlier receipt line
// only in members the earlier one left absent.
func fills(earlier []byte, now tables.Receipt) bool {
	var old tables.Receipt
	if json.Unmarshal(earlier, &old) != nil {
		return false
	}
	if old.Reservation == nil {
		now.Reservation = nil
	}
	if len(old.Inputs.PromptIDs) == 0 && len(old.Inputs.PromptSHA256s) == 0 {
		now.Inputs.PromptIDs, now.Inputs.PromptSHA256s = old.Inputs.PromptIDs, old.Inputs.PromptSHA256s
	}
	if old.Inputs.RenderedSHA256 == "" && old.Inputs.RenderedBytes == 0 {
		now.Inputs.RenderedSHA256, now.Inputs.RenderedBytes = "", 0
	}
	if old.Identity.CLISHA256 == "" {
		now.Identity.CLISHA256 = ""
	}
	if old.Identity.PermissionPolicy == "" {
		now.Identity.PermissionPolicy = ""
	}
	if old.Identity.Host == "" {
		now.Identity.Host = ""
	}
	if old.Identity.ReturnedModel == "" {
		now.Identity.ReturnedModel = "" // a record naming none, given by the mapping later
	}
	a, errA := json.Marshal(old, json.Deterministic(true))
	b, errB := json.Marshal(now, json.Deterministic(true))
	return errA == nil && errB == nil && slices.Equal(a, b)
}

// splitLines splits JSONL data into its lines without their newlines,
// keeping every line's bytes (blank lines included, so the file is
// rewritten as it was).
func splitLines(data []byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	return bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
}

func joinLines(lines [][]byte) []byte {
	var out []byte
	for _, l := range lines {
		out = append(append(out, l...), '\n')
	}
	return out
}
