package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures/rbdefects"
	"github.com/evalgate/evalgate/tables"
)

// An independent scorer of the reviewer-benchmark example: it reads the
// raw campaign files with encoding/json and counts with math/big, sharing
// no code with the pipeline, and its figures must equal the
// review_metrics table and the scorecard.

type rbLocation struct {
	Path      string `json:"path"`
	StartLine int64  `json:"start_line"`
	EndLine   int64  `json:"end_line"`
}

type rbCase struct {
	ID     string `json:"id"`
	Split  string `json:"split"`
	Kind   string `json:"kind"`
	Label  string `json:"label"`
	Defect *struct {
		Category string     `json:"category"`
		Location rbLocation `json:"location"`
	} `json:"defect"`
}

type rbReview struct {
	Format, Profile, Outcome, Summary string
	ResponseCache                     string `json:"response_cache"`
	Criteria                          []struct {
		Criterion, Rating string
		FindingIDs        []string `json:"finding_ids"`
	}
	Findings []struct {
		ID, Criterion, Category, Severity, Problem, Conclusion string
		Location                                               rbLocation
		Excerpts                                               []struct {
			Path       string `json:"path"`
			FileSHA256 string `json:"file_sha256"`
			StartLine  int64  `json:"start_line"`
			EndLine    int64  `json:"end_line"`
			Text       string `json:"text"`
		}
		Trials []struct{ Path, SHA256 string }
	}
}

var rbCriteria = []string{"requirement_alignment", "feasibility_assets", "reference_correctness", "verifier_coverage",
	"valid_alternatives", "reward_gaming", "leakage", "rollout_grade_agreement"}

// rbTally is one (split, profile)'s counts.
type rbTally struct {
	scheduled, decidable, variants, detected, clean, blocked, upheld, adjudicated int64
}

