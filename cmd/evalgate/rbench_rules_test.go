package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/fixtures/rbdefects"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// runDefect applies a one-defect fixture (nil: none) to the
// reviewer-benchmark example and runs it through evalgate run, returning
// the output directory.
func runDefect(t *testing.T, apply func(rbdefects.Files) error) string {
	t.Helper()
	files, err := rbdefects.Example()
	if err != nil {
		t.Fatal(err)
	}
	if apply != nil {
		if err := apply(files); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	if code, stdout, stderr := evalgate(t, "run", writeCampaign(t, files), "--out", out); code > 1 {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	return out
}

// TestReviewerBenchmarkDefectDecisions: a one-defect fixture that names a
// decision turns the example's advance into exactly that decision and
// those failing gates through the CLI; one that rejects the record gives
// no_verdict.
func TestReviewerBenchmarkDefectDecisions(t *testing.T) {
	if d := readTable[tables.Decision](t, runDefect(t, nil), "decision"); len(d) != 1 || d[0].Decision != tables.DecisionAdvance {
		t.Fatalf("the example's decision %+v, want advance", d)
	}
	for _, d := range rbdefects.All() {
		if d.Decision == "" && !(d.Reject && d.Stage == "validate") {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			t.Parallel()
			got := readTable[tables.Decision](t, runDefect(t, d.Apply), "decision")
			want, failing := d.Decision, d.Failing
			if d.Reject {
				want = tables.DecisionNoVerdict
			}
			if len(got) != 1 || got[0].Decision != want || (d.Decision != "" && strings.Join(got[0].FailingGates, ",") != failing) {
				t.Errorf("decision %+v, want %s failing %q", got, want, failing)
			}
		})
	}
}

// TestReviewerBenchmarkRepeatedFindingID: a review that repeats a finding
// ID is a contract violation: the candidate's contract gate fails with one
// contract violation, the attempt has no decision and no finding rows, and
// every reviews row counts exactly the findings table's rows of its
// session — in the example and in the defect.
func TestReviewerBenchmarkRepeatedFindingID(t *testing.T) {
	const session = "F11-clean-candidate-r1"
	for _, tc := range []struct {
		name   string
		apply  func(rbdefects.Files) error
		status string
	}{
		{"example", nil, tables.ReviewStatusCompleted},
		{"repeated", defectNamed(t, "a finding ID used twice").Apply, tables.ReviewStatusContractViolation},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runDefect(t, tc.apply)
			rows := map[string]int64{}
			for _, f := range readTable[tables.FindingRow](t, out, tables.ReviewFindingsTable) {
				rows[f.SessionID]++
			}
			for _, r := range readTable[tables.ReviewRow](t, out, "reviews") {
				if r.SessionID != "" && r.Findings != rows[r.SessionID] {
					t.Errorf("%s: reviews row counts %d findings, the findings table holds %d", r.SessionID, r.Findings, rows[r.SessionID])
				}
				if r.SessionID == session && (r.Status != tc.status || (tc.status == tables.ReviewStatusContractViolation) != (r.Decision == nil)) {
					t.Errorf("%s: status %s decision %v, want %s", session, r.Status, r.Decision, tc.status)
				}
			}
			for _, g := range readTable[tables.Gate](t, out, "gates") {
				if g.Gate == rules.GateRbContract {
					// The candidate has no schema violation in the example
					// (the malformed review is the baseline's F06-v1 r1).
					want := "0 schema violations + 0 contract violations in 120 attempts"
					if tc.status == tables.ReviewStatusContractViolation {
						want = "0 schema violations + 1 contract violations in 120 attempts"
					}
					if g.Observed != want || g.Pass != (tc.apply == nil) {
						t.Errorf("rb_contract observed %q pass %v, want %q", g.Observed, g.Pass, want)
					}
				}
			}
		})
	}
}

