package rules

import (
	"fmt"
	"strings"
	"testing"
)

func TestCapFindings(t *testing.T) {
	var all Findings
	// 250 warnings of one code in one file, then 3 rejections of another.
	for i := range 250 {
		all = append(all, Finding{Code: "a_code", Severity: Warn, File: "f", Line: int64(i + 1), Message: "m"})
	}
	all = append(all, Finding{Code: "b_code", Severity: Reject, File: "g", Message: "m"})
	all = append(all, Finding{Code: "a_code", Severity: Reject, File: "f", Line: 999, Message: "m"})
	got := CapFindings(all)
	// Independent count: 100 kept of a_code, 1 of b_code, one summary
	// counting 250+1-100 = 151 more a_code findings, rejecting because one
	// of them rejects.
	if len(got) != 102 {
		t.Fatalf("got %d findings, want 102", len(got))
	}
	var summary *Finding
	for i := range got {
		if got[i].Code == CodeFindingsCapped {
			summary = &got[i]
		}
	}
	if summary == nil {
		t.Fatal("no findings_capped summary")
	}
	if want := "151 more a_code findings"; summary.Severity != Reject || summary.File != "f" || !strings.Contains(summary.Message, want) {
		t.Errorf("summary = %+v; want a rejecting finding in f saying %q", *summary, want)
	}
	if !got.Rejected() {
		t.Error("capped list no longer rejects")
	}
	onlyWarn := CapFindings(all[:250])
	if onlyWarn.Rejected() {
		t.Error("capping warnings produced a rejection")
	}
}

func TestCapFindingsTotal(t *testing.T) {
	var all Findings
	for i := range MaxFindings + 50 {
		all = append(all, Finding{Code: Code(fmt.Sprintf("c%05d", i)), Severity: Warn, Message: "m"})
	}
	got := CapFindings(all)
	// MaxFindings kept, then one summary per code past the total: 50.
	if len(got) != MaxFindings+50 {
		t.Errorf("got %d findings, want %d", len(got), MaxFindings+50)
	}
	if len(CapFindings(all[:10])) != 10 {
		t.Error("a short list was changed")
	}
}

// TestCapIsIdempotent: capping a capped list again (every printer caps
// what it prints) returns it unchanged, however many codes overflowed.
func TestCapIsIdempotent(t *testing.T) {
	var all Findings
	// 30 codes of 150 findings each: 4,500 findings, 100 kept of each of
	// the first 20 codes (2,000 in all), none of the last 10.
	for c := range 30 {
		for i := range 150 {
			all = append(all, Finding{Code: Code(fmt.Sprintf("c%02d", c)), Severity: Warn, File: "f", Line: int64(i + 1), Message: "m"})
		}
	}
	once := CapFindings(all)
	// 2,000 kept, and one count per code: 20 codes with 50 more, 10 with 150.
	if len(once) != MaxFindings+30 {
		t.Fatalf("capped once: %d findings, want %d", len(once), MaxFindings+30)
	}
	twice := CapFindings(once)
	if len(twice) != len(once) {
		t.Fatalf("capped twice: %d findings, want %d", len(twice), len(once))
	}
	for i := range once {
		if once[i] != twice[i] {
			t.Fatalf("finding %d changed: %+v -> %+v", i, once[i], twice[i])
		}
	}
	if inOrder := CapInOrder(once); len(inOrder) != len(once) {
		t.Fatalf("CapInOrder of a capped list: %d findings, want %d", len(inOrder), len(once))
	}
}
