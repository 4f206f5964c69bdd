package validate

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// FuzzCitationRange checks a citation against one packet item cut from a
// fuzzed source, through the stage's own checkCitation, and compares the
// verdict with a naive oracle written from the rule: a range past the
// file's physical lines (a final newline adds no line) is
// citation_beyond_source; a range outside the item's lines is
// citation_outside_item; anything else is a valid citation, because the
// item's text is the exact source bytes.
func FuzzCitationRange(f *testing.F) {
	f.Add("a\nb\nc\n", int64(1), int64(3), int64(2), int64(3))
	f.Add("a\nb\nc\n", int64(1), int64(3), int64(3), int64(4)) // C09: line 4 does not exist
	f.Add("a\nb", int64(2), int64(2), int64(1), int64(2))
	f.Add("x\n\n\ny", int64(2), int64(4), int64(2), int64(2))
	f.Fuzz(func(t *testing.T, src string, itemStart, itemEnd, start, end int64) {
		lines := strings.SplitAfter(src, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		n := int64(len(lines))
		if itemStart < 1 || itemEnd < itemStart || itemEnd > n || start > end {
			t.Skip() // the loader refuses such items; the answer rules refuse inverted citations
		}
		sha := strings.Repeat("a", 64)
		it := &tables.PacketItem{ID: "E1", Path: "src/f.ts", StartLine: itemStart, EndLine: itemEnd, FileSHA256: sha,
			Text: strings.Join(lines[itemStart-1:itemEnd], "")}
		v := newRunner(&tables.Campaign{Sources: map[string][]byte{sha: []byte(src)}}, nil)
		cit := tables.Citation{EvidenceID: "E1", Path: "src/f.ts", StartLine: start, EndLine: end, Supports: []string{"C1"}}
		got, _ := v.checkCitation(&cit, it, map[*tables.PacketItem]*itemSource{})
		var want rules.Code
		switch {
		case start < 1 || end > n:
			want = rules.CodeCitationBeyondSource
		case start < itemStart || end > itemEnd:
			want = rules.CodeCitationOutsideItem
		}
		if got != want {
			t.Fatalf("citation %d-%d of item %d-%d in a %d-line file: %q, want %q", start, end, itemStart, itemEnd, n, got, want)
		}
	})
}
