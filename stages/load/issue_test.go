package load

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// TestIssuePacketItemsSplitSourceOnce: every packet item split its whole
// source file into lines again, so a packet of many items over a large
// source cost items × source size (2,000 items over a 10^6-line source
// allocated about 45 GiB). The source must be split once per packet.
func TestIssuePacketItemsSplitSourceOnce(t *testing.T) {
	const lines, items = 200_000, 200
	src := bytes.Repeat([]byte("x\n"), lines)
	sum := sha256Hex(src)
	f := newFixture()
	f.packet.Items = nil
	for i := range items {
		f.packet.Items = append(f.packet.Items, tables.PacketItem{ID: fmt.Sprintf("E%d", i+1), Path: "src/x.ts",
			StartLine: int64(lines - i), EndLine: int64(lines - i), FileSHA256: sum, Text: "x\n"})
	}
	f.packet.Items[0].Text = "y\n" // one mismatch, so the text is still compared
	f.manifest.Design.PacketItemMax = items
	f.files["sources/"+sum] = string(src)
	fsys := f.build(t)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, findings := Campaign(fsys, "issue")
	runtime.ReadMemStats(&after)

	// One split: 200,001 line starts × 8 bytes ≈ 1.6 MB, plus the 400 KB
	// source read and the small files. Splitting per item cost ≈ 1 GB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Errorf("Campaign allocated %d MiB; want under 32 MiB", alloc>>20)
	}
	var mismatches []string
	for _, f := range findings {
		if f.Code == rules.CodePacketTextMismatch {
			mismatches = append(mismatches, f.Pointer)
		}
	}
	if want := []string{"/items/0/text"}; !slices.Equal(mismatches, want) {
		t.Errorf("packet_text_mismatch at %v, want %v", mismatches, want)
	}
}

// TestLineStarts pins the physical-line rule (C09) of the offsets that
// replaced bytes.SplitAfter: a final newline adds no line, an empty file
// has none, and a last line without "\n" still counts.
func TestLineStarts(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []int
	}{
		{"empty", "", []int{0}},
		{"one_line_no_newline", "a", []int{0, 1}},
		{"one_line_newline", "a\n", []int{0, 2}},
		{"two_lines_last_unterminated", "a\nbc", []int{0, 2, 4}},
		{"blank_lines", "\n\n", []int{0, 1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tables.LineStarts([]byte(tc.src)); !slices.Equal(got, tc.want) {
				t.Errorf("tables.LineStarts(%q) = %v, want %v", tc.src, got, tc.want)
			}
		})
	}
}

// TestIssueOverlongArrayFindings: the elements of an array past its
// maxItems were still walked, so one answer of 10^6 wrong-typed claims
// (within the 4 MiB cap) gave 10^6 findings and gigabytes of allocation.
// An overlong array gives one too_many_items finding and findings for at
// most its first maxItems elements.
func TestIssueOverlongArrayFindings(t *testing.T) {
	const n = 100_000
	doc := `{"final":{"claims":[0` + strings.Repeat(",0", n-1) + `]},"reconciliation":null}`
	_, findings := Answer("a.json", []byte(doc))
	var tooMany, claimFindings int
	for _, f := range findings {
		switch {
		case f.Code == rules.CodeTooManyItems && f.Pointer == "/final/claims":
			tooMany++
		case strings.HasPrefix(f.Pointer, "/final/claims/"):
			claimFindings++
		}
	}
	if tooMany != 1 {
		t.Errorf("%d too_many_items findings at /final/claims, want 1", tooMany)
	}
	// The claims cap is 32 (rule L1).
	if claimFindings != 32 {
		t.Errorf("%d findings inside /final/claims, want one per element up to the cap of 32", claimFindings)
	}
}
