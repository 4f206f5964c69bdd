// Package load is the first stage: it decodes every input file of a
// campaign strictly (SPEC L1–L3) into a [tables.Campaign], reporting every
// problem as a positioned [tables.Finding].
package load

import (
	"io/fs"

	"github.com/evalgate/evalgate/tables"
)

// Campaign reads and strictly decodes the campaign rooted at fsys. It never
// panics and never reads more than the documented size caps. Findings with
// severity Reject make the campaign inadmissible; the returned campaign holds
// whatever could be decoded. Answers are not read here (see Answer).
func Campaign(fsys fs.FS, name string) (*tables.Campaign, tables.Findings) {
	panic("stages/load: Campaign: being written")
}

// Answer strictly decodes one answer (the response contract of seed 000).
// file is used in findings. It returns nil when the answer cannot be decoded
// into the contract's shape; findings then say every reason.
func Answer(file string, data []byte) (*tables.Answer, tables.Findings) {
	panic("stages/load: Answer: being written")
}
