package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/stages/report/compare"
	"github.com/evalgate/evalgate/tables"
)

// mainCmd runs the CLI in-process and returns its exit code and output.
func mainCmd(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// exampleWithThreshold writes the embedded example into a temporary
// directory with one gate threshold overridden in its manifest.
func exampleWithThreshold(t *testing.T, name, value string) string {
	t.Helper()
	src, ok := fixtures.Example(fixtures.DefaultExample)
	if !ok {
		t.Fatal("no default example")
	}
	dir := filepath.Join(t.TempDir(), "campaign")
	if err := os.CopyFS(dir, src); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "manifest.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m tables.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m.GatePolicy.Thresholds = append(m.GatePolicy.Thresholds, tables.Threshold{Name: name, Value: value})
	data, err = json.Marshal(m, jsontext.WithIndent("  "))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
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

// TestCompareExitCodes runs compare on real run outputs: the example
// against itself (0), against a copy whose task floor was lowered from
// 0.80 to 0.75 so that g2_task_floor (observed 0.75 in the example) now
// passes (an improvement: 0, or 1 with --fail-on change), against one
// whose macro floor was raised from 0.90 to 0.95 so that g2_macro_floor
// (observed 0.94375) now fails (a regression: 1, the gate named), and
// against broken directories (2, 3).
func TestCompareExitCodes(t *testing.T) {
	base := t.TempDir()
	old, changed := filepath.Join(base, "old"), filepath.Join(base, "changed")
	runInto(t, old)
	runInto(t, changed, exampleWithThreshold(t, "g2_task_floor", "0.75"))
	regressed := filepath.Join(base, "regressed")
	runInto(t, regressed, exampleWithThreshold(t, "g2_macro_floor", "0.95"))
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
		name     string
		args     []string
		code     int
		stdout   []string
		stderr   string
		noStdout bool
	}{
		{"self", []string{old, old}, ExitOK, []string{"result: unchanged"}, "", false},
		{"improvement", []string{old, changed}, ExitOK, []string{
			`better gate g2_task_floor B pass: false -> true`,
			`changed gate g2_task_floor B threshold: ">= 0.80" -> ">= 0.75"`,
			"changed decision failing_gates",
			"result: changed",
		}, "", false},
		{"improvement_fail_on_change", []string{old, changed, "--fail-on", "change"}, ExitRejected,
			[]string{"result: changed"}, "compare fails on change: decision failing_gates; gate g2_task_floor B pass", false},
		{"improvement_fail_on_decision", []string{old, changed, "--fail-on", "decision"}, ExitOK, nil, "", false},
		{"regression", []string{old, regressed}, ExitRejected, []string{
			`worse gate g2_macro_floor B pass: true -> false`,
		}, "compare fails on regression: gate g2_macro_floor B pass\n", false},
		{"threshold_changed_json", []string{old, changed, "--json", "--tolerance", "1", "--fail-on", "change"}, ExitRejected,
			[]string{`"changed": true`, `"key": "g2_task_floor B"`, `"old": false`, `"direction": "better"`}, "compare fails on change", false},
		{"bad_fail_on", []string{old, old, "--fail-on", "x"}, ExitUsage, nil, "--fail-on", true},
		{"bad_format", []string{old, old, "--format", "html"}, ExitUsage, nil, "--format", true},
		{"missing_dir", []string{old, filepath.Join(base, "nope")}, ExitUsage, nil, "not an evalgate output directory", true},
		{"one_arg", []string{old}, ExitUsage, nil, "exactly two", true},
		{"kind_changed", []string{old, otherKind}, ExitUsage, nil, "different campaign kinds", true},
		{"version_changed", []string{old, otherVersion}, ExitUsage, nil, "different scorecard versions", true},
		{"bad_tolerance", []string{old, old, "--tolerance", "x"}, ExitUsage, nil, "--tolerance", true},
		{"corrupt_table", []string{old, corrupt}, ExitFailure, nil, "gates.parquet", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := mainCmd(append([]string{"compare"}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			for _, want := range c.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if !strings.Contains(stderr, c.stderr) || (c.stderr == "" && stderr != "") {
				t.Errorf("stderr %q, want it to contain %q", stderr, c.stderr)
			}
			if c.noStdout && stdout != "" {
				t.Errorf("stdout on error: %q", stdout)
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

// TestListChange: a list field prints what left and what joined it.
func TestListChange(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		field, old, new, want string
	}{
		{"failing_gates", "a,b,c", "a,c,d", "-b +d"},
		{"failing", "T1, T2", "", "-T1 -T2"},
		{"failing", "", "T7", "+T7"},
		{"failing", "T1, T2", "T2, T1", "reordered"},
	} {
		removed, added, ok := listChange(compare.Difference{Field: c.field, Old: str(c.old), New: str(c.new)})
		if got := listMoves(removed, added, ""); !ok || got != c.want {
			t.Errorf("%q -> %q: %q (ok %v), want %q", c.old, c.new, got, ok, c.want)
		}
	}
	if _, _, ok := listChange(compare.Difference{Field: "threshold", Old: str("a"), New: str("b")}); ok {
		t.Error("threshold is not a list")
	}
	if _, _, ok := listChange(compare.Difference{Field: "failing", New: str("b")}); ok {
		t.Error("an absent side is not a list change")
	}
}
