package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// synthCampaign writes a campaign with evalgate synth and returns its
// directory.
func synthCampaign(t *testing.T, kind string, sessions int, faults string, seed int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "c")
	code, _, stderr := evalgate(t, "synth", "--kind", kind, "--sessions", fmt.Sprint(sessions),
		"--faults", faults, "--seed", fmt.Sprint(seed), "--out", dir)
	if code != 0 {
		t.Fatalf("synth exit %d: %s", code, stderr)
	}
	return dir
}

// treeBytes maps every file below dir to its bytes.
func treeBytes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestSynthIsDeterministic(t *testing.T) {
	for _, c := range []struct {
		kind     string
		sessions int
	}{{"paired-review", 300}, {"system-comparison", 300}, {"reviewer-benchmark", 300}} {
		t.Run(c.kind, func(t *testing.T) {
			a := treeBytes(t, synthCampaign(t, c.kind, c.sessions, "0.2", 9))
			b := treeBytes(t, synthCampaign(t, c.kind, c.sessions, "0.2", 9))
			if len(a) != len(b) {
				t.Fatalf("%d files, then %d", len(a), len(b))
			}
			for p, data := range a {
				if !bytes.Equal(data, b[p]) {
					t.Errorf("%s differs between two runs with the same flags", p)
				}
			}
			c := treeBytes(t, synthCampaign(t, c.kind, c.sessions, "0.2", 10))
			if bytes.Equal(a["receipts.jsonl"], c["receipts.jsonl"]) {
				t.Error("another seed wrote the same receipts")
			}
		})
	}
}

// TestSynthIsValid: without faults every kind's campaign is admissible
// and the decision is computed (not no_verdict). A system comparison is
// capped at 90 model sessions by its kind, so only its smallest shape (81
// sessions) can be admissible; a larger one is rejected for exceeding
// that ceiling and for nothing else.
func TestSynthIsValid(t *testing.T) {
	for _, c := range []struct {
		kind     string
		sessions int
	}{{"paired-review", 9}, {"paired-review", 100}, {"system-comparison", 1}, {"reviewer-benchmark", 1}, {"reviewer-benchmark", 1000}} {
		t.Run(fmt.Sprintf("%s/%d", c.kind, c.sessions), func(t *testing.T) {
			dir := synthCampaign(t, c.kind, c.sessions, "0", 1)
			res := stages.Run(os.DirFS(dir), "synth", stages.Options{})
			for _, f := range res.Tables.Rejections {
				if f.Severity == rules.Reject {
					t.Errorf("rejected: %s %s: %s", f.File, f.Code, f.Message)
				}
			}
			if !res.Admissible() {
				t.Fatal("not admissible")
			}
			if d := res.Tables.Decision; len(d) != 1 || d[0].Decision == tables.DecisionNoVerdict {
				t.Errorf("decision %+v, want a computed one", d)
			}
		})
	}
	t.Run("system-comparison/over the session cap", func(t *testing.T) {
		dir := synthCampaign(t, "system-comparison", 600, "0", 1)
		res := stages.Run(os.DirFS(dir), "synth", stages.Options{SkipIntervals: true})
		rejects := 0
		for _, f := range res.Tables.Rejections {
			if f.Severity != rules.Reject {
				continue
			}
			if f.Code == rules.CodeSystemDesignMismatch {
				continue // 54 tasks in 3 repositories, 648 planned sessions: not the contract's design either
			}
			rejects++
			if f.Code != rules.CodeCeilingTotalSessions {
				t.Errorf("rejected: %s %s: %s", f.File, f.Code, f.Message)
			}
		}
		if rejects != 1 {
			t.Errorf("%d rejections besides the design's, want the one total-sessions ceiling", rejects)
		}
	})
}