// TestReviewerBenchmarkCompletedExcludesAbstentions: the completed metric
// is the reviews rows whose status is completed. By hand: 240 scheduled,
// less two abstentions (F05-clean baseline r2, F09-v1 candidate r1), a
// timeout (F03-v2 baseline r2), an interruption (F08-clean candidate r1)
// and a malformed review (F06-v1 baseline r1) = 235 completed, 239
// attempted (every attempt has a receipt).
func TestReviewerBenchmarkCompletedExcludesAbstentions(t *testing.T) {
	out := runDefect(t, nil)
	status := map[string]int64{}
	for _, r := range readTable[tables.ReviewRow](t, out, "reviews") {
		status[r.Status]++
	}
	if status[tables.ReviewStatusCompleted] != 235 || status[tables.ReviewStatusAbstained] != 2 {
		t.Fatalf("status counts %v, want 235 completed and 2 abstained", status)
	}
	sums, dens := map[string]int64{}, map[string]int64{}
	for _, m := range readTable[tables.ReviewMetric](t, out, "review_metrics") {
		if m.Split == "all" && m.Model == "claude-sonnet-4-6" {
			sums[m.Metric] += m.Numerator
			dens[m.Metric] += m.Denominator
		}
	}
	// One disputed finding (F02-clean baseline r1: rejected by one
	// adjudicator, upheld by another); no variant label is provisional.
	for metric, want := range map[string]int64{tables.MetricCompleted: 235, tables.MetricAbstentions: 2, tables.MetricAttempted: 240,
		tables.MetricSchemaViolations: 1, tables.MetricExecutionErrors: 2, tables.MetricContractViolations: 0, tables.MetricDisputed: 1,
		tables.MetricDetectionProvisional: 0} {
		if sums[metric] != want {
			t.Errorf("%s over both profiles: %d, want %d", metric, sums[metric], want)
		}
	}
	if dens[tables.MetricDetectionProvisional] != 0 || dens[tables.MetricAdjudicatedReviews] != 240 {
		t.Errorf("denominators: provisional detection %d (want 0), adjudicated reviews %d (want 240 scheduled)",
			dens[tables.MetricDetectionProvisional], dens[tables.MetricAdjudicatedReviews])
	}
}

// TestReviewerBenchmarkLabelQueue: an upheld block of an audited clean
// selection case waits in the label-adjudication queue and holds the
// promotion (inconclusive, only rb_labels_settled failing); the example's
// own queue holds only development entries, which hold nothing.
func TestReviewerBenchmarkLabelQueue(t *testing.T) {
	var upheld rbdefects.Outcome
	for _, o := range rbdefects.Outcomes() {
		if o.Name == "an upheld block of a clean selection case" {
			upheld = o
		}
	}
	for _, tc := range []struct {
		name  string
		apply func(rbdefects.Files) error
		want  string // the queue rows as case/session/finding adjudication holds
	}{
		// By hand from the example's plan: the baseline blocks F01-clean in
		// run 2 (1+2 a multiple of 3; F01–F02 run 2 left unadjudicated) and
		// F02-clean in run 1 (disputed by two adjudicators); every other
		// clean block is rejected and no variant has a second upheld defect.
		{"example", nil, "F01-clean/F01-clean-baseline-r2/F1 unadjudicated false; F02-clean/F02-clean-baseline-r1/F1 disputed false"},
		{"upheld", upheld.Apply, "F01-clean/F01-clean-baseline-r2/F1 unadjudicated false; F02-clean/F02-clean-baseline-r1/F1 disputed false; " +
			"F11-clean/F11-clean-baseline-r1/F1 upheld true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runDefect(t, tc.apply)
			var got []string
			for _, q := range readTable[tables.LabelQueueRow](t, out, "label_queue") {
				got = append(got, fmt.Sprintf("%s/%s/%s %s %v", q.CaseID, q.SessionID, q.FindingID, q.Adjudication, q.Holds))
			}
			if strings.Join(got, "; ") != tc.want {
				t.Errorf("label queue\n%s\nwant\n%s", strings.Join(got, "; "), tc.want)
			}
		})
	}
}

// TestReviewerBenchmarkExampleOrder reads the example's receipts on their
// own: every final-split session starts after the last selection-split
// session ended.
func TestReviewerBenchmarkExampleOrder(t *testing.T) {
	files, err := rbdefects.Example()
	if err != nil {
		t.Fatal(err)
	}
	var cases struct {
		Cases []struct{ ID, Split string }
	}
	if err := json.Unmarshal(files["cases.json"], &cases); err != nil {
		t.Fatal(err)
	}
	split := map[string]string{}
	for _, c := range cases.Cases {
		split[c.ID] = c.Split
	}
	var lastSelection, firstFinal time.Time
	sc := bufio.NewScanner(bytes.NewReader(files["receipts.jsonl"]))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var r struct {
			TaskID    string     `json:"task_id"`
			StartedAt time.Time  `json:"started_at"`
			EndedAt   *time.Time `json:"ended_at"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		n++
		switch split[r.TaskID] {
		case "selection":
			if r.EndedAt != nil && r.EndedAt.After(lastSelection) {
				lastSelection = *r.EndedAt
			}
		case "final":
			if firstFinal.IsZero() || r.StartedAt.Before(firstFinal) {
				firstFinal = r.StartedAt
			}
		}
	}
	if n != 240 || lastSelection.IsZero() || !firstFinal.After(lastSelection) {
		t.Errorf("%d receipts; first final start %s, last selection end %s", n, firstFinal, lastSelection)
	}
}
