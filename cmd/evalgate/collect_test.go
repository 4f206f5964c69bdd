package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/parquet-go/parquet-go"

	"github.com/evalgate/evalgate/internal/interop"
	"github.com/evalgate/evalgate/tables"
)

// campaignTotals are a campaign's run totals computed from its input files
// alone: one run per review receipt; R's denominator the answerable
// obligations of its task's truth; R's numerator the answerable
// obligations its settled rating (the adjudicator's, else rater-1's) rates
// addressed, 0 for a review without a rating.
type campaignTotals struct {
	sessions, runs, rNum, rDen int
}

func totalsFromFiles(t *testing.T, dir string) campaignTotals {
	t.Helper()
	var tot campaignTotals
	answerable := map[string]map[string]bool{} // task → obligation → answerable
	reviewTask := map[string]string{}
	for _, line := range readLines(t, filepath.Join(dir, "receipts.jsonl")) {
		var r struct {
			SessionID string `json:"session_id"`
			TaskID    string `json:"task_id"`
			Role      string `json:"role"`
		}
		if err := json.Unmarshal(line, &r, json.RejectUnknownMembers(false)); err != nil {
			t.Fatal(err)
		}
		tot.sessions++
		if r.Role != "review" {
			continue
		}
		tot.runs++
		reviewTask[r.SessionID] = r.TaskID
		if answerable[r.TaskID] == nil {
			data, err := os.ReadFile(filepath.Join(dir, "tasks", r.TaskID, "truth.json"))
			if err != nil {
				t.Fatal(err)
			}
			var truth struct {
				Obligations []struct {
					ID         string `json:"id"`
					Answerable bool   `json:"answerable"`
				} `json:"obligations"`
			}
			if err := json.Unmarshal(data, &truth, json.RejectUnknownMembers(false)); err != nil {
				t.Fatal(err)
			}
			answerable[r.TaskID] = map[string]bool{}
			for _, o := range truth.Obligations {
				answerable[r.TaskID][o.ID] = o.Answerable
			}
		}
		for _, a := range answerable[r.TaskID] {
			if a {
				tot.rDen++
			}
		}
	}
	type rating struct {
		SessionID   string `json:"session_id"`
		Rater       string `json:"rater"`
		RaterRole   string `json:"rater_role"`
		Obligations []struct {
			ObligationID string `json:"obligation_id"`
			Outcome      string `json:"outcome"`
		} `json:"obligations"`
	}
	settled := map[string]rating{}
	for _, line := range readLines(t, filepath.Join(dir, "adjudications.jsonl")) {
		var a rating
		if err := json.Unmarshal(line, &a, json.RejectUnknownMembers(false)); err != nil {
			t.Fatal(err)
		}
		if a.RaterRole == "adjudicator" || (a.Rater == "rater-1" && settled[a.SessionID].RaterRole != "adjudicator") {
			settled[a.SessionID] = a
		}
	}
	for session, a := range settled {
		for _, o := range a.Obligations {
			if o.Outcome == "addressed" && answerable[reviewTask[session]][o.ObligationID] {
				tot.rNum++
			}
		}
	}
	return tot
}

