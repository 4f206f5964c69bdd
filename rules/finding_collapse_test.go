package rules

import (
	"fmt"
	"testing"
)

// TestCollapse: 70 findings alike but for their line are one line naming
// the first three lines, "and 67 more" and the count; a finding with
// another message stays its own line, in the place of its first member.
func TestCollapse(t *testing.T) {
	var fs Findings
	for i := range 70 {
		fs = append(fs, Finding{Code: "reservation_missing", Severity: Reject, File: "receipts.jsonl", Line: int64(i + 1), Message: "No reservation."})
		if i == 1 {
			fs = append(fs, Finding{Code: "reservation_missing", Severity: Warn, File: "receipts.jsonl", Line: 2, Message: "No reservation."})
		}
	}
	gs := Collapse(fs)
	var got []string
	total := 0
	for _, g := range gs {
		got = append(got, g.Error())
		total += g.Count()
	}
	want := []string{
		"receipts.jsonl:1, receipts.jsonl:2, receipts.jsonl:3 and 67 more: reservation_missing: No reservation. (70 findings)",
		"receipts.jsonl:2: reservation_missing: No reservation.",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if total != len(fs) {
		t.Errorf("groups hold %d findings, want %d", total, len(fs))
	}
}
