package cli

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestExitCodesDocumented keeps docs/cli.md's exit-code table and the
// constants in step, in both directions.
func TestExitCodesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"ExitOK": ExitOK, "ExitRejected": ExitRejected, "ExitUsage": ExitUsage, "ExitFailure": ExitFailure}
	rows := regexp.MustCompile(`(?m)^\| (\d+) \| (\w+) \|`).FindAllStringSubmatch(string(doc), -1)
	if len(rows) != len(want) {
		t.Fatalf("docs/cli.md lists %d exit codes, the code has %d", len(rows), len(want))
	}
	for _, r := range rows {
		n, _ := strconv.Atoi(r[1])
		code, ok := want[r[2]]
		if !ok || code != n {
			t.Errorf("docs/cli.md says %s = %d; code says %d (known: %v)", r[2], n, code, ok)
		}
	}
}

// TestExitCodesStable pins the numeric values: scripts depend on them.
func TestExitCodesStable(t *testing.T) {
	for name, c := range map[string][2]int{
		"ok": {ExitOK, 0}, "rejected": {ExitRejected, 1}, "usage": {ExitUsage, 2}, "failure": {ExitFailure, 3},
	} {
		if c[0] != c[1] {
			t.Errorf("%s = %d, pinned %d", name, c[0], c[1])
		}
	}
}

// TestUsageErrorsExit2: every command line evalgate cannot parse exits 2
// with a message on stderr and nothing on stdout, whether cobra or a
// command finds the problem: a mistyped command or subcommand, an unknown
// flag, too many arguments, a bad flag value.
func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"valdate"},
		{"blind", "exprot"},
		{"import", "nope"},
		{"run", "--bogus"},
		{"run", "a", "b", "--out", "o"},
		{"run", "--out", "o", "--fail-on", "regression"},
		{"compare", "a"},
		{"compare", "a", "b", "--fail-on", "decision"},
		{"validate", "--json=maybe"},
		{"show"},
		{"examples", "extra"},
	} {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			code, stdout, stderr := mainCmd(args...)
			if code != ExitUsage || stdout != "" || !strings.HasPrefix(stderr, "evalgate: ") {
				t.Errorf("exit %d, stdout %q, stderr %q: want 2, a message and no output", code, stdout, stderr)
			}
		})
	}
}

// TestRunFailOnDecision: with --fail-on decision, run exits 1 unless the
// decision is advance; without it, 0 whatever the decision.
func TestRunFailOnDecision(t *testing.T) {
	for _, c := range []struct {
		example string
		args    []string
		code    int
	}{
		{"paired-review-green", []string{"--fail-on", "decision"}, ExitOK},
		{"paired-review", []string{"--fail-on", "decision"}, ExitRejected},
		{"system-comparison", []string{"--fail-on", "decision"}, ExitRejected},
		{"paired-review", nil, ExitOK},
	} {
		t.Run(c.example+strings.Join(c.args, "_"), func(t *testing.T) {
			args := append([]string{"run", "--example", c.example, "--no-intervals", "--out", t.TempDir() + "/out"}, c.args...)
			if code, _, stderr := mainCmd(args...); code != c.code {
				t.Errorf("exit %d, want %d: %s", code, c.code, stderr)
			}
		})
	}
}
