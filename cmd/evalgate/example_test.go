package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	stdjson "encoding/json"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
	"github.com/parquet-go/parquet-go"
)

// rawExample reads the example campaign's files directly with
// encoding/json, independently of stages/load.
type rawExample struct {
	manifest tables.Manifest
	packets  map[string]tables.Packet // by task
	truths   map[string]tables.Truth
	receipts []tables.Receipt
	answers  map[string]tables.Answer // by session, answers that decode
}

func readRawExample(t *testing.T) rawExample {
	t.Helper()
	fsys, ok := fixtures.Example(fixtures.DefaultExample)
	if !ok {
		t.Fatal("no default example")
	}
	read := func(p string) []byte {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var ex rawExample
	if err := stdjson.Unmarshal(read("manifest.json"), &ex.manifest); err != nil {
		t.Fatal(err)
	}
	ex.packets, ex.truths, ex.answers = map[string]tables.Packet{}, map[string]tables.Truth{}, map[string]tables.Answer{}
	for _, task := range ex.manifest.Design.Tasks {
		var p tables.Packet
		var tr tables.Truth
		if err := stdjson.Unmarshal(read(task.PacketPath), &p); err != nil {
			t.Fatal(err)
		}
		if err := stdjson.Unmarshal(read(task.TruthPath), &tr); err != nil {
			t.Fatal(err)
		}
		ex.packets[task.ID], ex.truths[task.ID] = p, tr
	}
	sc := bufio.NewScanner(bytes.NewReader(read("receipts.jsonl")))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r tables.Receipt
		if err := stdjson.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		ex.receipts = append(ex.receipts, r)
		if r.Output != nil {
			var a tables.Answer
			if stdjson.Unmarshal(read(r.Output.Path), &a) == nil {
				ex.answers[r.SessionID] = a
			}
		}
	}
	return ex
}

func readTable[T any](t *testing.T, dir, name string) []T {
	t.Helper()
	rows, err := parquet.ReadFile[T](filepath.Join(dir, name+".parquet"))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rows
}

