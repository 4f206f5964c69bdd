package main

// Running the CLI and comparing its outputs with the independent
// recomputation (see recompute_test.go).

import (
	"bytes"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/cmd/evalgate/internal/cli"
	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/tables"
	"github.com/go-json-experiment/json"
	"github.com/parquet-go/parquet-go"
)

// ---- running the CLI and comparing ----

// rcCopyExample copies the embedded example campaign into a fresh directory.
func rcCopyExample(t *testing.T) string {
	t.Helper()
	fsys, ok := fixtures.Example(fixtures.DefaultExample)
	if !ok {
		t.Fatal("no embedded example")
	}
	dir := filepath.Join(t.TempDir(), "campaign")
	if err := os.CopyFS(dir, fsys); err != nil {
		t.Fatal(err)
	}
	return dir
}

// rcScorecard is the part of scorecard.json the comparisons read.
type rcScorecard struct {
	EvidenceAndPlan struct {
		Arms []struct {
			Arm   string `json:"arm"`
			Split string `json:"split"`
			Macro struct {
				Exact string `json:"exact"`
			} `json:"macro_median_r"`
		} `json:"arms"`
	} `json:"evidence_and_plan"`
	CostAndTime struct {
		Ratios []struct {
			Arm  string `json:"arm"`
			Cost struct {
				Ratio struct{ Exact string } `json:"ratio"`
			} `json:"cost"`
			Time struct {
				Ratio struct{ Exact string } `json:"ratio"`
			} `json:"time"`
		} `json:"ratios"`
	} `json:"cost_and_time"`
	Gates []struct {
		Gate     string   `json:"gate"`
		Observed string   `json:"observed"`
		Pass     bool     `json:"pass"`
		Failing  []string `json:"failing"`
	} `json:"gates"`
	Decision struct {
		Decision     string   `json:"decision"`
		FailingGates []string `json:"failing_gates"`
	} `json:"decision"`
}

// rcOutput is what one `evalgate run --json` wrote.
type rcOutput struct {
	out       string
	summary   map[string]any // run --json's summary; nil when not captured
	runs      []tables.Run
	tokens    []tables.Token
	gates     []tables.Gate
	decision  []tables.Decision
	scorecard rcScorecard
}

