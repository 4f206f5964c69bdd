package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

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
	a := treeBytes(t, synthCampaign(t, "paired-review", 300, "0.2", 9))
	b := treeBytes(t, synthCampaign(t, "paired-review", 300, "0.2", 9))
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for p, data := range a {
		if !bytes.Equal(data, b[p]) {
			t.Errorf("%s differs between two runs with the same flags", p)
		}
	}
	c := treeBytes(t, synthCampaign(t, "paired-review", 300, "0.2", 10))
	if bytes.Equal(a["receipts.jsonl"], c["receipts.jsonl"]) {
		t.Error("another seed wrote the same receipts")
	}
}

// TestSynthIsValid: without faults every kind's campaign is admissible
// and the decision is computed (not no_verdict).
func TestSynthIsValid(t *testing.T) {
	for _, c := range []struct {
		kind     string
		sessions int
	}{{"paired-review", 9}, {"paired-review", 100}} {
		t.Run(fmt.Sprintf("%s/%d", c.kind, c.sessions), func(t *testing.T) {
			dir := synthCampaign(t, c.kind, c.sessions, "0", 1)
			res := stages.Run(os.DirFS(dir), "synth", stages.Options{})
			for _, f := range res.Tables.Rejections {
				if f.Severity == tables.Reject {
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
}

// TestSynthFaultFraction counts the planted faults from the written files
// alone: refusals and timeouts in the receipts, answers that are not JSON,
// and reviews whose rater judges a citation unsupported. The campaign
// stays admissible: every fault is the model's.
func TestSynthFaultFraction(t *testing.T) {
	for _, c := range []struct {
		sessions int
		faults   string
		ppm      int
	}{{900, "0.1", 100_000}, {1200, "0.25", 250_000}, {600, "0.5", 500_000}, {450, "0.013", 13_000}} {
		t.Run(c.faults, func(t *testing.T) {
			dir := synthCampaign(t, "paired-review", c.sessions, c.faults, 3)
			receipts := readLines(t, filepath.Join(dir, "receipts.jsonl"))
			counts := map[string]int{}
			for _, line := range receipts {
				var r struct {
					Status     string  `json:"status"`
					ErrorClass *string `json:"error_class"`
					Output     *struct {
						Path string `json:"path"`
					} `json:"output"`
				}
				if err := json.Unmarshal(line, &r, json.RejectUnknownMembers(false)); err != nil {
					t.Fatal(err)
				}
				switch {
				case r.ErrorClass != nil && (*r.ErrorClass == "refused" || *r.ErrorClass == "model_timeout"):
					counts[*r.ErrorClass]++
				case r.Output != nil:
					data, err := os.ReadFile(filepath.Join(dir, r.Output.Path))
					if err != nil {
						t.Fatal(err)
					}
					if !jsontext.Value(data).IsValid() {
						counts["malformed"]++
					}
				}
			}
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
			total := 0
			for kind, n := range counts {
				total += n
				if n == 0 {
					t.Errorf("no %s fault", kind)
				}
			}
			want := len(receipts) * c.ppm / 1_000_000
			if total != want {
				t.Errorf("%d faults in %d sessions (%v), want %d", total, len(receipts), counts, want)
			}
			if len(counts) < 3 && want >= 20 {
				t.Errorf("fault kinds %v, want a mix", counts)
			}
			if res := stages.Run(os.DirFS(dir), "synth", stages.Options{SkipIntervals: true}); !res.Admissible() {
				t.Error("a campaign with model faults only was rejected")
			}
		})
	}
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
