package cli

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/parquet-go/parquet-go"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/tables"
)

// mainCmd runs the CLI in-process and returns its exit code and output.
func mainCmd(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// copyExample writes the embedded example name into a temporary
// directory and returns it.
func copyExample(t *testing.T, name string) string {
	t.Helper()
	src, ok := fixtures.Example(name)
	if !ok {
		t.Fatalf("no example %s", name)
	}
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, src); err != nil {
		t.Fatal(err)
	}
	return dir
}

// policyTwin writes the paired-review example with every threshold of
// thresholds (gate → value) in its manifest's gate_policy: the same
// campaign judged under other numbers.
func policyTwin(t *testing.T, thresholds map[string]string) string {
	t.Helper()
	dir := copyExample(t, "paired-review")
	path := filepath.Join(dir, "manifest.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m tables.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m.GatePolicy.Custom = "compare-threshold-probe" // a preset's thresholds are frozen (rule F1)
	for _, g := range slices.Sorted(maps.Keys(thresholds)) {
		m.GatePolicy.Thresholds = append(m.GatePolicy.Thresholds, tables.Threshold{Name: g, Value: thresholds[g]})
	}
	data, err = json.Marshal(m, jsontext.WithIndent("  "))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// withMoreOutput writes the paired-review-green example with one review's
// billed output raised by extra tokens (its usage total with it): the
// review of arm on the repetition of task whose complete workflow costs
// most for that arm in green's run output (runs), so that the task's
// median cost stays and only that run's own cost moves.
func withMoreOutput(t *testing.T, runs, task, arm string, extra int64) string {
	t.Helper()
	rows, err := parquet.ReadFile[tables.Run](filepath.Join(runs, "runs.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	var top *tables.Run
	costs := map[int64]tables.Money{}
	for i, r := range rows {
		if r.TaskID != task || r.Arm != arm || r.WorkflowCost == nil {
			continue
		}
		costs[r.Repetition] = *r.WorkflowCost
		if top == nil || *r.WorkflowCost > *top.WorkflowCost {
			top = &rows[i]
		}
	}
	for rep, c := range costs {
		if rep != top.Repetition && c >= *top.WorkflowCost {
			t.Fatalf("%s %s: repetition %d costs as much as %d; pick a task whose costliest run is alone", task, arm, rep, top.Repetition)
		}
	}
	dir := copyExample(t, "paired-review-green")
	path := filepath.Join(dir, "receipts.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	session := fmt.Sprintf(`"session_id":"%s-r%d-%s"`, task, top.Repetition, arm)
	lines := strings.SplitAfter(string(data), "\n")
	edited := 0
	for i, line := range lines {
		if !strings.Contains(line, session) {
			continue
		}
		var r struct {
			Meter struct {
				Usage struct {
					Output int64 `json:"output_tokens"`
					Total  int64 `json:"total_tokens"`
				} `json:"usage"`
			} `json:"meter"`
		}
		if err := json.Unmarshal([]byte(strings.TrimSpace(line)), &r, json.RejectUnknownMembers(false)); err != nil {
			t.Fatal(err)
		}
		u := r.Meter.Usage
		line = strings.Replace(line, fmt.Sprintf(`"output_tokens":%d,"output_tokens_details"`, u.Output), fmt.Sprintf(`"output_tokens":%d,"output_tokens_details"`, u.Output+extra), 1)
		line = strings.Replace(line, fmt.Sprintf(`"total_tokens":%d`, u.Total), fmt.Sprintf(`"total_tokens":%d`, u.Total+extra), 1)
		if line == lines[i] {
			t.Fatalf("%s: the usage was not edited", session)
		}
		lines[i] = line
		edited++
	}
	if edited != 1 {
		t.Fatalf("%s: %d receipts edited, want 1", session, edited)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func runInto(t *testing.T, out string, args ...string) {
	t.Helper()
	if code, _, stderr := mainCmd(append([]string{"run", "--no-intervals", "--out", out}, args...)...); code != ExitOK {
		t.Fatalf("run %v: exit %d: %s", args, code, stderr)
	}
}

// TestCompareMatrix runs compare on real run outputs, each pair differing
// in one way, and checks its direction, its result line and its exit
// code under each --fail-on:
//
//   - paired-review → paired-review-green: every failing gate passes and
//     the decision advances: better, exit 0; the reverse is a regression
//     (exit 1), and a worse decision (exit 1 with --fail-on decision-worse
//     too, while the improvement exits 0 under it).
//   - green → green with 100 more output tokens in B's review of T1's
//     costliest repetition: the candidate's paired cost ratio of that run
//     rises above 1, so g5_cost_pair's observation (the largest paired
//     ratio, 1 before) moves the wrong way for a "<=" gate: a regression
//     (exit 1), though the gate still passes and the decision is still
//     advance (exit 0 with --fail-on decision-worse).
//   - green → green with 100 more output tokens in A's (the baseline's)
//     review of T1's costliest repetition: the baseline's own figures and
//     the ceilings' use move, no gate observation does (T1's median cost
//     is another repetition's; every other pair's ratio is still 1): a
//     change, exit 0, and exit 1 only with --fail-on any-change.
func TestCompareMatrix(t *testing.T) {
	base := t.TempDir()
	out := func(name string, args ...string) string {
		dir := filepath.Join(base, name)
		runInto(t, dir, args...)
		return dir
	}
	red := out("red", "--example", "paired-review")
	green := out("green", "--example", "paired-review-green")
	candidateCost := out("candidate-cost", withMoreOutput(t, green, "T1", "B", 100))
	baselineCost := out("baseline-cost", withMoreOutput(t, green, "T1", "A", 100))
	for _, c := range []struct {
		name      string
		old, new  string
		failOn    string
		code      int
		result    string   // the result line's word
		lines     []string // stdout lines that must be there
		notLines  []string // stdout prefixes that must not
		stderrHas string
	}{
		{"self", green, green, "", ExitOK, "unchanged", nil, []string{"better", "worse", "changed"}, ""},
		{"improvement", red, green, "", ExitOK, "better", []string{
			`better decision: "do_not_advance" -> "advance"`,
			`better gate g2_task_floor B pass: false -> true`,
			`better gate g5_cost_aggregate B observed: ×1.171 (+17.1%) -> ×1.000 (+0.0%) (delta -17.1 pp)`,
			`changed ceiling wall_time use: 1 h 34 min 35.5 s -> 1 h 34 min 18.4 s (delta -17.1 s)`,
		}, []string{"worse"}, ""},
		{"improvement_decision_worse", red, green, "decision-worse", ExitOK, "better", nil, nil, ""},
		{"improvement_any_change", red, green, "any-change", ExitRejected, "better", nil, nil, "compare fails on any-change: decision; "},
		{"regression", green, red, "", ExitRejected, "regression", []string{
			`worse decision: "advance" -> "do_not_advance"`,
			`worse gate g2_task_floor B observed: 1 -> 0.75 (delta -0.25)`,
			// two more sessions dispatched (T3's repetition 2): a count, a change
			`changed ceiling total_sessions use: 72 sessions -> 70 sessions (delta -2 sessions)`,
		}, nil, "compare fails on regression: decision; gate g1_critical_source B pass; "},
		{"decision_worse", green, red, "decision-worse", ExitRejected, "regression", nil, nil,
			"compare fails on decision-worse: decision\n"},
		{"candidate_regression", green, candidateCost, "", ExitRejected, "regression", []string{
			`changed ceiling output_tokens use: 182,180 tokens -> 182,280 tokens (delta +100 tokens)`,
		}, []string{"worse decision", "worse gate g5_cost_pair B pass", "better"}, "compare fails on regression: gate g5_cost_pair B observed"},
		{"candidate_regression_decision_worse", green, candidateCost, "decision-worse", ExitOK, "regression", nil, nil, ""},
		{"baseline_change", green, baselineCost, "", ExitOK, "changed", []string{
			`changed ceiling output_tokens use: 182,180 tokens -> 182,280 tokens (delta +100 tokens)`,
		}, []string{"worse", "better", "changed gate", "changed decision"}, ""},
		{"baseline_change_any_change", green, baselineCost, "any-change", ExitRejected, "changed", nil, nil,
			"compare fails on any-change: ceiling output_tokens use; ceiling reference_cost use"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"compare", c.old, c.new}
			if c.failOn != "" {
				args = append(args, "--fail-on", c.failOn)
			}
			code, stdout, stderr := mainCmd(args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, "result: "+c.result+" (") {
				t.Errorf("result line %q, want result %s", last, c.result)
			}
			for _, want := range c.lines {
				if !slices.Contains(lines, want) {
					t.Errorf("stdout lacks the line %q:\n%s", want, stdout)
				}
			}
			for _, not := range c.notLines {
				for _, l := range lines {
					if strings.HasPrefix(l, not) {
						t.Errorf("stdout has %q:\n%s", l, stdout)
					}
				}
			}
			if c.stderrHas == "" && stderr != "" || !strings.Contains(stderr, c.stderrHas) {
				t.Errorf("stderr %q, want %q", stderr, c.stderrHas)
			}
		})
	}
	t.Run("candidate_regression_json", func(t *testing.T) {
		code, stdout, _ := mainCmd("compare", green, candidateCost, "--json")
		var doc struct {
			Result        string `json:"result"`
			Regressed     bool   `json:"regressed"`
			DecisionWorse bool   `json:"decision_worse"`
			Differences   []struct {
				Kind, Key, Field, Direction string
				Old, New, Delta             any
				OldExact                    *string `json:"old_exact"`
				DeltaExact                  *string `json:"delta_exact"`
				Regression                  bool
			}
		}
		if err := json.Unmarshal([]byte(stdout), &doc, json.RejectUnknownMembers(false), json.MatchCaseInsensitiveNames(true)); err != nil || code != ExitRejected {
			t.Fatalf("exit %d, %v:\n%s", code, err, stdout)
		}
		if !doc.Regressed || doc.DecisionWorse || doc.Result != "regression" {
			t.Errorf("regressed %v, decision worse %v, result %q", doc.Regressed, doc.DecisionWorse, doc.Result)
		}
		for _, d := range doc.Differences {
			if d.Kind == "gate" && d.Key == "g5_cost_pair B" && d.Field == "observed" {
				// 1 before (every paired ratio is 1 in green): a number, its exact text beside it
				if d.Old != 1.0 || d.OldExact == nil || *d.OldExact != "1" || d.Direction != "worse" || !d.Regression {
					t.Errorf("g5_cost_pair observed: %+v", d)
				}
				if f, ok := d.New.(float64); !ok || f <= 1 || d.DeltaExact == nil || d.Delta.(float64) <= 0 {
					t.Errorf("g5_cost_pair new %v, delta %v (%v): want a number above 1", d.New, d.Delta, d.DeltaExact)
				}
				return
			}
		}
		t.Errorf("no g5_cost_pair observed difference in %s", stdout)
	})
}

// TestComparePolicyChanged: a run and its twin judged under loosened
// thresholds are not comparable (exit 2) and every changed number is
// listed; with --allow-policy-change each is a policy change, the
// decision and the loosened gates' pass have no direction, and nothing is
// better.
func TestComparePolicyChanged(t *testing.T) {
	base := t.TempDir()
	old, twin := filepath.Join(base, "old"), filepath.Join(base, "twin")
	runInto(t, old, "--example", "paired-review")
	runInto(t, twin, policyTwin(t, map[string]string{"g2_task_floor": "0.75", "g5_cost_aggregate": "1.20"}))
	code, stdout, stderr := mainCmd("compare", old, twin)
	if code != ExitUsage || stdout != "" {
		t.Fatalf("exit %d, stdout %q: want 2 and nothing on stdout", code, stdout)
	}
	for _, want := range []string{
		"judged under different policies",
		`policy_change policy id: "paired-review-evaluation-v1" -> "compare-threshold-probe"`,
		`policy_change policy custom: false -> true`,
		`policy_change gate g2_task_floor B threshold: ">= 0.80" -> ">= 0.75" (delta -0.05)`,
		`policy_change gate g5_cost_aggregate B threshold: "<= 1.10" -> "<= 1.20" (delta 0.1)`,
		"--allow-policy-change",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	code, stdout, _ = mainCmd("compare", old, twin, "--json")
	if code != ExitUsage || !strings.Contains(stdout, `"comparable": false`) || strings.Count(stdout, `"direction": "policy_change"`) != 4 {
		t.Errorf("--json: exit %d:\n%s", code, stdout)
	}
	code, stdout, stderr = mainCmd("compare", old, twin, "--allow-policy-change", "--fail-on", "any-change")
	if code != ExitRejected {
		t.Fatalf("exit %d, want 1 (any-change): %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	for _, want := range []string{
		`policy_change gate g2_task_floor B threshold: ">= 0.80" -> ">= 0.75" (delta -0.05)`,
		`changed gate g2_task_floor B pass: false -> true`,
		`changed gate g5_cost_aggregate B pass: false -> true`,
		`result: changed (8 of 8 differences beyond tolerance 0: 0 worse, 0 better, 4 changed, 4 policy changes)`,
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if code, _, _ := mainCmd("compare", old, twin, "--allow-policy-change"); code != ExitOK {
		t.Errorf("--allow-policy-change: exit %d, want 0 (nothing is worse)", code)
	}
}

// TestCompareUsage: bad flags, missing or foreign directories are usage
// errors (2), a corrupt table an I/O failure (3).
func TestCompareUsage(t *testing.T) {
	base := t.TempDir()
	old := filepath.Join(base, "old")
	runInto(t, old)
	otherKind := filepath.Join(base, "system-comparison")
	runInto(t, otherKind, "--example", "system-comparison")
	corrupt := filepath.Join(base, "corrupt")
	if err := os.CopyFS(corrupt, os.DirFS(old)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corrupt, "gates.parquet"), []byte("PAR1 not parquet PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	otherVersion := filepath.Join(base, "other-version")
	if err := os.CopyFS(otherVersion, os.DirFS(old)); err != nil {
		t.Fatal(err)
	}
	sc, err := os.ReadFile(filepath.Join(otherVersion, "scorecard.json"))
	if err != nil {
		t.Fatal(err)
	}
	sc = bytes.Replace(sc, []byte(`"evalgate.scorecard/v1"`), []byte(`"evalgate.scorecard/v0"`), 1)
	if err := os.WriteFile(filepath.Join(otherVersion, "scorecard.json"), sc, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"bad_fail_on", []string{old, old, "--fail-on", "decision"}, ExitUsage, "want regression, decision-worse or any-change"},
		{"bad_format", []string{old, old, "--format", "html"}, ExitUsage, "--format"},
		{"missing_dir", []string{old, filepath.Join(base, "nope")}, ExitUsage, "not an evalgate output directory"},
		{"one_arg", []string{old}, ExitUsage, "exactly two"},
		{"kind_changed", []string{old, otherKind}, ExitUsage, "different campaign kinds"},
		{"version_changed", []string{old, otherVersion}, ExitUsage, "different scorecard versions"},
		{"bad_tolerance", []string{old, old, "--tolerance", "x"}, ExitUsage, "--tolerance"},
		{"corrupt_table", []string{old, corrupt}, ExitFailure, "gates.parquet"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := mainCmd(append([]string{"compare"}, c.args...)...)
			if code != c.code || !strings.Contains(stderr, c.stderr) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q: want %d and %q", code, stdout, stderr, c.code, c.stderr)
			}
		})
	}
}

func TestParseTolerance(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // RatString, "" for a usage error
	}{
		{"0", "0"}, {"0.01", "1/100"}, {"1/3", "1/3"}, {"-0.1", ""}, {"1e-3", ""}, {"", ""}, {"abc", ""},
	} {
		t.Run(c.in, func(t *testing.T) {
			r, err := parseTolerance(c.in)
			got := ""
			if err == nil {
				got = r.RatString()
			} else if exitCode(err) != ExitUsage {
				t.Errorf("error %v is not a usage error", err)
			}
			if got != c.want {
				t.Errorf("parseTolerance(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestCompareToStepSummaryFile: when stdout is the file
// $GITHUB_STEP_SUMMARY names (`compare old new >> "$GITHUB_STEP_SUMMARY"`),
// compare prints Markdown without --format; to any other file, text; and
// --format text wins over the detection.
func TestCompareToStepSummaryFile(t *testing.T) {
	old := filepath.Join(t.TempDir(), "old")
	runInto(t, old)
	summary := filepath.Join(t.TempDir(), "summary.md")
	other := filepath.Join(t.TempDir(), "other.txt")
	t.Setenv(stepSummaryEnv, summary)
	compareTo := func(path string, args ...string) string {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		var errOut bytes.Buffer
		if code := Main(append([]string{"compare", old, old}, args...), f, &errOut); code != ExitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		f.Close()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if got := compareTo(summary); !strings.HasPrefix(got, "### evalgate compare: ") {
		t.Errorf("stdout is $%s but compare printed text:\n%s", stepSummaryEnv, got)
	}
	if got := compareTo(summary, "--format", "text"); !strings.HasPrefix(got, "old: ") {
		t.Errorf("--format text printed:\n%s", got)
	}
	if got := compareTo(other); !strings.HasPrefix(got, "old: ") {
		t.Errorf("stdout is another file but compare printed:\n%s", got)
	}
}

// TestOneHint: a usage error that already says where to look gets no
// second "(see 'evalgate --help')".
func TestOneHint(t *testing.T) {
	code, _, stderr := mainCmd("run", "--example", "nope", "--out", t.TempDir())
	if code != ExitUsage || strings.Count(stderr, "(see '") != 1 || !strings.Contains(stderr, "'evalgate examples'") {
		t.Errorf("exit %d, stderr %q: want one hint, to 'evalgate examples'", code, stderr)
	}
	code, _, stderr = mainCmd("run")
	if code != ExitUsage || strings.Count(stderr, "(see '") != 1 {
		t.Errorf("exit %d, stderr %q: want one hint", code, stderr)
	}
}
