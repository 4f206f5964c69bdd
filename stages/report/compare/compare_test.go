package compare

import (
	"bytes"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/aggregate"
	"github.com/evalgate/evalgate/stages/report"
	"github.com/evalgate/evalgate/stages/report/internal/fixture"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// figuresOf runs the aggregate stage on the runs of s, as the pipeline
// does, for the figures the reports format.
func figuresOf(c *tables.Campaign, s *tables.Set) tables.Figures {
	return aggregate.Run(c, tables.Validated{Sessions: s.Sessions}, tables.Accounted{Tokens: s.Tokens}, tables.Scored{Runs: s.Runs}).Figures
}

// writeOutput writes the fixture, edited by edit, into a new directory.
func writeOutput(t testing.TB, edit func(*tables.Campaign, *tables.Set)) string {
	t.Helper()
	c, s := fixture.Campaign(), fixture.Set(t)
	for i := range s.Tasks {
		s.Tasks[i].MedianRExact = nil
	}
	s.Tasks[0].MedianRExact = fixture.Ptr("5/8") // T1 A: median(3/4, 2/4)
	if edit != nil {
		edit(c, s)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := report.Write(dir, c, s, figuresOf(c, s), report.Meta{ToolVersion: "t"}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func compare(t *testing.T, old, nw string, tol string) *Comparison {
	t.Helper()
	r, ok := new(big.Rat).SetString(tol)
	if !ok {
		t.Fatalf("bad tolerance %q", tol)
	}
	c, err := Dirs(old, nw, Options{Tolerance: r})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// find returns the difference of kind, key and field, or nil.
func find(c *Comparison, kind, key, field string) *Difference {
	for i, d := range c.Differences {
		if d.Kind == kind && d.Key == key && d.Field == field {
			return &c.Differences[i]
		}
	}
	return nil
}

func str(d *string) string {
	if d == nil {
		return "<nil>"
	}
	return *d
}

func TestCompareIdentical(t *testing.T) {
	dir := writeOutput(t, nil)
	c := compare(t, dir, dir, "0")
	if c.Changed || len(c.Differences) != 0 {
		t.Errorf("an output compared with itself changed: %+v", c.Differences)
	}
	if c.ScorecardVersion != scorecard.Version || c.Old.Decision != "do_not_advance" {
		t.Errorf("sides: %+v", c)
	}
}

// TestCompareGateAndDecision: a gate that passes where it failed and a
// decision that advances are better; its failing list is a change; a
// tolerance never excuses either.
func TestCompareGateAndDecision(t *testing.T) {
	old := writeOutput(t, nil)
	nw := writeOutput(t, func(_ *tables.Campaign, s *tables.Set) {
		s.Gates[1].Pass, s.Gates[1].Failing = true, nil
		s.Decision[0] = tables.Decision{Decision: "advance", Arm: "B"}
	})
	c := compare(t, old, nw, "1")
	for _, w := range []struct {
		kind, key, field, old, new string
		dir                        Direction
	}{
		{DiffDecision, "", "decision", "do_not_advance", "advance", Better},
		{DiffDecision, "", "failing_gates", "g2_quality", "", Changed},
		{DiffGate, "g2_quality B", "pass", "false", "true", Better},
		{DiffGate, "g2_quality B", "failing", "T1,T2", "", Changed},
	} {
		t.Run(w.kind+"/"+w.key+"/"+w.field, func(t *testing.T) {
			d := find(c, w.kind, w.key, w.field)
			if d == nil || str(d.Old) != w.old || str(d.New) != w.new || !d.Beyond || d.Direction != w.dir {
				t.Errorf("got %+v, want %s → %s beyond tolerance, %s", d, w.old, w.new, w.dir)
			}
		})
	}
	if !c.Changed || c.Regressed || c.Result != "better" || c.PolicyChanged {
		t.Errorf("changed %v, regressed %v, result %q, policy changed %v; want a better comparison", c.Changed, c.Regressed, c.Result, c.PolicyChanged)
	}
	back := compare(t, nw, old, "1")
	if !back.Regressed || !back.DecisionWorse || back.Result != "regression" || len(back.Fails(FailOnDecisionWorse)) != 1 {
		t.Errorf("advance → do_not_advance: regressed %v, decision worse %v, result %q", back.Regressed, back.DecisionWorse, back.Result)
	}
}

// TestComparePolicyChange: a threshold moved (even loosened), a gate on
// one side only and a ceiling's limit are the policy's numbers: the
// outputs are not comparable, and every such number is listed; allowed,
// each is a policy change, and the decision and the pass of the gate
// whose threshold moved have no direction (a looser threshold is no
// improvement).
func TestComparePolicyChange(t *testing.T) {
	limit, looser, use := int64(3_000_000), int64(3_000_001), int64(2_000_000)
	held := true
	old := writeOutput(t, func(_ *tables.Campaign, s *tables.Set) {
		s.Ceilings = []tables.Ceiling{{Ceiling: "input_tokens", Unit: "tokens", Limit: &limit, Use: &use, Held: &held}}
	})
	nw := writeOutput(t, func(_ *tables.Campaign, s *tables.Set) {
		s.Gates[1].Threshold, s.Gates[1].Pass, s.Gates[1].Failing = ">= 0.80", true, nil
		s.Gates = append(s.Gates, tables.Gate{Gate: "g9_new", Arm: "B", Pass: true})
		s.Decision[0] = tables.Decision{Decision: "advance", Arm: "B"}
		s.Ceilings = []tables.Ceiling{{Ceiling: "input_tokens", Unit: "tokens", Limit: &looser, Use: &use, Held: &held}}
	})
	_, err := Dirs(old, nw, Options{})
	var pe *PolicyError
	if !errors.As(err, &pe) || !errors.Is(err, ErrPolicyChange) {
		t.Fatalf("err %v, want a PolicyError", err)
	}
	var listed []string
	for _, d := range pe.Changes {
		listed = append(listed, d.Line())
	}
	want := []string{
		`policy_change ceiling input_tokens limit: 3,000,000 tokens -> 3,000,001 tokens (delta +1 tokens)`,
		`policy_change gate g2_quality B threshold: ">= 0.90" -> ">= 0.80" (delta -0.1)`,
		`policy_change gate g9_new B present: false -> true`,
	}
	if strings.Join(listed, "\n") != strings.Join(want, "\n") {
		t.Errorf("listed:\n%s\nwant:\n%s", strings.Join(listed, "\n"), strings.Join(want, "\n"))
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error does not list %q: %v", w, err)
		}
	}
	c, err := Dirs(old, nw, Options{AllowPolicyChange: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		kind, key, field string
		dir              Direction
	}{
		{DiffDecision, "", "decision", Changed},
		{DiffGate, "g2_quality B", "pass", Changed},
		{DiffGate, "g2_quality B", "threshold", PolicyChange},
		{DiffGate, "g9_new B", "present", PolicyChange},
		{DiffCeiling, "input_tokens", "limit", PolicyChange},
	} {
		if d := find(c, w.kind, w.key, w.field); d == nil || d.Direction != w.dir {
			t.Errorf("%s %s %s: %+v, want %s", w.kind, w.key, w.field, d, w.dir)
		}
	}
	if !c.PolicyChanged || c.Counts.PolicyChange != 3 || c.Counts.Better != 0 || c.Result != "changed" {
		t.Errorf("policy changed %v, counts %+v, result %q; want 3 policy changes, nothing better", c.PolicyChanged, c.Counts, c.Result)
	}
	if same := writeOutput(t, func(_ *tables.Campaign, s *tables.Set) { s.Gates[1].Threshold = ">= 0.9" }); true {
		if _, err := Dirs(writeOutput(t, nil), same, Options{}); err != nil {
			t.Errorf(">= 0.90 and >= 0.9 are the same threshold: %v", err)
		}
	}
}

func TestCompareMetrics(t *testing.T) {
	old := writeOutput(t, nil)
	nw := writeOutput(t, func(_ *tables.Campaign, s *tables.Set) {
		s.Tasks[0].MedianRExact = fixture.Ptr("0.63") // 5/8 = 0.625 → delta 0.005
		fixture.EditRuns(s, func(runs []tables.Run) {
			runs[6].RNum = 2                                // T2 r1 B: 3/3 → 2/3
			runs[2].WorkflowCost = fixture.Money(t, "1.20") // T1 B: median(1.10, 1.30) = 1.20 →
			runs[3].WorkflowCost = fixture.Money(t, "1.40") // median(1.20, 1.40) = 1.30
		})
	})
	// Macro R of B: before (7/8 + median(3/3, 2/3)) / 2 = (21/24 + 20/24) / 2 = 41/48;
	// after (7/8 + 2/3) / 2 = 37/48; delta −4/48 = −1/12 (no terminating decimal).
	// Cost ratio B/A: Σ B / Σ A over exact task medians, T2 B being
	// median(2.10, 2.000000000001) = 2.0500000000005: (1.20 + 2.0500000000005) /
	// (1.10 + 2.00) = 6500000000001/6200000000000 before,
	// (1.30 + 2.0500000000005) / 3.10 = 6700000000001/6200000000000 after;
	// delta 0.10 / 3.10 = 1/31.
	cases := []struct {
		name, tol, kind, key, field, old, new, delta string
		beyond                                       bool
	}{
		{"task_r_within", "0.01", DiffTaskMedianR, "T1 A", "median_r", "5/8", "0.63", "0.005", false},
		{"task_r_at_tolerance", "0.005", DiffTaskMedianR, "T1 A", "median_r", "5/8", "0.63", "0.005", false},
		{"task_r_beyond", "0.004", DiffTaskMedianR, "T1 A", "median_r", "5/8", "0.63", "0.005", true},
		{"macro_r", "0.08", DiffMacro, "B evaluation", "macro_median_r", "41/48", "37/48", "-1/12", true},
		{"macro_r_within", "0.09", DiffMacro, "B evaluation", "macro_median_r", "41/48", "37/48", "-1/12", false},
		{"cost_ratio", "0", DiffRatio, "B evaluation", "cost", "6500000000001/6200000000000", "6700000000001/6200000000000", "1/31", true},
	}
	for _, w := range cases {
		t.Run(w.name, func(t *testing.T) {
			d := find(compare(t, old, nw, w.tol), w.kind, w.key, w.field)
			if d == nil || str(d.Old) != w.old || str(d.New) != w.new || str(d.Delta) != w.delta || d.Beyond != w.beyond {
				t.Errorf("got %+v, want %s → %s (delta %s, beyond %v)", d, w.old, w.new, w.delta, w.beyond)
			}
		})
	}
	t.Run("within_tolerance_not_changed", func(t *testing.T) {
		if c := compare(t, old, nw, "0.1"); c.Changed {
			t.Errorf("every move is within 0.1 but the comparison changed: %+v", c.Differences)
		}
	})
	t.Run("same_number_other_spelling", func(t *testing.T) {
		a := writeOutput(t, func(_ *tables.Campaign, s *tables.Set) { s.Tasks[0].MedianRExact = fixture.Ptr("0.625") })
		if d := find(compare(t, old, a, "0"), DiffTaskMedianR, "T1 A", "median_r"); d != nil {
			t.Errorf("5/8 and 0.625 reported as different: %+v", d)
		}
	})
	t.Run("null_vs_value_beyond_any_tolerance", func(t *testing.T) {
		a := writeOutput(t, func(_ *tables.Campaign, s *tables.Set) { s.Tasks[0].MedianRExact = nil })
		d := find(compare(t, old, a, "100"), DiffTaskMedianR, "T1 A", "median_r")
		if d == nil || d.New != nil || !d.Beyond {
			t.Errorf("a median becoming unknown: %+v", d)
		}
	})
}

func TestCompareErrors(t *testing.T) {
	good := writeOutput(t, nil)
	variant := func(t *testing.T, edit func(dir string)) string {
		dir := filepath.Join(t.TempDir(), "v")
		if err := os.CopyFS(dir, os.DirFS(good)); err != nil {
			t.Fatal(err)
		}
		edit(dir)
		return dir
	}
	sc := filepath.Join(good, scorecard.File)
	scBytes, _ := os.ReadFile(sc)
	for _, c := range []struct {
		name string
		dir  func(t *testing.T) string
		want error // nil: an I/O failure, neither sentinel
	}{
		{"missing_dir", func(t *testing.T) string { return filepath.Join(t.TempDir(), "nope") }, ErrNotOutput},
		{"empty_dir", func(t *testing.T) string { return t.TempDir() }, ErrNotOutput},
		{"scorecard_not_json", func(t *testing.T) string {
			return variant(t, func(d string) { os.WriteFile(filepath.Join(d, scorecard.File), []byte("{"), 0o644) })
		}, ErrNotOutput},
		{"scorecard_without_version", func(t *testing.T) string {
			return variant(t, func(d string) { os.WriteFile(filepath.Join(d, scorecard.File), []byte("{}"), 0o644) })
		}, ErrNotOutput},
		{"missing_gates_table", func(t *testing.T) string {
			return variant(t, func(d string) { os.Remove(filepath.Join(d, "gates.parquet")) })
		}, ErrNotOutput},
		{"other_version", func(t *testing.T) string {
			return variant(t, func(d string) {
				os.WriteFile(filepath.Join(d, scorecard.File), bytes.Replace(scBytes, []byte("scorecard/v1"), []byte("scorecard/v0"), 1), 0o644)
			})
		}, ErrVersionMismatch},
		{"corrupt_tasks_table", func(t *testing.T) string {
			return variant(t, func(d string) { os.WriteFile(filepath.Join(d, "tasks.parquet"), []byte("PAR1 garbage PAR1"), 0o644) })
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Dirs(good, c.dir(t), Options{})
			switch {
			case err == nil:
				t.Fatal("no error")
			case c.want != nil && !errors.Is(err, c.want):
				t.Errorf("err = %v, want %v", err, c.want)
			case c.want == nil && (errors.Is(err, ErrNotOutput) || errors.Is(err, ErrVersionMismatch)):
				t.Errorf("err = %v, want an I/O failure", err)
			}
		})
	}
	t.Run("negative_tolerance", func(t *testing.T) {
		if _, err := Dirs(good, good, Options{Tolerance: big.NewRat(-1, 100)}); err == nil {
			t.Error("negative tolerance accepted")
		}
	})
}

func TestParseExact(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // RatString, "" for rejected
	}{
		{"7/8", "7/8"}, {"0.875", "7/8"}, {"-2", "-2"}, {"1e999999999", ""}, {"0x10", ""}, {"1/0", ""}, {"", ""}, {"abc", ""},
	} {
		t.Run(c.in, func(t *testing.T) {
			r, ok := scorecard.ParseExact(c.in)
			got := ""
			if ok {
				got = r.RatString()
			}
			if got != c.want {
				t.Errorf("ParseExact(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// FuzzCompareScorecard feeds arbitrary scorecard.json bytes to Compare:
// it must return a result or an error, never panic.
func FuzzCompareScorecard(f *testing.F) {
	good := writeOutput(f, nil)
	sc, err := os.ReadFile(filepath.Join(good, scorecard.File))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range [][]byte{sc, []byte("{}"), []byte(`{"scorecard_version":"evalgate.scorecard/v1","gates":null}`), []byte("\xff")} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := filepath.Join(t.TempDir(), "v")
		if err := os.CopyFS(dir, os.DirFS(good)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, scorecard.File), data, 0o644); err != nil {
			t.Fatal(err)
		}
		Dirs(good, dir, Options{})
	})
}

// TestCompareRejectingFindingsAndCeilings: a rejecting finding that appears
// and a campaign ceiling whose outcome changes are changes without
// direction (the decision, no_verdict or not, says which way); a warning
// is not compared.
func TestCompareRejectingFindingsAndCeilings(t *testing.T) {
	limit, use, over := int64(3_000_000), int64(2_000_000), int64(3_000_001)
	held, exceeded := true, false
	old := writeOutput(t, func(c *tables.Campaign, s *tables.Set) {
		s.Ceilings = []tables.Ceiling{{Ceiling: "input_tokens", Unit: "tokens", Limit: &limit, Use: &use, Held: &held}}
	})
	nw := writeOutput(t, func(c *tables.Campaign, s *tables.Set) {
		s.Ceilings = []tables.Ceiling{{Ceiling: "input_tokens", Unit: "tokens", Limit: &limit, Use: &over, Held: &exceeded}}
		s.Rejections = append(s.Rejections,
			rules.Finding{Code: rules.CodeCeilingCampaignInput, Severity: rules.Reject, File: "manifest.json", Pointer: "/ceilings/campaign/input_tokens"},
			rules.Finding{Code: rules.CodeMeterMissing, Severity: rules.Warn, File: "receipts.jsonl", Line: 3, Session: "T1-r1-A"})
	})
	c := compare(t, old, nw, "0")
	if !c.Changed || c.Regressed {
		t.Fatalf("changed %v, regressed %v: want changed, no regression", c.Changed, c.Regressed)
	}
	if d := find(c, DiffRejecting, "ceiling_campaign_input manifest.json#/ceilings/campaign/input_tokens", "present"); d == nil || str(d.Old) != "false" || str(d.New) != "true" || !d.Beyond || d.Direction != Changed {
		t.Errorf("rejecting finding difference %+v in %+v", d, c.Differences)
	}
	if d := find(c, DiffCeiling, "input_tokens", "held"); d == nil || str(d.Old) != "true" || str(d.New) != "false" || d.Direction != Changed {
		t.Errorf("ceiling held difference %+v", d)
	}
	// 3,000,001 − 2,000,000
	if d := find(c, DiffCeiling, "input_tokens", "use"); d == nil || str(d.Old) != "2000000" || str(d.New) != "3000001" || str(d.Delta) != "1000001" || d.Direction != Changed {
		t.Errorf("ceiling use difference %+v", d)
	}
	for _, d := range c.Differences {
		if d.Kind == DiffRejecting && bytes.Contains([]byte(d.Key), []byte("meter_missing")) {
			t.Errorf("a warning was compared as a rejecting finding: %+v", d)
		}
	}
}

// TestCompareKindChange: outputs of different campaign kinds are not
// comparable.
func TestCompareKindChange(t *testing.T) {
	old := writeOutput(t, nil)
	nw := writeOutput(t, func(c *tables.Campaign, s *tables.Set) { c.Manifest.Kind = rules.KindSystemComparison })
	if _, err := Dirs(old, nw, Options{}); !errors.Is(err, ErrKindMismatch) {
		t.Fatalf("err %v, want ErrKindMismatch", err)
	}
}

// TestCompareDirection: an observation's direction follows its gate's
// comparison in the gate registry (">=": up is better; "<=": down is
// better); the candidate's (B's) task median R up is better; the
// baseline's (A's) own task median R is a change either way, and so is a
// cost ratio of no judged split.
func TestCompareDirection(t *testing.T) {
	gates := func(macro, cost string) func(*tables.Campaign, *tables.Set) {
		return func(_ *tables.Campaign, s *tables.Set) {
			s.Gates = append(s.Gates,
				tables.Gate{Gate: rules.GateMacroFloor, Arm: "B", Observed: macro, Threshold: ">= 0.75", Pass: true},
				tables.Gate{Gate: rules.GateCostAggregate, Arm: "B", Observed: cost, Threshold: "<= 1.25", Pass: true})
		}
	}
	old := writeOutput(t, gates("0.80", "1.10"))
	nw := writeOutput(t, func(c *tables.Campaign, s *tables.Set) {
		gates("0.85", "1.20")(c, s)                  // macro up (">="): better; cost up ("<="): worse
		s.Tasks[0].MedianRExact = fixture.Ptr("3/4") // T1 A (baseline) 5/8 → 3/4: a change
		s.Tasks[1].MedianRExact = fixture.Ptr("1/2") // T1 B (candidate) null → 1/2: a change (no number before)
	})
	c := compare(t, old, nw, "0")
	for _, w := range []struct {
		kind, key, field string
		dir              Direction
	}{
		{DiffGate, "g2_macro_floor B", "observed", Better},
		{DiffGate, "g5_cost_aggregate B", "observed", Worse},
		{DiffTaskMedianR, "T1 A", "median_r", Changed},
		{DiffTaskMedianR, "T1 B", "median_r", Changed},
	} {
		if d := find(c, w.kind, w.key, w.field); d == nil || d.Direction != w.dir {
			t.Errorf("%s %s %s: got %+v, want %s", w.kind, w.key, w.field, d, w.dir)
		}
	}
	if r := c.Fails(FailOnRegression); len(r) != 1 || r[0].Key != "g5_cost_aggregate B" {
		t.Errorf("regressions %+v, want the cost observation alone", r)
	}
	if r := c.Fails(FailOnDecisionWorse); len(r) != 0 {
		t.Errorf("the decision did not change, but decision-worse fails on %+v", r)
	}
	up := writeOutput(t, func(c *tables.Campaign, s *tables.Set) {
		gates("0.80", "1.10")(c, s)
		s.Tasks[1].MedianRExact = fixture.Ptr("1/2")
	})
	down := writeOutput(t, func(c *tables.Campaign, s *tables.Set) {
		gates("0.80", "1.10")(c, s)
		s.Tasks[1].MedianRExact = fixture.Ptr("1/4")
	})
	if d := find(compare(t, up, down, "0"), DiffTaskMedianR, "T1 B", "median_r"); d == nil || d.Direction != Worse || !d.Regression() {
		t.Errorf("the candidate's task median R 1/2 → 1/4: %+v, want a regression", d)
	}
}

// withPolicy rewrites dir's scorecard.json with the member policy set to
// doc (the shape the policy stage writes), or removed when doc is "".
func withPolicy(t *testing.T, dir, doc string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "p")
	if err := os.CopyFS(out, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(out, scorecard.File)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]jsontext.Value
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, policyMember)
	if doc != "" {
		m[policyMember] = jsontext.Value(doc)
	}
	if data, err = json.Marshal(m, json.Deterministic(true)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestComparePolicyMember: the scorecard's policy names the policy and
// every number it applied; two outputs whose ID, custom flag or any
// number's value differ are not comparable, each difference listed once
// (a threshold is listed on its gate row, a campaign ceiling's limit on
// its ceiling row, so neither is listed again from the policy). The same
// policy compares as before.
func TestComparePolicyMember(t *testing.T) {
	const preset = `{"id": "paired-review-evaluation-v1", "custom": false, "label": "preset", "numbers": [
		{"field": "/gate_policy/thresholds/g2_quality", "kind": "threshold", "name": "g2_quality", "value": "0.90", "preset_value": "0.90"},
		{"field": "/ceilings/session/wall_ms", "kind": "ceiling", "name": "session/wall_ms", "value": "240000", "preset_value": "240000"},
		{"field": "/identities/cli_version", "kind": "pin", "name": "cli_version", "value": "0.149.0", "preset_value": "0.149.0"}],
		"evaluator": {"version": "0.1.0"}}`
	const custom = `{"id": "loose-v1", "custom": true, "label": "custom policy loose-v1", "numbers": [
		{"field": "/gate_policy/thresholds/g2_quality", "kind": "threshold", "name": "g2_quality", "value": "0.80", "preset_value": null},
		{"field": "/ceilings/session/wall_ms", "kind": "ceiling", "name": "session/wall_ms", "value": "300000", "preset_value": null},
		{"field": "/identities/cli_version", "kind": "pin", "name": "cli_version", "value": "0.149.0", "preset_value": "0.149.0"}],
		"evaluator": {"version": "0.2.0"}}`
	base := writeOutput(t, nil)
	old := withPolicy(t, base, preset)
	if c, err := Dirs(old, withPolicy(t, base, strings.ReplaceAll(preset, `"0.1.0"`, `"0.2.0"`)), Options{}); err != nil || c.Changed || c.New.Policy != "preset" {
		t.Errorf("the same policy (another evaluator version): %v, changed %v", err, c != nil && c.Changed)
	}
	_, err := Dirs(old, withPolicy(t, base, custom), Options{})
	var pe *PolicyError
	if !errors.As(err, &pe) {
		t.Fatalf("err %v, want a PolicyError", err)
	}
	var listed []string
	for _, d := range pe.Changes {
		listed = append(listed, d.Line())
	}
	want := []string{
		`policy_change policy id: "paired-review-evaluation-v1" -> "loose-v1"`,
		`policy_change policy custom: false -> true`,
		`policy_change policy session/wall_ms ceiling: "240000" -> "300000" (delta 60000)`,
	}
	if strings.Join(listed, "\n") != strings.Join(want, "\n") {
		t.Errorf("listed:\n%s\nwant:\n%s", strings.Join(listed, "\n"), strings.Join(want, "\n"))
	}
	if _, err := Dirs(base, old, Options{}); !errors.Is(err, ErrPolicyChange) {
		t.Errorf("one output names its policy, the other none: err %v, want ErrPolicyChange", err)
	}
}