func rbSHA(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// rbRecompute scores the campaign at dir from its files.
func rbRecompute(t *testing.T, dir string) map[[2]string]*rbTally {
	t.Helper()
	read := func(p string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var cases struct{ Cases []rbCase }
	if err := json.Unmarshal(read("cases.json"), &cases); err != nil {
		t.Fatal(err)
	}
	var inv struct {
		Cases []struct {
			CaseID string `json:"case_id"`
			Files  []struct{ Path, SHA256 string }
		}
	}
	if err := json.Unmarshal(read("inventory.json"), &inv); err != nil {
		t.Fatal(err)
	}
	files := map[string]map[string]string{} // case → path → sha256
	checksum := map[string]string{}
	for _, c := range inv.Cases {
		files[c.CaseID] = map[string]string{}
		var entries []string
		for _, f := range c.Files {
			files[c.CaseID][f.Path] = f.SHA256
			entries = append(entries, "F\x00"+f.Path+"\x00"+f.SHA256+"\n")
		}
		sort.Strings(entries)
		checksum[c.CaseID] = rbSHA([]byte(strings.Join(entries, "")))
	}
	type receipt struct {
		SessionID  string `json:"session_id"`
		TaskID     string `json:"task_id"`
		Arm        string `json:"arm"`
		Repetition int64  `json:"repetition"`
		Status     string `json:"status"`
		Output     *struct{ Path string }
	}
	receipts := map[string]receipt{}
	for _, line := range bytes.Split(bytes.TrimSpace(read("receipts.jsonl")), []byte("\n")) {
		var r receipt
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		k := fmt.Sprintf("%s|%s|%d", r.TaskID, r.Arm, r.Repetition)
		if _, seen := receipts[k]; !seen {
			receipts[k] = r
		}
	}
	settled := map[string]map[string]bool{} // session|finding → outcomes other than unadjudicated
	for _, line := range bytes.Split(bytes.TrimSpace(read("finding_adjudications.jsonl")), []byte("\n")) {
		var a struct{ Session_ID, Finding_ID, Outcome string }
		var raw map[string]string
		if err := json.Unmarshal(line, &raw); err != nil {
			t.Fatal(err)
		}
		a.Session_ID, a.Finding_ID, a.Outcome = raw["session_id"], raw["finding_id"], raw["outcome"]
		if a.Outcome == "unadjudicated" {
			continue
		}
		k := a.Session_ID + "|" + a.Finding_ID
		if settled[k] == nil {
			settled[k] = map[string]bool{}
		}
		settled[k][a.Outcome] = true
	}
	exact := func(caseID, path, sha string, start, end int64, text string) bool {
		if files[caseID][path] != sha || start < 1 || start > end {
			return false
		}
		src := read("sources/" + sha)
		lines := strings.SplitAfter(string(src), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		return end <= int64(len(lines)) && strings.Join(lines[start-1:end], "") == text
	}
	boundTrial := func(caseID, path, sha string) bool {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
		if err != nil || rbSHA(b) != sha {
			return false
		}
		var tr struct {
			TaskChecksum   string `json:"task_checksum"`
			ExceptionInfo  any    `json:"exception_info"`
			VerifierResult *struct {
				Rewards map[string]any `json:"rewards"`
			} `json:"verifier_result"`
		}
		return json.Unmarshal(b, &tr) == nil && tr.TaskChecksum == checksum[caseID] && tr.ExceptionInfo == nil &&
			tr.VerifierResult != nil && len(tr.VerifierResult.Rewards) > 0
	}
	out := map[[2]string]*rbTally{}
	for _, c := range cases.Cases {
		for _, profile := range []string{"baseline", "candidate"} {
			for run := int64(1); run <= 2; run++ {
				for _, split := range []string{c.Split, "all"} {
					k := [2]string{split, profile}
					if out[k] == nil {
						out[k] = &rbTally{}
					}
				}
				r, ok := receipts[fmt.Sprintf("%s|%s|%d", c.ID, profile, run)]
				var rev *rbReview
				if ok && r.Status == "response" && r.Output != nil {
					var v rbReview
					dec := json.NewDecoder(bytes.NewReader(read(r.Output.Path)))
					dec.DisallowUnknownFields()
					valid := dec.Decode(&v) == nil
					for _, cr := range v.Criteria {
						valid = valid && slices.Contains(rbCriteria, cr.Criterion)
					}
					if valid {
						rev = &v
					}
				}
				block, pass, detected := false, false, false
				if rev != nil && rev.Outcome == "completed" {
					blocking := map[string]bool{}
					for _, f := range rev.Findings {
						if f.Severity != "blocking" {
							continue
						}
						blocking[f.ID] = true
						grounded := f.Conclusion == "supported" && len(f.Excerpts)+len(f.Trials) > 0
						for _, e := range f.Excerpts {
							grounded = grounded && exact(c.ID, e.Path, e.FileSHA256, e.StartLine, e.EndLine, e.Text)
						}
						for _, tr := range f.Trials {
							grounded = grounded && boundTrial(c.ID, tr.Path, tr.SHA256)
						}
						if !grounded {
							continue
						}
						block = true
						if d := c.Defect; d != nil && f.Category == d.Category && f.Location.Path == d.Location.Path &&
							f.Location.StartLine <= d.Location.EndLine && d.Location.StartLine <= f.Location.EndLine {
							detected = true
						}
					}
					rated := map[string]int{}
					passes := 0
					for _, cr := range rev.Criteria {
						rated[cr.Criterion]++
						owns := slices.ContainsFunc(cr.FindingIDs, func(id string) bool { return blocking[id] })
						if cr.Rating == "pass" && !owns {
							passes++
						}
					}
					pass = !block && passes == len(rbCriteria) && len(rated) == len(rbCriteria)
				}
				for _, split := range []string{c.Split, "all"} {
					tl := out[[2]string{split, profile}]
					tl.scheduled++
					if block || pass {
						tl.decidable++
					}
					switch {
					case c.Kind == "variant" && c.Label == "audited":
						tl.variants++
						if detected {
							tl.detected++
						}
					case c.Kind == "clean" && c.Label == "audited":
						tl.clean++
						if block {
							tl.blocked++
						}
					}
					if rev == nil {
						continue
					}
					for _, f := range rev.Findings {
						o := settled[r.SessionID+"|"+f.ID]
						if len(o) == 1 {
							tl.adjudicated++
							if o["upheld"] {
								tl.upheld++
							}
						}
					}
				}
			}
		}
	}
	return out
}

// TestReviewerBenchmarkRecompute runs the example end to end twice
// (byte-identical outputs) and checks detection, blocking on clean,
// decision coverage and finding precision per split and profile against
// the independent scorer, in the review_metrics table and in
// scorecard.json. The selection and final figures are also pinned by hand
// from the generator's plan (fixtures/internal/rbench planFor): the
// baseline misses a planted defect when (family+run+variant) is a
// multiple of 5 — 4 of 20 attempts on selection (F11 r2v2... sums 15) and
// 4 of 20 on final (sums 20) — the candidate when it is a multiple of 11
// — none on selection, 4 on final (sums 22); the baseline blocks a clean
// case when family+run is a multiple of 3 (F11 r1, F14 r1, F13 r2 on
// selection; F17 r1, F20 r1, F16 r2, F19 r2 on final), the candidate only
// F14 r1.
func TestReviewerBenchmarkRecompute(t *testing.T) {
	files, err := rbdefects.Example()
	if err != nil {
		t.Fatal(err)
	}
	dir := writeCampaign(t, files)
	out1, out2 := t.TempDir(), t.TempDir()
	for _, out := range []string{out1, out2} {
		if code, stdout, stderr := evalgate(t, "run", dir, "--out", out); code != 0 {
			t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
		}
	}
	names, _ := os.ReadDir(out1)
	for _, n := range names {
		a, _ := os.ReadFile(filepath.Join(out1, n.Name()))
		b, _ := os.ReadFile(filepath.Join(out2, n.Name()))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs", n.Name())
		}
	}
	want := rbRecompute(t, dir)
	byHand := map[[2]string][4]int64{ // detected, variants, blocked, clean
		{"selection", "baseline"}: {16, 20, 3, 10}, {"selection", "candidate"}: {20, 20, 1, 10},
		{"final", "baseline"}: {16, 20, 4, 10}, {"final", "candidate"}: {16, 20, 0, 10},
	}
	for k, h := range byHand {
		w := want[k]
		if got := [4]int64{w.detected, w.variants, w.blocked, w.clean}; got != h {
			t.Errorf("%v: the independent scorer gives %v, the plan %v", k, got, h)
		}
	}
	type pair struct{ num, den int64 }
	fromTable := map[string]pair{}
	for _, m := range readTable[tables.ReviewMetric](t, out1, "review_metrics") {
		fromTable[m.Split+"|"+m.Profile+"|"+m.Metric] = pair{m.Numerator, m.Denominator}
		if m.Metric == tables.MetricDetection && m.Denominator > 0 {
			// The float column is the exact fraction rounded once.
			f, _ := new(big.Rat).SetFrac64(m.Numerator, m.Denominator).Float64()
			if m.Exact == nil || *m.Exact != fmt.Sprintf("%d/%d", m.Numerator, m.Denominator) || m.Value == nil || *m.Value != f {
				t.Errorf("%s %s detection: exact %v value %v", m.Split, m.Profile, m.Exact, m.Value)
			}
		}
	}
	var sc struct {
		ReviewerBenchmark struct {
			Metrics []struct {
				Split, Profile, Metric string
				Numerator, Denominator int64
			}
		} `json:"reviewer_benchmark"`
		Decision struct{ Decision string }
	}
	raw, _ := os.ReadFile(filepath.Join(out1, "scorecard.json"))
	if err := json.Unmarshal(raw, &sc); err != nil {
		t.Fatal(err)
	}
	fromScorecard := map[string]pair{}
	for _, m := range sc.ReviewerBenchmark.Metrics {
		fromScorecard[m.Split+"|"+m.Profile+"|"+m.Metric] = pair{m.Numerator, m.Denominator}
	}
	for k, w := range want {
		for metric, p := range map[string]pair{
			tables.MetricDetection:        {w.detected, w.variants},
			tables.MetricBlockingOnClean:  {w.blocked, w.clean},
			tables.MetricDecisionCoverage: {w.decidable, w.scheduled},
			tables.MetricPrecision:        {w.upheld, w.adjudicated},
		} {
			key := k[0] + "|" + k[1] + "|" + metric
			if fromTable[key] != p {
				t.Errorf("%s: review_metrics %v, independent %v", key, fromTable[key], p)
			}
			if fromScorecard[key] != p {
				t.Errorf("%s: scorecard %v, independent %v", key, fromScorecard[key], p)
			}
		}
	}
	if sc.Decision.Decision != "advance" {
		t.Errorf("decision %q, want advance", sc.Decision.Decision)
	}
}
