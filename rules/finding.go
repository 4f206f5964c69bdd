package rules

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity of a finding.
type Severity string

const (
	// Reject makes the input inadmissible: the campaign is refused, or the
	// answer is structurally invalid.
	Reject Severity = "reject"
	// Warn is recorded in the rejections table but admits the input.
	Warn Severity = "warn"
)

// Code is a stable rejection code. Codes are part of the public interface:
// they are listed in docs/errors.md, pinned by a test, and must never change
// meaning. A retired code is never reused.
type Code string

// Finding is one typed, positioned problem: the row type of the
// `campaign_findings` table and the error value every stage reports. A stage
// collects every finding it can rather than stopping at the first.
type Finding struct {
	Code     Code     `json:"code" parquet:"code,dict"`         // the finding code (docs/errors.md)
	Severity Severity `json:"severity" parquet:"severity,dict"` // reject (a defect of the record: no verdict) or warn
	File     string   `json:"file" parquet:"file,dict"`         // campaign-relative path, "" for the campaign as a whole
	Pointer  string   `json:"pointer" parquet:"pointer"`        // RFC 6901 JSON pointer within File, "" for the whole file
	Line     int64    `json:"line,omitzero" parquet:"line"`     // 1-based line for JSONL and text files; 0 when not applicable (omitted from JSON)
	Session  string   `json:"session" parquet:"session,dict"`   // session the finding concerns, "" when none
	Message  string   `json:"message" parquet:"message"`        // one sentence
}

// Error formats f as file:line#pointer: code: message.
func (f Finding) Error() string {
	return fmt.Sprintf("%s: %s: %s", f.Position(), f.Code, f.Message)
}

// Findings is an ordered list of findings.
type Findings []Finding

// Rejected reports whether any finding has severity Reject.
func (fs Findings) Rejected() bool {
	return slices.ContainsFunc(fs, func(f Finding) bool { return f.Severity == Reject })
}

// Sort orders findings by file, line, pointer, code, session and message,
// the order in which they are printed and written.
func (fs Findings) Sort() {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Pointer, b.Pointer),
			cmp.Compare(a.Code, b.Code),
			cmp.Compare(a.Session, b.Session),
			cmp.Compare(a.Message, b.Message),
		)
	})
}

// pointerEscaper is built once: building a strings.Replacer costs far more
// than using it, and the loader builds a pointer for every walked value.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// PointerToken escapes one reference token of a JSON pointer (RFC 6901):
// "~" becomes "~0" and "/" becomes "~1", so a member name such as
// "openai/gpt-4o" stays one token of a Finding's Pointer.
func PointerToken(token string) string {
	return pointerEscaper.Replace(token)
}
