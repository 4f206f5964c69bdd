package main

// An independent recomputation of the report's system-comparison figures
// (cold first task, warm part, whole suite per system) from the raw
// receipts and the rate card alone, with its own decoding and arithmetic:
// nothing here calls the stages.

import (
	"bytes"
	stdjson "encoding/json"
	"io/fs"
	"math/big"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/cmd/evalgate/internal/cli"
	"github.com/evalgate/evalgate/fixtures"
)

type scReceipt struct {
	SessionID  string  `json:"session_id"`
	TaskID     string  `json:"task_id"`
	Repetition int64   `json:"repetition"`
	Role       string  `json:"role"`
	Arm        *string `json:"arm"`
	MonoStart  *int64  `json:"monotonic_start_ns"`
	MonoEnd    *int64  `json:"monotonic_end_ns"`
	Validation int64   `json:"validation_ms"`
	Meter      *struct {
		Usage struct {
			Uncached int64 `json:"uncached_input"`
			Cached   int64 `json:"cached_input"`
			Output   int64 `json:"output"`
		} `json:"usage"`
	} `json:"meter"`
	ToolCalls []struct {
		Charge *string `json:"charge"`
	} `json:"tool_calls"`
}

// scCost is the reference cost of one receipt in currency units: rule A2's
// formula at the example's frozen card (4 / 0.40 / 20 USD per
// million), plus its tool charges.
func scCost(t *testing.T, r scReceipt) *big.Rat {
	total := new(big.Rat)
	if r.Meter != nil {
		u := r.Meter.Usage
		total.Add(total, big.NewRat(4*u.Uncached, 1_000_000))
		total.Add(total, big.NewRat(4*u.Cached, 10_000_000))
		total.Add(total, big.NewRat(20*u.Output, 1_000_000))
	}
	for _, c := range r.ToolCalls {
		if c.Charge != nil {
			total.Add(total, rcRat(t, *c.Charge))
		}
	}
	return total
}

// scNS is one receipt's duration plus its validation time.
func scNS(r scReceipt) *big.Rat {
	ns := r.Validation * 1_000_000
	if r.MonoStart != nil && r.MonoEnd != nil {
		ns += *r.MonoEnd - *r.MonoStart
	}
	return big.NewRat(ns, 1)
}

// TestSystemComparisonFiguresFromReceipts runs the green example through
// evalgate run and recomputes every system's whole suite, cold setups,
// warm part and cold first tasks from receipts.jsonl; the scorecard's
// exact strings must be equal and report.md must show them.
func TestSystemComparisonFiguresFromReceipts(t *testing.T) {
	src, ok := fixtures.Example("system-comparison-green")
	if !ok {
		t.Fatal("no green example")
	}
	data, err := fs.ReadFile(src, "receipts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		task string
		rep  int64
		arm  string
	}
	suiteCost, suiteNS := map[string]*big.Rat{}, map[string]*big.Rat{}
	setupCost, setupNS := map[string]*big.Rat{}, map[string]*big.Rat{}
	workCost, workNS := map[key]*big.Rat{}, map[key]*big.Rat{}
	preps := map[key]scReceipt{}
	add := func(m map[string]*big.Rat, k string, v *big.Rat) {
		if m[k] == nil {
			m[k] = new(big.Rat)
		}
		m[k].Add(m[k], v)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r scReceipt
		if err := stdjson.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		if r.Arm == nil {
			continue
		}
		cost, ns := scCost(t, r), scNS(r)
		add(suiteCost, *r.Arm, cost)
		add(suiteNS, *r.Arm, ns)
		k := key{r.TaskID, r.Repetition, *r.Arm}
		switch r.Role {
		case "preparation":
			add(setupCost, *r.Arm, cost)
			add(setupNS, *r.Arm, ns)
			preps[k] = r
		case "investigation", "review":
			if workCost[k] == nil {
				workCost[k], workNS[k] = new(big.Rat), new(big.Rat)
			}
			workCost[k].Add(workCost[k], cost)
			workNS[k].Add(workNS[k], ns)
		}
	}

	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := cli.Main([]string{"run", "--example", "system-comparison-green", "--out", out, "--no-intervals", "--json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("run exited %d: %s", code, stderr.String())
	}
	var raw struct {
		SystemComparison struct {
			Systems []map[string]any `json:"systems"`
			Setups  []map[string]any `json:"setups"`
		} `json:"system_comparison"`
	}
	b := rcReadFile(t, out, "scorecard.json")
	if err := stdjson.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.SystemComparison.Systems) != 3 || len(raw.SystemComparison.Setups) != 9 {
		t.Fatalf("%d systems, %d setups; want 3 and 9", len(raw.SystemComparison.Systems), len(raw.SystemComparison.Setups))
	}
	eq := func(what string, got any, want *big.Rat) {
		t.Helper()
		s, ok := got.(string)
		if !ok {
			t.Errorf("%s: %v is not an exact string", what, got)
			return
		}
		if rcRat(t, s).Cmp(want) != 0 {
			t.Errorf("%s = %s, recomputed %s", what, s, want.FloatString(12))
		}
	}
	report := string(rcReadFile(t, out, "report.md"))
	for _, s := range raw.SystemComparison.Systems {
		sys := s["system"].(string)
		eq(sys+" whole-suite cost", s["whole_suite_cost"], suiteCost[sys])
		eq(sys+" whole-suite ns", s["whole_suite_ns"], suiteNS[sys])
		eq(sys+" setup cost", s["setup_cost"], setupCost[sys])
		eq(sys+" setup ns", s["setup_ns"], setupNS[sys])
		eq(sys+" warm cost", s["warm_cost"], new(big.Rat).Sub(suiteCost[sys], setupCost[sys]))
		eq(sys+" warm ns", s["warm_ns"], new(big.Rat).Sub(suiteNS[sys], setupNS[sys]))
		// report.md shows money to four decimals, halves away from zero
		// (big.Rat.FloatString's rounding); scorecard.json keeps it exact.
		if shown := suiteCost[sys].FloatString(4); !strings.Contains(report, "| "+sys+" | ") || !strings.Contains(report, " "+shown+" |") {
			t.Errorf("report.md does not show %s's whole-suite cost %s", sys, shown)
		}
	}
	for _, s := range raw.SystemComparison.Setups {
		k := key{s["cold_task"].(string), int64(s["cold_repetition"].(float64)), s["system"].(string)}
		p, ok := preps[k]
		if !ok || p.SessionID != s["setup_session_id"] {
			t.Errorf("setup %v: no preparation receipt charged to %v", s["setup_session_id"], k)
			continue
		}
		cold := new(big.Rat).Add(workCost[k], scCost(t, p))
		coldNS := new(big.Rat).Add(workNS[k], scNS(p))
		eq(p.SessionID+" cold first-task cost", s["cold_first_task_cost"], cold)
		eq(p.SessionID+" cold first-task ns", s["cold_first_task_ns"], coldNS)
		eq(p.SessionID+" warm first-task cost", s["warm_first_task_cost"], workCost[k])
		eq(p.SessionID+" warm first-task ns", s["warm_first_task_ns"], workNS[k])
		if shown := cold.FloatString(4); !strings.Contains(report, " "+shown+" |") {
			t.Errorf("report.md does not show the cold first-task cost %s of %s", shown, p.SessionID)
		}
	}
	if !strings.Contains(report, "### System comparison") {
		t.Error("report.md has no system-comparison section")
	}
}