// rcRunPipeline runs `evalgate run CAMPAIGN --out OUT --json [extra...]`
// through cli.Main and reads back its tables and scorecard.
func rcRunPipeline(t *testing.T, campaign, out string, extra ...string) rcOutput {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := append([]string{"run", campaign, "--out", out, "--json"}, extra...)
	if code := cli.Main(args, &stdout, &stderr); code != cli.ExitOK {
		t.Fatalf("evalgate %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	p := rcReadOutput(t, out)
	if err := json.Unmarshal(stdout.Bytes(), &p.summary); err != nil {
		t.Fatalf("run --json printed %q: %v", stdout.String(), err)
	}
	return p
}

// rcReadOutput reads the tables and scorecard of an output directory.
func rcReadOutput(t *testing.T, out string) rcOutput {
	t.Helper()
	p := rcOutput{out: out}
	p.runs = rcReadTable[tables.Run](t, out, "runs.parquet")
	p.tokens = rcReadTable[tables.Token](t, out, "tokens.parquet")
	p.gates = rcReadTable[tables.Gate](t, out, "gates.parquet")
	p.decision = rcReadTable[tables.Decision](t, out, "decision.parquet")
	rcReadJSON(t, filepath.Join(out, "scorecard.json"), &p.scorecard)
	return p
}

func rcReadTable[T any](t *testing.T, dir, name string) []T {
	t.Helper()
	rows, err := parquet.ReadFile[T](filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return rows
}

// rcObserved parses a gate's observed text: "2", "0.75" or
// "711959/610945 (≈1.165341)".
func rcObserved(s string) *big.Rat {
	s, _, _ = strings.Cut(s, " ")
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil
	}
	return r
}

func rcEqual(a, b *big.Rat) bool { return a != nil && b != nil && a.Cmp(b) == 0 }

// rcCompare fails t wherever the pipeline's outputs differ from
// the independent recomputation.
func rcCompare(t *testing.T, want rcResult, got rcOutput) {
	t.Helper()
	t.Run("runs", func(t *testing.T) { rcCompareRuns(t, want.runs, got.runs) })
	t.Run("gates.parquet", func(t *testing.T) {
		if len(got.gates) != len(want.gates) {
			t.Fatalf("gates.parquet has %d rows, recomputation %d", len(got.gates), len(want.gates))
		}
		for i, w := range want.gates {
			g := got.gates[i]
			failing := strings.Join(w.failing, ",")
			if string(g.Gate) != w.name || g.Pass != w.pass || !rcEqual(rcObserved(g.Observed), w.observed) || strings.Join(g.Failing, ",") != failing {
				t.Errorf("gate %s: pipeline pass=%t observed=%s failing=%q; recomputed %s pass=%t observed=%s failing=%q",
					g.Gate, g.Pass, g.Observed, g.Failing, w.name, w.pass, w.observed.RatString(), failing)
			}
			// The numeric columns state the same recomputed value exactly.
			if g.ObservedNum == nil || g.ObservedDen == nil || !rcEqual(big.NewRat(*g.ObservedNum, *g.ObservedDen), w.observed) {
				t.Errorf("gate %s: observed_num/observed_den %v/%v, recomputed %s", g.Gate, g.ObservedNum, g.ObservedDen, w.observed.RatString())
			}
		}
	})
	t.Run("scorecard.json", func(t *testing.T) { rcCompareScorecard(t, want, got.scorecard) })
	t.Run("decision", func(t *testing.T) {
		failing := strings.Join(want.failingGates, ",")
		if len(got.decision) != 1 || string(got.decision[0].Decision) != want.decision || strings.Join(got.decision[0].FailingGates, ",") != failing {
			t.Errorf("decision.parquet = %+v, recomputed %s failing %q", got.decision, want.decision, failing)
		}
		if got.summary != nil && (got.summary["decision"] != want.decision || fmt.Sprint(got.summary["failing_gates"]) != fmt.Sprint(anyList(want.failingGates))) {
			t.Errorf("run --json summary = %v, recomputed %s failing %q", got.summary, want.decision, failing)
		}
	})
}

func rcCompareRuns(t *testing.T, want []rcRun, got []tables.Run) {
	if len(got) != len(want) {
		t.Fatalf("runs.parquet has %d rows, recomputation %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.TaskID != w.task || g.Repetition != w.rep || g.Arm != w.arm {
			t.Fatalf("runs.parquet row %d is %s/r%d/%s, recomputed %s/%s", i, g.TaskID, g.Repetition, g.Arm, w.name(), w.arm)
		}
		gotRow := fmt.Sprintf("scored=%t R=%d/%d U=%d/%d critical=%d ccf=%t source=%t protocol=%t cost=%s ns=%d",
			g.Scored, g.RNum, g.RDen, g.UNum, g.UDen, g.CriticalFailures, g.CriticalCompletionFailed, g.SourceGate, g.ProtocolGate, rcMoneyText(g.WorkflowCost), g.WorkflowNS)
		wantRow := fmt.Sprintf("scored=%t R=%d/%d U=%d/%d critical=%d ccf=%t source=%t protocol=%t cost=%s ns=%s",
			w.scored, w.rNum, w.rDen, w.uNum, w.uDen, w.critical, w.completionFailed, w.sourceGate, w.protocolGate, w.cost.FloatString(12), w.ns.RatString())
		if gotRow != wantRow {
			t.Errorf("run %s/%s:\n pipeline   %s\n recomputed %s", w.name(), w.arm, gotRow, wantRow)
		}
	}
}

// rcMoneyText formats pico-units with twelve decimals, like FloatString(12).
func rcMoneyText(m *tables.Money) string {
	if m == nil {
		return "null"
	}
	return new(big.Rat).SetFrac64(int64(*m), 1_000_000_000_000).FloatString(12)
}

func rcCompareScorecard(t *testing.T, want rcResult, sc rcScorecard) {
	// The scorecard averages each split apart; the evaluation preset
	// judges the evaluation tasks.
	evaluation := 0
	for _, a := range sc.EvidenceAndPlan.Arms {
		if a.Split != "evaluation" {
			continue
		}
		evaluation++
		if !rcEqual(rcObserved(a.Macro.Exact), want.macro[a.Arm]) {
			t.Errorf("scorecard evaluation macro median R of %s = %s, recomputed %s", a.Arm, a.Macro.Exact, want.macro[a.Arm].RatString())
		}
	}
	if evaluation == 0 {
		t.Error("scorecard has no evaluation-split macro-average")
	}
	for _, r := range sc.CostAndTime.Ratios {
		if !rcEqual(rcObserved(r.Cost.Ratio.Exact), want.costRatio) || !rcEqual(rcObserved(r.Time.Ratio.Exact), want.nsRatio) {
			t.Errorf("scorecard ratios of %s = cost %s time %s, recomputed %s and %s", r.Arm,
				r.Cost.Ratio.Exact, r.Time.Ratio.Exact, want.costRatio.RatString(), want.nsRatio.RatString())
		}
	}
	if len(sc.Gates) != len(want.gates) {
		t.Fatalf("scorecard has %d gates, recomputation %d", len(sc.Gates), len(want.gates))
	}
	for i, w := range want.gates {
		g := sc.Gates[i]
		if g.Gate != w.name || g.Pass != w.pass || !rcEqual(rcObserved(g.Observed), w.observed) || !slices.Equal(g.Failing, rcNonNil(w.failing)) {
			t.Errorf("scorecard gate %s pass=%t observed=%s failing=%v; recomputed %s pass=%t observed=%s failing=%v",
				g.Gate, g.Pass, g.Observed, g.Failing, w.name, w.pass, w.observed.RatString(), w.failing)
		}
	}
	if sc.Decision.Decision != want.decision || !slices.Equal(sc.Decision.FailingGates, rcNonNil(want.failingGates)) {
		t.Errorf("scorecard decision %s failing %v; recomputed %s failing %v", sc.Decision.Decision, sc.Decision.FailingGates, want.decision, want.failingGates)
	}
}

func rcNonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// TestRecomputeExample recomputes the embedded example from its raw files
// and requires the pipeline, run through the CLI, to agree on every run,
// gate and the decision.
func TestRecomputeExample(t *testing.T) {
	dir := rcCopyExample(t)
	want := recompute(t, dir)
	t.Run("hand-computed", func(t *testing.T) {
		// fixtures.PairedReview, computed by hand from the generator's plan:
		// A (4/5+2/3+4/5+3/4+5/6+1/2+1+4/5)/8 = 123/160, B 151/160.
		for arm, text := range map[string]string{"A": "123/160", "B": "151/160"} {
			if !rcEqual(want.macro[arm], rcObserved(text)) {
				t.Errorf("recomputed macro R of %s = %s, hand computation %s", arm, want.macro[arm].RatString(), text)
			}
		}
		if want.decision != "do_not_advance" {
			t.Errorf("recomputed decision %s, the example is built to be do_not_advance", want.decision)
		}
	})
	t.Run("rate card", func(t *testing.T) {
		// A2: 3,000,000 input and 600,000 output at US$4 and US$20 per
		// million: 12 + 12 = 24 exactly.
		c := rcDecode(t, dir)
		var r rcReceipt
		r.SessionID = "ceiling"
		r.Meter = &struct {
			Shape    string `json:"shape"`
			RateCard string `json:"rate_card"`
			Usage    struct {
				InputTokens  int64 `json:"input_tokens"`
				InputDetails struct {
					Cached int64 `json:"cached_tokens"`
				} `json:"input_tokens_details"`
				OutputTokens int64 `json:"output_tokens"`
			} `json:"usage"`
		}{Shape: "openai.responses", RateCard: c.m.RateCards[0].ID}
		r.Meter.Usage.InputTokens, r.Meter.Usage.OutputTokens = 3_000_000, 600_000
		if got := c.sessionCost(t, r); got.Cmp(big.NewRat(24, 1)) != 0 {
			t.Errorf("cost of the campaign ceilings = %s, want 24", got.RatString())
		}
	})
	got := rcRunPipeline(t, dir, t.TempDir())
	rcCompare(t, want, got)
	t.Run("session costs", func(t *testing.T) {
		c := rcDecode(t, dir)
		for _, tok := range got.tokens {
			for _, r := range c.receipts {
				if r.SessionID == tok.SessionID && rcMoneyText(tok.ReferenceCost) != c.sessionCost(t, r).FloatString(12) {
					t.Errorf("session %s reference cost %s, recomputed %s", r.SessionID, rcMoneyText(tok.ReferenceCost), c.sessionCost(t, r).FloatString(12))
				}
			}
		}
	})
}

// anyList is xs as JSON decodes an array into any: never nil.
func anyList(xs []string) []any {
	out := []any{}
	for _, x := range xs {
		out = append(out, x)
	}
	return out
}
