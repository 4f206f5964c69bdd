package main

// Policy tests: the frozen gate policy in the manifest drives the
// decision, threshold by threshold, through the CLI; and no gate or
// decision depends on the exploratory intervals.

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures/controls"
	"github.com/evalgate/evalgate/tables"
)

// policyEdit sets gate_policy.thresholds of the manifest.
func policyEdit(overrides ...tables.Threshold) func(*controls.Campaign) error {
	return func(c *controls.Campaign) error {
		return c.EditManifest(func(m *tables.Manifest) { m.GatePolicy.Thresholds = overrides })
	}
}

// relaxed lowers (or raises, for upper bounds) every threshold the
// example fails to just admit its observed value, recomputed by
// recompute_test.go: g1 observes 2 failing B runs, g2_task_floor 0.75,
// g3_max_task_drop 0.25, g4 2 runs, cost/time aggregate ratios ≈1.165 and
// ≈1.179, task-median ratios ≈1.3295 and ≈1.3304, pair ratios ≈1.4782
// and ≈1.5289. Every other gate already passes.
var relaxed = []tables.Threshold{
	{Name: "g1_critical_source", Value: "2"}, {Name: "g2_task_floor", Value: "0.75"},
	{Name: "g3_max_task_drop", Value: "0.25"}, {Name: "g4_protocol", Value: "2"},
	{Name: "g5_cost_aggregate", Value: "1.2"}, {Name: "g5_time_aggregate", Value: "1.2"},
	{Name: "g5_cost_task", Value: "1.34"}, {Name: "g5_time_task", Value: "1.34"},
	{Name: "g5_cost_pair", Value: "1.53"}, {Name: "g5_time_pair", Value: "1.53"},
}

// with returns relaxed with one threshold replaced or added.
func with(name, value string) []tables.Threshold {
	out := slices.DeleteFunc(slices.Clone(relaxed), func(t tables.Threshold) bool { return t.Name == name })
	return append(out, tables.Threshold{Name: name, Value: value})
}

// exampleFailing are the gates the unmodified example fails (recomputed).
const exampleFailing = "g1_critical_source,g2_task_floor,g3_max_task_drop,g4_protocol,g5_cost_aggregate,g5_time_aggregate,g5_cost_task,g5_time_task,g5_cost_pair,g5_time_pair"

func TestPolicyThresholds(t *testing.T) {
	cases := []struct {
		name       string
		thresholds []tables.Threshold
		decision   string
		failing    string
	}{
		{"frozen preset", nil, "do_not_advance", exampleFailing},
		{"every failing bound relaxed to its observation", relaxed, "advance", ""},
		// Thresholds are inclusive: 0.25 admits a drop of exactly 0.25,
		// 0.24 does not.
		{"task drop bound just below the drop", with("g3_max_task_drop", "0.24"), "do_not_advance", "g3_max_task_drop"},
		// Macro-average B = 151/160 = 0.94375.
		{"macro floor raised above B's macro-average", with("g2_macro_floor", "0.95"), "do_not_advance", "g2_macro_floor"},
		{"macro floor at B's macro-average", with("g2_macro_floor", "0.94375"), "advance", ""},
		// Gain = 151/160 − 123/160 = 0.175: below 0.18 the mechanism stops.
		{"gain bound above the gain", with("g3_macro_gain", "0.18"), "stop_no_gain", "g3_macro_gain"},
		// Six tasks improve.
		{"seven improved tasks required", with("g3_improved_tasks", "7"), "do_not_advance", "g3_improved_tasks"},
		{"one pair bound restored", with("g5_time_pair", "1.25"), "do_not_advance", "g5_time_pair"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := semCampaign(t, policyEdit(tc.thresholds...))
			want := recompute(t, dir)
			if want.decision != tc.decision || strings.Join(want.failingGates, ",") != tc.failing {
				t.Fatalf("recomputed %s failing %v; hand expectation %s failing %q", want.decision, want.failingGates, tc.decision, tc.failing)
			}
			got := rcRunPipeline(t, dir, t.TempDir())
			if got.summary["admissible"] != true || got.summary["rejecting_findings"] != float64(0) {
				t.Errorf("a threshold edit must keep the campaign admissible: %v", got.summary)
			}
			rcCompare(t, want, got)
		})
	}
}

// TestGatesIgnoreIntervals: gates.parquet and decision.parquet are
// byte-identical with and without intervals, and their rows identical
// under an absurd interval plan (whose manifest, hence the campaign
// identity in every file's metadata, differs).
func TestGatesIgnoreIntervals(t *testing.T) {
	dir := rcCopyExample(t)
	absurd := semCampaign(t, func(c *controls.Campaign) error {
		return c.EditManifest(func(m *tables.Manifest) {
			m.Intervals = tables.IntervalPlan{Cluster: "repository", Resamples: 1, Seed: 4242}
		})
	})
	outs := map[string]string{"default": t.TempDir(), "no-intervals": t.TempDir(), "absurd": t.TempDir()}
	rcRunPipeline(t, dir, outs["default"])
	rcRunPipeline(t, dir, outs["no-intervals"], "--no-intervals")
	rcRunPipeline(t, absurd, outs["absurd"])
	for _, name := range []string{"gates.parquet", "decision.parquet"} {
		t.Run(name+" bytes", func(t *testing.T) {
			a, b := rcReadFile(t, outs["default"], name), rcReadFile(t, outs["no-intervals"], name)
			if !bytes.Equal(a, b) {
				t.Errorf("%s differs between the default run and --no-intervals", name)
			}
		})
	}
	t.Run("rows under an absurd plan", func(t *testing.T) {
		for _, name := range []string{"gates.parquet", "decision.parquet"} {
			var a, b any
			if name == "gates.parquet" {
				a, b = rcReadTable[tables.Gate](t, outs["default"], name), rcReadTable[tables.Gate](t, outs["absurd"], name)
			} else {
				a, b = rcReadTable[tables.Decision](t, outs["default"], name), rcReadTable[tables.Decision](t, outs["absurd"], name)
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s rows differ under the absurd interval plan:\n%v\n%v", name, a, b)
			}
		}
	})
	t.Run("the plans took effect", func(t *testing.T) {
		if n := len(rcReadTable[tables.Interval](t, outs["no-intervals"], "intervals.parquet")); n != 0 {
			t.Errorf("--no-intervals wrote %d interval rows", n)
		}
		for _, iv := range rcReadTable[tables.Interval](t, outs["absurd"], "intervals.parquet") {
			if iv.Resamples == 10000 || iv.Seed != 4242 {
				t.Fatalf("absurd plan ignored: interval row %+v", iv)
			}
		}
		if bytes.Equal(rcReadFile(t, outs["default"], "intervals.parquet"), rcReadFile(t, outs["absurd"], "intervals.parquet")) {
			t.Error("intervals.parquet is the same under both plans")
		}
	})
}

func rcReadFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