// TestCollectReadsBackInDuckDB collects three campaigns' outputs into one
// dataset and reads the runs and sessions tables back through DuckDB's
// Hive partitioning, per campaign, against totals computed from each
// campaign's input files.
func TestCollectReadsBackInDuckDB(t *testing.T) {
	script := interop.Script(t, "query.mjs")
	work := t.TempDir()
	want := map[string]campaignTotals{}
	var outs []string
	for seed, sessions := range []int{36, 63, 90} {
		dir := synthCampaign(t, "paired-review", sessions, "0.1", seed+1)
		out := filepath.Join(work, fmt.Sprint("out", seed))
		if code, _, stderr := evalgate(t, "run", dir, "--out", out, "--no-intervals"); code != 0 {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
		id := fmt.Sprintf("synth-paired-review-n%d-f100000-s%d", sessions, seed+1)
		want[id] = totalsFromFiles(t, dir)
		outs = append(outs, out)
	}
	dataset := filepath.Join(work, "dataset")
	code, stdout, stderr := evalgate(t, append(append([]string{"collect"}, outs...), "--into", dataset)...)
	if code != 0 {
		t.Fatalf("collect: exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "collected 3 run(s) of 3 campaign(s) into ") {
		t.Errorf("stdout %q", stdout)
	}
	got := runQueries(t, script, work, []map[string]string{{
		"name": "runs",
		"sql": `SELECT campaign_id, count(*), sum(r_num), sum(r_den)
		        FROM read_parquet('dataset/runs/*/*/*.parquet', hive_partitioning = true)
		        GROUP BY campaign_id ORDER BY campaign_id`,
	}, {
		"name": "sessions",
		"sql": `SELECT campaign_id, count(*)
		        FROM read_parquet('dataset/sessions/*/*/*.parquet', hive_partitioning = true)
		        GROUP BY campaign_id ORDER BY campaign_id`,
	}, {
		"name": "versions",
		"sql": `SELECT DISTINCT decode(value) FROM parquet_kv_metadata('dataset/*/*/*/*.parquet')
		        WHERE decode(key) = 'evalgate.schema_version'`,
	}})
	if len(got[0].Rows) != 3 || len(got[1].Rows) != 3 {
		t.Fatalf("DuckDB sees %d and %d campaigns, want 3", len(got[0].Rows), len(got[1].Rows))
	}
	for i, row := range got[0].Rows {
		id := *row[0]
		w, ok := want[id]
		if !ok {
			t.Errorf("unexpected campaign %s", id)
			continue
		}
		if g := fmt.Sprint(*row[1], " ", *row[2], " ", *row[3]); g != fmt.Sprint(w.runs, " ", w.rNum, " ", w.rDen) {
			t.Errorf("%s runs, Σ r_num, Σ r_den = %s, want %d %d %d", id, g, w.runs, w.rNum, w.rDen)
		}
		if s := *got[1].Rows[i][1]; s != fmt.Sprint(w.sessions) {
			t.Errorf("%s has %s sessions rows, want %d", id, s, w.sessions)
		}
	}
	if v := got[2].Rows; len(v) != 1 || *v[0][0] != tables.SchemaVersion {
		t.Errorf("%d schema versions in the dataset, want one, %s", len(v), tables.SchemaVersion)
	}
}

// TestCollectRefuses: a table of another schema version, a campaign given
// twice, and a campaign whose partition holds other rows are refused, and
// a refused collect writes nothing.
func TestCollectRefuses(t *testing.T) {
	work := t.TempDir()
	run := func(example string) string {
		out := filepath.Join(work, example)
		if code, _, stderr := evalgate(t, "run", "--example", example, "--out", out, "--no-intervals"); code != 0 {
			t.Fatalf("run %s: exit %d: %s", example, code, stderr)
		}
		return out
	}
	red, green := run("paired-review"), run("paired-review-green")
	collect := func(dataset string, outs ...string) (int, string) {
		code, _, stderr := evalgate(t, append(append([]string{"collect"}, outs...), "--into", dataset)...)
		return code, stderr
	}
	t.Run("mixed schema versions", func(t *testing.T) {
		old := filepath.Join(work, "old")
		if err := os.CopyFS(old, os.DirFS(green)); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(old, "runs.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		w := parquet.NewGenericWriter[tables.Run](f,
			parquet.KeyValueMetadata(tables.MetaSchemaVersion, "evalgate.tables/v0"),
			parquet.KeyValueMetadata(tables.MetaTable, "runs"))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		dataset := filepath.Join(work, "mixed")
		code, stderr := collect(dataset, red, old)
		if code == 0 || !strings.Contains(stderr, `schema version "evalgate.tables/v0"`) {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
		if _, err := os.Stat(dataset); !os.IsNotExist(err) {
			t.Errorf("a refused collect wrote %s", dataset)
		}
	})
	t.Run("a table of another campaign", func(t *testing.T) {
		other := filepath.Join(work, "other")
		if err := os.CopyFS(other, os.DirFS(red)); err != nil {
			t.Fatal(err)
		}
		gates, err := os.ReadFile(filepath.Join(green, "gates.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(other, "gates.parquet"), gates, 0o644); err != nil {
			t.Fatal(err)
		}
		code, stderr := collect(filepath.Join(work, "mixed-campaigns"), other)
		if code == 0 || !strings.Contains(stderr, "gates.parquet: its metadata names manifest ") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
}

// TestCollectKeepsRuns: a campaign's successive runs each get their own
// run= partition, and DuckDB reads them all back by run; the same output
// collected again (or twice in one call) adds nothing.
func TestCollectKeepsRuns(t *testing.T) {
	script := interop.Script(t, "query.mjs")
	work := t.TempDir()
	dir := synthCampaign(t, "paired-review", 36, "0", 7)
	first := filepath.Join(work, "first")
	if code, _, stderr := evalgate(t, "run", dir, "--out", first, "--no-intervals"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	// A later run of the same campaign whose outputs differ: with the
	// intervals (the intervals table then has rows).
	second := filepath.Join(work, "second")
	if code, _, stderr := evalgate(t, "run", dir, "--out", second); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	dataset := filepath.Join(work, "dataset")
	code, stdout, stderr := evalgate(t, "collect", first, second, first, "--into", dataset)
	if code != 0 || !strings.HasPrefix(stdout, "collected 3 run(s) of 1 campaign(s) into ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, stdout, _ := evalgate(t, "collect", second, "--into", dataset); code != 0 || !strings.Contains(stdout, "(unchanged)") {
		t.Errorf("collecting a run again: exit %d, %q", code, stdout)
	}
	got := runQueries(t, script, work, []map[string]string{{
		"name": "runs",
		"sql": `SELECT campaign_id, count(DISTINCT run) AS runs_collected, count(*) AS interval_rows
		        FROM read_parquet('dataset/intervals/*/*/*.parquet', hive_partitioning = true)
		        GROUP BY campaign_id`,
	}, {
		"name": "per run",
		"sql":  `SELECT count(*) FROM read_parquet('dataset/runs/*/*/*.parquet', hive_partitioning = true) GROUP BY run`,
	}})
	// the first run has no interval rows (--no-intervals), the second some:
	// the rows seen are the second run's, from one of two run partitions
	if r := got[0].Rows; len(r) != 1 || *r[0][0] != "synth-paired-review-n36-f0-s7" || *r[0][1] != "1" {
		t.Errorf("intervals by campaign: %v", r)
	}
	if r := got[1].Rows; len(r) != 2 || *r[0][0] != *r[1][0] {
		t.Errorf("runs rows by run: %v, want two runs of the same campaign with the same rows", r)
	}
}
