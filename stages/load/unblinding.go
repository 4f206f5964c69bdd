package load

import (
	"bufio"
	"errors"
	"io"
	"io/fs"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Documents of the blinded adjudication protocol (rule Q1).
const (
	unblindingFile = "unblinding.json"
	maxUnblinding  = 64 << 10
)

// loadUnblinding reads the optional unblinding.json. A campaign without one
// has a nil Campaign.Unblinding; a present file must decode strictly.
func (l *loader) loadUnblinding() {
	if _, err := fs.Stat(l.fsys, unblindingFile); errors.Is(err, fs.ErrNotExist) {
		return
	}
	data := l.readCapped(unblindingFile, maxUnblinding)
	if data == nil {
		return
	}
	var u tables.Unblinding
	ok, findings := decodeDoc(data, "unblinding", position{file: unblindingFile}, &u)
	l.add(findings...)
	if ok && !findings.Rejected() {
		l.c.Unblinding = &u
	}
}

// BlindRatings strictly decodes a grader's ratings file for `evalgate
// blind import`: JSONL, one [tables.BlindRating] per line, under the same
// caps and rules as adjudications.jsonl. name is used in findings. It never
// panics; records that fail to decode are left out and every problem is a
// sorted finding.
func BlindRatings(name string, r io.Reader) ([]tables.Line[tables.BlindRating], rules.Findings) {
	l := &loader{}
	records, _ := decodeLines(l, bufio.NewReader(io.LimitReader(r, maxJSONLFile+1)), name, "blind-rating",
		func(*tables.BlindRating) string { return "" })
	return records, l.findings()
}
