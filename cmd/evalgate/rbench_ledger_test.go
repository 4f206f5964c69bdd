package main

import (
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/fixtures/rbdefects"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// runExample runs evalgate run on an embedded example without intervals
// and returns the output directory.
func runExample(t *testing.T, name string) string {
	t.Helper()
	out := t.TempDir()
	if code, stdout, stderr := evalgate(t, "run", "--example", name, "--out", out, "--no-intervals"); code != 0 {
		t.Fatalf("run --example %s: exit %d\n%s%s", name, code, stdout, stderr)
	}
	return out
}

// runDefect applies the named one-change fixture to the reviewer-benchmark
// example and runs evalgate run on it; it returns the exit code and the
// output directory.
func runDefect(t *testing.T, name string) (int, string) {
	t.Helper()
	files, err := rbdefects.Example()
	if err != nil {
		t.Fatal(err)
	}
	if err := defectNamed(t, name).Apply(files); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, _, stderr := evalgate(t, "run", writeCampaign(t, files), "--out", out)
	if code != 0 && code != 1 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	return code, out
}

// TestReviewerBenchmarkReplacement: an attempt whose first execution ended
// in a platform outage and was replaced within the allowance (one) is
// scored on its replacement, the campaign still advances, and both
// executions are charged: F11-clean-candidate-r1 metered 21,053 input and
// 1,818 output tokens at US$3 and US$15 per million, US$0.090429, and the
// replacement returned the same tokens, so the attempt costs US$0.180858.
// Beyond the allowance (two invalid executions, one allowed) the campaign
// stops; a model timeout is never replaced.
func TestReviewerBenchmarkReplacement(t *testing.T) {
	code, out := runDefect(t, "an attempt replaced after a platform outage")
	if code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	if d := readTable[tables.Decision](t, out, "decision"); len(d) != 1 || d[0].Decision != tables.DecisionAdvance {
		t.Errorf("decision %+v, want advance", d)
	}
	found := false
	for _, r := range readTable[tables.ReviewRow](t, out, "reviews") {
		if r.CaseID != "F11-clean" || r.Profile != "candidate" || r.Run != 1 {
			continue
		}
		found = true
		if r.SessionID != rbdefects.Replacement || r.Status != tables.ReviewStatusCompleted || r.Executions != 2 ||
			r.Cost == nil || r.Cost.String() != "0.180858" || r.HeldCost == nil || *r.HeldCost != 0 {
			t.Errorf("attempt row %+v (cost %v), want the replacement %s completed, 2 executions, cost 0.180858, nothing held", r, r.Cost, rbdefects.Replacement)
		}
	}
	if !found {
		t.Fatal("no row for F11-clean, candidate, run 1")
	}
	var charged []string
	for _, e := range readTable[tables.LedgerEntry](t, out, "ledger") {
		if (e.SessionID == rbdefects.Replaced || e.SessionID == rbdefects.Replacement) && e.Kind == tables.LedgerAccounted &&
			e.ReferenceCost != nil && e.ReferenceCost.String() == "0.090429" {
			charged = append(charged, e.SessionID)
		}
	}
	if !slices.Equal(charged, []string{rbdefects.Replaced, rbdefects.Replacement}) {
		t.Errorf("accounted ledger entries of US$0.090429: %v, want the original and its replacement", charged)
	}

	for _, tc := range []struct {
		defect string
		code   rules.Code
	}{
		{"two attempts replaced with an allowance of one", rules.CodeRbenchReplacementsExceed},
		{"a model timeout replaced", rules.CodeReplacementUnjustified},
	} {
		code, out := runDefect(t, tc.defect)
		d := readTable[tables.Decision](t, out, "decision")
		rejected := slices.ContainsFunc(readTable[rules.Finding](t, out, "rejections"), func(f rules.Finding) bool { return f.Code == tc.code })
		if code != 1 || len(d) != 1 || d[0].Decision != tables.DecisionNoVerdict || !rejected {
			t.Errorf("%s: exit %d, decision %+v, %s rejected %v; want 1, no_verdict, true", tc.defect, code, d, tc.code, rejected)
		}
	}
}

// TestReviewerBenchmarkStratumCost recomputes every stratum's cost and
// holds of the embedded example from its receipts, cases and rate card
// (US$3 input and US$15 output per million, so each metered review costs
// a whole number of micro-dollars), never from the pipeline: an
// interrupted attempt (F08-clean, candidate, run 1) is held at its
// reservation beside a cost that stays known.
func TestReviewerBenchmarkStratumCost(t *testing.T) {
	src, ok := fixtures.Example("reviewer-benchmark")
	if !ok {
		t.Fatal("no reviewer-benchmark example")
	}
	casesData, _ := fs.ReadFile(src, "cases.json")
	var cases tables.Cases
	if err := json.Unmarshal(casesData, &cases); err != nil {
		t.Fatal(err)
	}
	split := map[string]string{}
	for _, c := range cases.Cases {
		split[c.ID] = c.Split
	}
	type key struct{ split, profile string }
	cost, held, heldN := map[key]int64{}, map[key]int64{}, map[key]int64{}
	data, _ := fs.ReadFile(src, "receipts.jsonl")
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			TaskID string `json:"task_id"`
			Arm    string `json:"arm"`
			Meter  *struct {
				Usage struct {
					In  int64 `json:"input_tokens"`
					Out int64 `json:"output_tokens"`
				} `json:"usage"`
			} `json:"meter"`
			Reservation struct {
				Cost string `json:"cost"`
			} `json:"reservation"`
			Status string `json:"status"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		for _, k := range []key{{split[r.TaskID], r.Arm}, {"all", r.Arm}} {
			if r.Meter != nil && r.Status != tables.StatusInterruption {
				cost[k] += 3*r.Meter.Usage.In + 15*r.Meter.Usage.Out // micro-dollars
				continue
			}
			if r.Reservation.Cost != "0.27" {
				t.Fatalf("a held receipt reserves %s, not the example's 0.27", r.Reservation.Cost)
			}
			held[k] += 270_000
			heldN[k]++
		}
	}
	micro := func(v int64) string { return (tables.Money(v) * 1_000_000).String() }
	seen := 0
	for _, m := range readTable[tables.ReviewMetric](t, runExample(t, "reviewer-benchmark"), "review_metrics") {
		k := key{m.Split, m.Profile}
		switch m.Metric {
		case tables.MetricCost:
			seen++
			if m.Exact == nil || *m.Exact != micro(cost[k]) {
				t.Errorf("%v cost %v, want %s", k, m.Exact, micro(cost[k]))
			}
		case tables.MetricCostHeld:
			seen++
			if m.Exact == nil || *m.Exact != micro(held[k]) || m.Numerator != heldN[k] {
				t.Errorf("%v held %v over %d attempts, want %s over %d", k, m.Exact, m.Numerator, micro(held[k]), heldN[k])
			}
		}
	}
	if seen != 16 || heldN[key{"development", "candidate"}] != 1 {
		t.Errorf("%d cost rows (want 2 × 4 splits × 2 profiles), %d held development candidate attempts (want 1)", seen, heldN[key{"development", "candidate"}])
	}
}
