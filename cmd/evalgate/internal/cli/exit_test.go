package cli

import (
	"os"
	"regexp"
	"strconv"
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