// TestSynthFaultFraction counts the planted faults from the written files
// alone, per kind (faultsOf), and checks they are exactly ⌊sessions × F⌋
// of the sessions that can carry one, with a mix of kinds. The campaign
// stays admissible: every fault is the model's.
func TestSynthFaultFraction(t *testing.T) {
	for _, c := range []struct {
		kind     string
		sessions int
		faults   string
		ppm      int
	}{
		{"paired-review", 900, "0.1", 100_000}, {"paired-review", 1200, "0.25", 250_000},
		{"paired-review", 600, "0.5", 500_000}, {"paired-review", 450, "0.013", 13_000},
		{"system-comparison", 72, "0.1", 100_000}, {"system-comparison", 72, "0.5", 500_000},
		{"system-comparison", 720, "0.25", 250_000}, {"system-comparison", 1500, "0.013", 13_000},
		{"reviewer-benchmark", 240, "0.1", 100_000}, {"reviewer-benchmark", 480, "0.5", 500_000},
		{"reviewer-benchmark", 1200, "0.25", 250_000}, {"reviewer-benchmark", 2400, "0.013", 13_000},
	} {
		t.Run(c.kind+"/"+c.faults, func(t *testing.T) {
			dir := synthCampaign(t, c.kind, c.sessions, c.faults, 3)
			counts, carriers := faultsOf(t, c.kind, dir)
			total := 0
			for kind, n := range counts {
				total += n
				if n == 0 {
					t.Errorf("no %s fault", kind)
				}
			}
			want := carriers * c.ppm / 1_000_000
			if total != want {
				t.Errorf("%d faults in %d sessions (%v), want %d", total, carriers, counts, want)
			}
			if len(counts) < 3 && want >= 20 {
				t.Errorf("fault kinds %v, want a mix", counts)
			}
			res := stages.Run(os.DirFS(dir), "synth", stages.Options{SkipIntervals: true})
			for _, f := range res.Tables.Rejections {
				// A system comparison larger than the contract's 72 sessions
				// is beyond its 90-session cap and not its design.
				if f.Severity == rules.Reject && f.Code != rules.CodeCeilingTotalSessions && f.Code != rules.CodeSystemDesignMismatch {
					t.Errorf("a campaign with model faults only was rejected: %s %s: %s", f.File, f.Code, f.Message)
				}
			}
		})
	}
}

// synthReceipt is what the fault count reads of a receipt.
type synthReceipt struct {
	TaskID     string  `json:"task_id"`
	Role       string  `json:"role"`
	ErrorClass *string `json:"error_class"`
	Output     *struct {
		Path string `json:"path"`
	} `json:"output"`
}

// faultsOf counts a campaign's model faults by kind from its files, and
// the sessions that count towards the fraction: every receipt of a paired
// review or reviewer benchmark, the investigations and reviews of a
// system comparison (not its cold setups).
func faultsOf(t *testing.T, kind, dir string) (map[string]int, int) {
	t.Helper()
	counts, carriers := map[string]int{}, 0
	read := func(path string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	defects := map[string][3]any{} // reviewer benchmark: case → planted path, first, last line
	if kind == "reviewer-benchmark" {
		var doc struct {
			Cases []struct {
				ID     string `json:"id"`
				Defect *struct {
					Location struct {
						Path      string `json:"path"`
						StartLine int64  `json:"start_line"`
						EndLine   int64  `json:"end_line"`
					} `json:"location"`
				} `json:"defect"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(read("cases.json"), &doc, json.RejectUnknownMembers(false)); err != nil {
			t.Fatal(err)
		}
		for _, c := range doc.Cases {
			if c.Defect != nil {
				defects[c.ID] = [3]any{c.Defect.Location.Path, c.Defect.Location.StartLine, c.Defect.Location.EndLine}
			}
		}
	}
	for _, line := range readLines(t, filepath.Join(dir, "receipts.jsonl")) {
		var r synthReceipt
		if err := json.Unmarshal(line, &r, json.RejectUnknownMembers(false)); err != nil {
			t.Fatal(err)
		}
		if r.Role == "preparation" {
			continue
		}
		carriers++
		switch {
		case r.ErrorClass != nil && (*r.ErrorClass == "refused" || *r.ErrorClass == "model_timeout"):
			counts[*r.ErrorClass]++
		case r.Output == nil:
		case r.Role == "investigation":
			if strings.TrimSpace(string(read(r.Output.Path))) == "" {
				counts["blank draft"]++
			}
		case !jsontext.Value(read(r.Output.Path)).IsValid():
			counts["malformed"]++
		case kind == "reviewer-benchmark":
			var doc struct {
				Findings []struct {
					Severity string `json:"severity"`
					Location struct {
						Path      string `json:"path"`
						StartLine int64  `json:"start_line"`
						EndLine   int64  `json:"end_line"`
					} `json:"location"`
				} `json:"findings"`
			}
			if err := json.Unmarshal(read(r.Output.Path), &doc, json.RejectUnknownMembers(false)); err != nil {
				t.Fatal(err)
			}
			d, variant := defects[r.TaskID]
			for _, f := range doc.Findings {
				if variant && f.Severity == "blocking" && d != [3]any{f.Location.Path, f.Location.StartLine, f.Location.EndLine} {
					counts["wrong lines"]++
				}
			}
		}
	}
	if kind == "paired-review" {
		for _, line := range readLines(t, filepath.Join(dir, "adjudications.jsonl")) {
			var a struct {
				Rater     string `json:"rater"`
				Citations []struct {
					Supports bool `json:"supports"`
				} `json:"citations"`
			}
			if err := json.Unmarshal(line, &a, json.RejectUnknownMembers(false)); err != nil {
				t.Fatal(err)
			}
			for _, cit := range a.Citations {
				if !cit.Supports && a.Rater == "rater-1" {
					counts["wrong_citation"]++
					break
				}
			}
		}
	}
	return counts, carriers
}

func readLines(t *testing.T, path string) [][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, bytes.Clone(sc.Bytes()))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}
