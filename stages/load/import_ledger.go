package load

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/tables"
)

// Campaign files an import appends to.
const (
	ReceiptsFile = "receipts.jsonl"
	ImportsFile  = "imports.jsonl" // the import ledger (tables.ImportRecord lines)
)

// ImportPlan is what one import adds to a campaign: receipts.jsonl and
// imports.jsonl lines (each with its newline) and answer files by
// campaign-relative path. Skipped counts records already imported
// identically.
type ImportPlan struct {
	Receipts []byte
	Ledger   []byte
	Answers  []ImportAnswer
	Sessions []string // the sessions added, in order
	Added    int
	Skipped  int
}

// ImportAnswer is one answer file an import writes.
type ImportAnswer struct {
	Path string
	Data []byte
}

// PlanImport decides what importing sessions adds to a campaign whose
// receipts.jsonl and imports.jsonl hold receipts and ledger (either may
// be empty). A record is keyed by its source and the source's own IDs
// (the mapping's match); the sha256 of the receipt line and of the answer
// are its content hash. A record already in the ledger with the same
// content adds nothing; with other content, or a new record whose session
// ID receipts.jsonl already holds, the whole import is refused
// (import_conflict). Nothing is appended unless every record is clean.
func PlanImport(receipts, ledger []byte, sessions []ImportedSession) (ImportPlan, tables.Findings) {
	var plan ImportPlan
	var out tables.Findings
	conflict := func(s *ImportedSession, msg string) {
		out = append(out, tables.Finding{Code: tables.CodeImportConflict, Severity: tables.Reject,
			File: s.Record.File, Session: s.Receipt.SessionID, Message: msg})
	}
	type key struct {
		source string
		match  tables.ImportMatch
	}
	done := map[key]tables.ImportRecord{}
	for _, line := range jsonLines(ledger) {
		var r tables.ImportRecord
		if json.Unmarshal(line, &r) == nil {
			done[key{r.Source, r.Match}] = r
		}
	}
	taken := map[string]bool{}
	for _, line := range jsonLines(receipts) {
		var r struct {
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal(line, &r) == nil {
			taken[r.SessionID] = true
		}
	}
	for i := range sessions {
		s := &sessions[i]
		line, err := json.Marshal(s.Receipt, json.Deterministic(true))
		if err != nil {
			conflict(s, "the receipt cannot be written: "+err.Error())
			continue
		}
		s.Record.ReceiptSHA256 = sha256Hex(line)
		k := key{s.Record.Source, s.Record.Match}
		if prev, ok := done[k]; ok {
			switch {
			case prev.ReceiptSHA256 == s.Record.ReceiptSHA256 && prev.AnswerSHA256 == s.Record.AnswerSHA256 && prev.SessionID == s.Record.SessionID:
				plan.Skipped++
			default:
				conflict(s, fmt.Sprintf("%s was already imported as session %q from %s with other content; a conflicting import is refused",
					describeMatch(k.source, k.match), prev.SessionID, clip(prev.File)))
			}
			continue
		}
		if taken[s.Receipt.SessionID] {
			conflict(s, fmt.Sprintf("receipts.jsonl already holds session %q, which this import did not write", s.Receipt.SessionID))
			continue
		}
		taken[s.Receipt.SessionID] = true
		done[k] = s.Record
		rec, err := json.Marshal(s.Record, json.Deterministic(true))
		if err != nil {
			conflict(s, "the ledger record cannot be written: "+err.Error())
			continue
		}
		plan.Receipts = append(append(plan.Receipts, line...), '\n')
		plan.Ledger = append(append(plan.Ledger, rec...), '\n')
		if s.Answer != nil {
			plan.Answers = append(plan.Answers, ImportAnswer{Path: AnswerPath(s.Receipt.SessionID), Data: s.Answer})
		}
		plan.Sessions = append(plan.Sessions, s.Receipt.SessionID)
		plan.Added++
	}
	out.Sort()
	if out.Rejected() {
		return ImportPlan{}, out
	}
	return plan, out
}

// jsonLines splits JSONL data into its non-blank lines.
func jsonLines(data []byte) [][]byte {
	var out [][]byte
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			out = append(out, line)
		}
	}
	return out
}
