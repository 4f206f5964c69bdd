package main

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestConcurrentRunsLeaveOneCompleteSet starts two runs of two campaigns
// into one --out at once, 30 times: both exit 0 (the second waits for the
// first's replacement), --out then holds exactly one run's complete set,
// show accepts it, and nothing is left beside it. Before the lock, the
// second run's removal of leftovers deleted the first run's set while it
// was being built, which could swap in an incomplete set and exit 0.
func TestConcurrentRunsLeaveOneCompleteSet(t *testing.T) {
	t.Parallel() // its own directories and child processes: it runs beside the other parallel tests
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

// datasetFiles reads every file under a collected dataset but its lock
// file: slash-separated path → bytes.
func datasetFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || e.Name() == ".evalgate-lock" {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestKilledCollectIsRecovered kills `collect` (SIGKILL) at random
// instants while it adds a second run to a dataset, 20 times: the next
// collect exits 0 and leaves exactly the dataset an uninterrupted collect
// writes — every run in every table, no temporary, pending or journal
// file, no empty partition. Before, a killed collect left its hidden
// temporary parts, which no later collect removed.
func TestKilledCollectIsRecovered(t *testing.T) {
	t.Parallel() // its own directories and child processes: it runs beside the other parallel tests
	base := t.TempDir()
	first, second := filepath.Join(base, "first"), filepath.Join(base, "second")
	mustRun(t, "run", "--example", "paired-review", "--no-intervals", "--out", first)
	mustRun(t, "run", "--example", "paired-review-green", "--no-intervals", "--out", second)
	ref := filepath.Join(base, "reference")
	mustRun(t, "collect", first, second, "--into", ref)
	want := datasetFiles(t, ref)
	probe := filepath.Join(base, "probe")
	mustRun(t, "collect", first, "--into", probe)
	start := time.Now()
	mustRun(t, "collect", second, "--into", probe)
	span := time.Since(start)
	rng := rand.New(rand.NewPCG(31, 11))
	for i := range 20 {
		dataset := filepath.Join(base, fmt.Sprint(i))
		mustRun(t, "collect", first, "--into", dataset)
		cmd := exec.Command("evalgate", "collect", second, "--into", dataset)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(span))))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		mustRun(t, "collect", first, second, "--into", dataset)
		got := datasetFiles(t, dataset)
		if !maps.Equal(got, want) {
			var extra []string
			for n := range got {
				if _, ok := want[n]; !ok {
					extra = append(extra, n)
				}
			}
			t.Fatalf("try %d: the dataset after the kill and the next collect differs from an uninterrupted one (%d files, want %d; extra %v)", i, len(got), len(want), extra)
		}
		err := filepath.WalkDir(dataset, func(p string, e os.DirEntry, err error) error {
			if err == nil && e.IsDir() {
				if entries, _ := os.ReadDir(p); len(entries) == 0 {
					return fmt.Errorf("empty directory %s", p)
				}
			}
			return err
		})
		if err != nil {
			t.Fatalf("try %d: %v", i, err)
		}
	}
}
