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
