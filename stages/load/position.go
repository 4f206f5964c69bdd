package load

import (
	"github.com/evalgate/evalgate/rules"
)

// position is where a document lives: a campaign-relative file and, for a
// JSONL record, its 1-based line.
type position struct {
	file string
	line int64
}

// finding returns a rejecting finding at pointer ptr of the document.
func (p position) finding(code rules.Code, ptr, msg string) rules.Finding {
	return rules.Finding{Code: code, Severity: rules.Reject, File: p.file, Line: p.line, Pointer: ptr, Message: msg}
}