// TestExampleTables runs the embedded example through the CLI, reads every
// written table back and checks its size and a few values against the
// campaign's known composition and against counts taken from the raw
// files.
func TestExampleTables(t *testing.T) {
	out := t.TempDir()
	if code, stdout, stderr := evalgate(t, "run", "--out", out); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	comp := fixtures.PairedReview
	ex := readRawExample(t)

	sessions := readTable[tables.Session](t, out, "sessions")
	if len(sessions) != comp.Sessions {
		t.Errorf("sessions: %d rows, want %d (8 tasks × 3 repetitions × D, A, B)", len(sessions), comp.Sessions)
	}
	byClass := map[tables.Classification]int{}
	for _, s := range sessions {
		byClass[s.Classification]++
	}
	if byClass["not_dispatched"] != comp.NotDispatchedReviews {
		t.Errorf("not_dispatched sessions = %d, want %d", byClass["not_dispatched"], comp.NotDispatchedReviews)
	}

	runs := readTable[tables.Run](t, out, "runs")
	if len(runs) != comp.Runs {
		t.Errorf("runs: %d rows, want %d: every planned run keeps its row", len(runs), comp.Runs)
	}
	shared := 0
	for _, r := range runs {
		if r.Classification == "shared_draft_failure" {
			shared++
			if r.RNum != 0 || !r.CriticalCompletionFailed || r.WrongClaims != nil {
				t.Errorf("shared-draft failure %s/%d/%s: R=%d/%d critical=%v wrong=%v, want 0, true, null",
					r.TaskID, r.Repetition, r.Arm, r.RNum, r.RDen, r.CriticalCompletionFailed, r.WrongClaims)
			}
		}
		if int(r.RDen) != answerable(ex.truths[r.TaskID]) {
			t.Errorf("run %s/%d/%s: R denominator %d, want every answerable obligation (%d)", r.TaskID, r.Repetition, r.Arm, r.RDen, answerable(ex.truths[r.TaskID]))
		}
	}
	if shared != comp.SharedDraftFailureRuns {
		t.Errorf("shared-draft failure runs = %d, want %d", shared, comp.SharedDraftFailureRuns)
	}

	tasks := readTable[tables.Task](t, out, "tasks")
	if len(tasks) != comp.Tasks*comp.Arms {
		t.Errorf("tasks: %d rows, want %d", len(tasks), comp.Tasks*comp.Arms)
	}
	want := map[string]float64{}
	for _, m := range comp.TaskMedians {
		want[m.Task+"/A"] = float64(m.A) / float64(m.Answerable)
		want[m.Task+"/B"] = float64(m.B) / float64(m.Answerable)
	}
	for _, tk := range tasks {
		if tk.MedianR == nil || *tk.MedianR != want[tk.TaskID+"/"+tk.Arm] {
			t.Errorf("task %s arm %s: median R %v, want %v", tk.TaskID, tk.Arm, tk.MedianR, want[tk.TaskID+"/"+tk.Arm])
		}
	}

	obligations := readTable[tables.ObligationOutcome](t, out, "obligations")
	wantObl := 0
	for _, tr := range ex.truths {
		wantObl += len(tr.Obligations) * comp.Repetitions * comp.Arms
	}
	if len(obligations) != wantObl {
		t.Errorf("obligations: %d rows, want %d (each truth obligation × repetitions × arms)", len(obligations), wantObl)
	}

	wantCitations, wantDispositions := 0, 0
	for _, r := range ex.receipts {
		a, ok := ex.answers[r.SessionID]
		if !ok {
			continue
		}
		wantCitations += len(a.Final.Citations)
		if a.Reconciliation != nil {
			// One row per disposition, plus one per packet E ID left out.
			seen := map[string]bool{}
			for _, d := range a.Reconciliation.EvidenceDispositions {
				seen[d.EvidenceID] = true
			}
			wantDispositions += len(a.Reconciliation.EvidenceDispositions)
			for _, it := range ex.packets[r.TaskID].Items {
				if !seen[it.ID] {
					wantDispositions++
				}
			}
		}
	}
	if n := len(readTable[tables.CitationRow](t, out, "citations")); n != wantCitations {
		t.Errorf("citations: %d rows, want %d (every citation of every decodable answer)", n, wantCitations)
	}
	if n := len(readTable[tables.DispositionRow](t, out, "dispositions")); n != wantDispositions {
		t.Errorf("dispositions: %d rows, want %d", n, wantDispositions)
	}

	dispatched := 0
	for _, r := range ex.receipts {
		if r.Status != tables.StatusNotDispatched {
			dispatched++
		}
	}
	if n := len(readTable[tables.Token](t, out, "tokens")); n != dispatched {
		t.Errorf("tokens: %d rows, want one per dispatched session (%d)", n, dispatched)
	}
	if n := len(readTable[tables.LedgerEntry](t, out, "ledger")); n != len(ex.receipts) {
		t.Errorf("ledger: %d rows, want one per receipt (%d)", n, len(ex.receipts))
	}
	if n := len(readTable[tables.Repository](t, out, "repositories")); n != comp.Repositories*comp.Arms {
		t.Errorf("repositories: %d rows, want %d", n, comp.Repositories*comp.Arms)
	}
	decision := readTable[tables.Decision](t, out, "decision")
	if len(decision) != 1 || decision[0].Decision != comp.Decision {
		t.Errorf("decision = %+v, want one row %q", decision, comp.Decision)
	}
	if n := len(readTable[tables.Gate](t, out, "gates")); n == 0 {
		t.Error("gates: no rows")
	}
	if n := len(readTable[tables.Interval](t, out, "intervals")); n == 0 {
		t.Error("intervals: no rows")
	}
	for _, f := range readTable[rules.Finding](t, out, tables.CampaignFindingsTable) {
		if f.Severity == rules.Reject {
			t.Errorf("the example must be admissible; rejecting finding %v", f)
		}
	}
}

func answerable(tr tables.Truth) int {
	n := 0
	for _, o := range tr.Obligations {
		if o.Answerable {
			n++
		}
	}
	return n
}

// TestSchemaDigestFrozen checks that the response contract printed by
// `evalgate schema answer` is the one the example manifest freezes.
func TestSchemaDigestFrozen(t *testing.T) {
	code, stdout, _ := evalgate(t, "schema", "answer")
	if code != 0 {
		t.Fatalf("schema answer: exit %d", code)
	}
	sum := sha256.Sum256([]byte(stdout))
	ex := readRawExample(t)
	if got := hex.EncodeToString(sum[:]); got != ex.manifest.ResponseSchemaSHA256 {
		t.Errorf("sha256(evalgate schema answer) = %s, manifest freezes %s", got, ex.manifest.ResponseSchemaSHA256)
	}
}
