package validate

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/evalgate/evalgate/fixtures/rbdefects"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

func benchOn(t *testing.T, files rbdefects.Files) BenchmarkOut {
	t.Helper()
	f := fstest.MapFS{}
	for p, b := range files {
		f[p] = &fstest.MapFile{Data: b}
	}
	c, found := load.Campaign(f, "example")
	if found.Rejected() {
		t.Fatalf("load rejected: %v", found)
	}
	return Benchmark(c, load.ReviewFiles(c))
}

func codeCounts(fs rules.Findings) map[rules.Code]int {
	out := map[rules.Code]int{}
	for _, f := range fs {
		out[f.Code]++
	}
	return out
}

// TestBenchmarkValidate runs the validate-stage one-defect fixtures: each
// adds findings of its intended code only, with the severity its kind of
// fault has (a record defect rejects, a reviewer's fault warns).
func TestBenchmarkValidate(t *testing.T) {
	base, err := rbdefects.Example()
	if err != nil {
		t.Fatal(err)
	}
	b := benchOn(t, base)
	if n := len(b.Attempts); n != 240 {
		t.Fatalf("%d attempts, want 240", n)
	}
	if b.Problems.Rejected() {
		t.Fatalf("the example has rejecting findings: %v", b.Problems)
	}
	was := codeCounts(b.Problems)
	for _, d := range rbdefects.All() {
		if d.Stage != "validate" {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			files, _ := rbdefects.Example()
			if err := d.Apply(files); err != nil {
				t.Fatal(err)
			}
			out := benchOn(t, files)
			got := codeCounts(out.Problems)
			for _, code := range d.Want {
				if got[code] <= was[code] {
					t.Errorf("%s: no new finding", code)
				}
			}
			for code, n := range got {
				if slices.Contains(d.Want, code) != (n > was[code]) || !slices.Contains(d.Want, code) && n != was[code] {
					t.Errorf("%s: %d findings, the example has %d", code, n, was[code])
				}
			}
			for _, f := range out.Problems {
				if slices.Contains(d.Want, f.Code) && (f.Severity == rules.Reject) != d.Reject {
					t.Errorf("%s has severity %s; record defect %v", f.Code, f.Severity, d.Reject)
				}
			}
			if len(out.Attempts) < 240 {
				t.Errorf("%d attempts: a scheduled attempt left its denominator", len(out.Attempts))
			}
		})
	}
}

// TestBenchmarkGrounding checks the example's grounding facts against
// what its generator planted, by hand: the candidate's probe findings on
// unconditional-reward variants are bound, the malformed review is a
// schema violation, and the interrupted and timed-out sessions are
// execution errors.
func TestBenchmarkGrounding(t *testing.T) {
	files, _ := rbdefects.Example()
	b := benchOn(t, files)
	status := map[string]string{}
	for _, a := range b.Attempts {
		status[a.Row.SessionID] = a.Row.Status
	}
	for id, want := range map[string]string{
		"F06-v1-baseline-r1": tables.ReviewStatusSchemaViolation, "F03-v2-baseline-r2": tables.ReviewStatusExecutionError,
		"F08-clean-candidate-r1": tables.ReviewStatusExecutionError, "F05-clean-baseline-r2": tables.ReviewStatusAbstained,
		"F12-v1-candidate-r1": tables.ReviewStatusCompleted,
	} {
		if status[id] != want {
			t.Errorf("%s: status %q, want %q", id, status[id], want)
		}
	}
	for _, f := range b.Findings {
		if f.SessionID == "F13-v1-candidate-r1" && (!f.Grounded || f.Trials != 1 || !f.MatchesDefect) {
			t.Errorf("the probe finding is not grounded and bound: %+v", f)
		}
	}
}
