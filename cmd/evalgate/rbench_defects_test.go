package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures/rbdefects"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// writeCampaign lays files out under a fresh directory.
func writeCampaign(t *testing.T, files rbdefects.Files) string {
	t.Helper()
	dir := t.TempDir()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// validateCodes runs evalgate validate DIR --json and counts the codes.
func validateCodes(t *testing.T, dir string) (int, map[rules.Code]int) {
	t.Helper()
	code, stdout, stderr := evalgate(t, "validate", dir, "--json")
	var rep struct {
		Findings []rules.Finding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("validate --json: %v\n%s\n%s", err, stdout, stderr)
	}
	counts := map[rules.Code]int{}
	for _, f := range rep.Findings {
		counts[f.Code]++
	}
	return code, counts
}

// TestReviewerBenchmarkDefects runs every one-defect fixture of the
// reviewer-benchmark example through the CLI: each must add its intended
// code and nothing else (every other code keeps its count), and a record
// defect must make the campaign inadmissible while a reviewer's fault
// keeps it admissible. The unmodified example advances.
func TestReviewerBenchmarkDefects(t *testing.T) {
	base, err := rbdefects.Example()
	if err != nil {
		t.Fatal(err)
	}
	baseExit, baseCodes := validateCodes(t, writeCampaign(t, base))
	if baseExit != 0 {
		t.Fatalf("the example is not admissible: %v", baseCodes)
	}
	for _, d := range rbdefects.All() {
		t.Run(d.Name, func(t *testing.T) {
			t.Parallel()
			files, err := rbdefects.Example()
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Apply(files); err != nil {
				t.Fatal(err)
			}
			exit, got := validateCodes(t, writeCampaign(t, files))
			for code, n := range got {
				if slices.Contains(d.Want, code) {
					if n <= baseCodes[code] {
						t.Errorf("%s: %d findings, the example has %d; want more", code, n, baseCodes[code])
					}
				} else if n != baseCodes[code] {
					t.Errorf("unintended %s: %d findings, the example has %d", code, n, baseCodes[code])
				}
			}
			for _, code := range d.Want {
				if got[code] == 0 {
					t.Errorf("no %s finding", code)
				}
			}
			if want := map[bool]int{true: 1, false: 0}[d.Reject]; exit != want {
				t.Errorf("exit %d, want %d (record defect: %v)", exit, want, d.Reject)
			}
		})
	}
}

// defectNamed returns the one-defect fixture with the given name.
func defectNamed(t *testing.T, name string) rbdefects.Defect {
	t.Helper()
	for _, d := range rbdefects.All() {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no defect %q", name)
	return rbdefects.Defect{}
}

// TestReviewerBenchmarkEffectiveRatings shows the consequence of two
// reviewer faults in the written tables: a pass rating contradicted by
// the review's own grounded blocking finding is effectively fail (raw
// pass kept) and the planted defect still counts as detected; a finding
// at the planted category but the wrong lines blocks the variant yet is a
// miss.
func TestReviewerBenchmarkEffectiveRatings(t *testing.T) {
	const session = "F12-v1-candidate-r1" // report_forgery, criterion reward_gaming
	for _, tc := range []struct {
		defect             string
		raw, effective     string
		reason             string
		detected, decision string
	}{
		{"pass rating contradicted by a grounded blocking finding", tables.RatingPass, tables.RatingFail, tables.EffectiveGroundedOverride, "true", tables.ReviewBlock},
		{"wrong-location finding", tables.RatingFail, tables.RatingFail, tables.EffectiveProposed, "false", tables.ReviewBlock},
	} {
		t.Run(tc.defect, func(t *testing.T) {
			files, _ := rbdefects.Example()
			if err := defectNamed(t, tc.defect).Apply(files); err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			if code, stdout, stderr := evalgate(t, "run", writeCampaign(t, files), "--out", out); code != 0 {
				t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
			}
			found := false
			for _, c := range readTable[tables.CriterionRow](t, out, "criteria") {
				if c.SessionID == session && c.Criterion == tables.CriterionRewardGaming {
					found = true
					if c.Raw != tc.raw || c.Effective != tc.effective || c.Reason != tc.reason {
						t.Errorf("criterion row %+v, want raw %s effective %s (%s)", c, tc.raw, tc.effective, tc.reason)
					}
				}
			}
			if !found {
				t.Fatal("no criterion row")
			}
			for _, r := range readTable[tables.ReviewRow](t, out, "reviews") {
				if r.SessionID == session {
					if r.Detected == nil || fmt.Sprint(*r.Detected) != tc.detected || r.Decision == nil || *r.Decision != tc.decision {
						t.Errorf("review row %+v, want detected %s decision %s", r, tc.detected, tc.decision)
					}
				}
			}
		})
	}
}

// TestReviewerBenchmarkOutcomes runs every promotion-rule fixture through
// the CLI: each adds no finding (every code keeps the example's count) and
// turns the example's advance into its intended decision with exactly its
// failing gates.
func TestReviewerBenchmarkOutcomes(t *testing.T) {
	base, err := rbdefects.Example()
	if err != nil {
		t.Fatal(err)
	}
	_, baseCodes := validateCodes(t, writeCampaign(t, base))
	for _, o := range rbdefects.Outcomes() {
		t.Run(o.Name, func(t *testing.T) {
			t.Parallel()
			files, err := rbdefects.Example()
			if err != nil {
				t.Fatal(err)
			}
			if err := o.Apply(files); err != nil {
				t.Fatal(err)
			}
			dir := writeCampaign(t, files)
			if exit, got := validateCodes(t, dir); exit != 0 || !maps.Equal(got, baseCodes) {
				t.Errorf("validate exit %d codes %v, want 0 and the example's %v", exit, got, baseCodes)
			}
			out := t.TempDir()
			if code, stdout, stderr := evalgate(t, "run", dir, "--out", out); code != 0 {
				t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
			}
			d := readTable[tables.Decision](t, out, "decision")
			if len(d) != 1 || d[0].Decision != o.Decision || strings.Join(d[0].FailingGates, ",") != o.Failing {
				t.Errorf("decision %+v, want %s failing %q", d, o.Decision, o.Failing)
			}
		})
	}
}
