package main

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestConcurrentRunsLeaveOneCompleteSet starts two runs of two campaigns
// into one --out at once, 30 times: both exit 0 (the second waits for the
// first's replacement), --out then holds exactly one run's complete set,
// show accepts it, and nothing is left beside it. Before the lock, the
// second run's removal of leftovers deleted the first run's set while it
// was being built, which could swap in an incomplete set and exit 0.
func TestConcurrentRunsLeaveOneCompleteSet(t *testing.T) {
	base := t.TempDir()
	examples := []string{"paired-review", "paired-review-green"}
	var refs []map[string]string
	for _, ex := range examples {
		ref := filepath.Join(base, "reference", ex)
		mustRun(t, "run", "--example", ex, "--no-intervals", "--out", ref)
		refs = append(refs, outputFiles(t, ref))
	}
	seen := map[int]int{}
	for i := range 30 {
		out := filepath.Join(base, fmt.Sprint(i), "out")
		var cmds []*exec.Cmd
		for _, ex := range examples {
			cmd := exec.Command("evalgate", "run", "--example", ex, "--no-intervals", "--force", "--out", out)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, cmd)
		}
		for j, cmd := range cmds {
			if err := cmd.Wait(); err != nil {
				t.Fatalf("try %d: the run of %s: %v", i, examples[j], err)
			}
		}
		got := outputFiles(t, out)
		which := -1
		for j, ref := range refs {
			if maps.Equal(got, ref) {
				which = j
			}
		}
		if which < 0 {
			t.Fatalf("try %d: --out holds neither complete set: %v", i, names(got))
		}
		seen[which]++
		if code, _, errOut := evalgate(t, "show", out); code != 0 {
			t.Fatalf("try %d: show refused the set: %s", i, errOut)
		}
		if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
			t.Fatalf("try %d: left beside --out: %v", i, entries)
		}
	}
	t.Logf("30 tries: the last writer was %s %d times, %s %d times", examples[0], seen[0], examples[1], seen[1])
}
