package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/evalgate/evalgate/fixtures"
)

// Output sets through the CLI: `run --out` replaces the whole set or
// nothing, refuses directories that are not its to replace, and a killed
// run leaves the complete old set or the complete new one.

// outputFiles reads every entry of dir: file name → bytes (nil map when
// dir is missing).
func outputFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(data)
	}
	return files
}

func mustRun(t *testing.T, args ...string) {
	t.Helper()
	if code, out, errOut := evalgate(t, args...); code != 0 {
		t.Fatalf("evalgate %s exited %d:\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
}

const (
	oldExample = "paired-review"
	newExample = "system-comparison-green"
)

// TestKilledRunLeavesOneCompleteSet kills `evalgate run` (a child process,
// SIGKILL) at successive points while it writes another campaign's outputs
// over an output directory: after each kill the directory holds exactly
// the old set or exactly the new set, and the next run removes what the
// killed one left beside it.
func TestKilledRunLeavesOneCompleteSet(t *testing.T) {
	t.Parallel() // its own directories and child processes: it runs beside the other parallel tests
	if _, err := exec.LookPath("evalgate"); err != nil {
		t.Fatal("TestMain puts the evalgate command on PATH, but it is not there")
	}
	base := t.TempDir()
	ref := filepath.Join(base, "reference")
	mustRun(t, "run", "--example", oldExample, "--out", filepath.Join(ref, "old"))
	mustRun(t, "run", "--example", newExample, "--out", filepath.Join(ref, "new"))
	oldSet, newSet := outputFiles(t, filepath.Join(ref, "old")), outputFiles(t, filepath.Join(ref, "new"))
	if maps.Equal(oldSet, newSet) {
		t.Fatal("the two examples write the same outputs")
	}
	sawOld, sawNew := false, false
	// kill after the temporary set holds this many files; -1: as soon as
	// the child starts; 1000: never (the run completes).
	for _, after := range []int{-1, 0, 1, 3, 6, 10, 15, 20, 1000} {
		out := filepath.Join(base, "runs", "out")
		os.RemoveAll(filepath.Dir(out))
		mustRun(t, "run", "--example", oldExample, "--out", out)
		cmd := exec.Command("evalgate", "run", "--example", newExample, "--out", out, "--force")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		killAfter(t, cmd, filepath.Dir(out), after)
		got := outputFiles(t, out)
		switch {
		case maps.Equal(got, oldSet):
			sawOld = true
		case maps.Equal(got, newSet):
			sawNew = true
		default:
			t.Fatalf("killed after %d files, --out holds a mixture: %v", after, names(got))
		}
		// The next run cleans up and completes.
		mustRun(t, "run", "--example", newExample, "--out", out, "--force")
		if got := outputFiles(t, out); !maps.Equal(got, newSet) {
			t.Fatalf("the run after the kill wrote %v", names(got))
		}
		entries, _ := os.ReadDir(filepath.Dir(out))
		if len(entries) != 1 {
			t.Errorf("leftovers beside --out after the next run: %v", entries)
		}
	}
	if !sawOld || !sawNew {
		t.Errorf("kills left the old set: %v, the new set: %v; want both seen", sawOld, sawNew)
	}
}

// killAfter kills the child once the temporary set being built in parent
// holds after files (at once for -1), or waits for it to finish.
func killAfter(t *testing.T, cmd *exec.Cmd, parent string, after int) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(2 * time.Minute)
	for {
		if after < 0 || building(parent) >= after && after < 1000 {
			cmd.Process.Signal(syscall.SIGKILL)
			<-done
			return
		}
		select {
		case <-done:
			return
		case <-deadline:
			cmd.Process.Kill()
			t.Fatal("the child run did not finish")
		default:
			time.Sleep(100 * time.Microsecond)
		}
	}
}

// building is the number of files in the temporary set beside an output
// directory, or -1 when there is none yet.
func building(parent string) int {
	tmps, _ := filepath.Glob(filepath.Join(parent, ".out.evalgate-new-*"))
	if len(tmps) == 0 {
		return -1
	}
	entries, _ := os.ReadDir(tmps[0])
	return len(entries)
}

func names(files map[string]string) []string {
	var list []string
	for n := range files {
		list = append(list, n)
	}
	return list
}

func TestRunOutRefusals(t *testing.T) {
	base := t.TempDir()
	out := filepath.Join(base, "out")
	mustRun(t, "run", "--example", oldExample, "--out", out)
	before := outputFiles(t, out)

	// Another campaign's outputs are replaced only with --force.
	code, _, stderr := evalgate(t, "run", "--example", newExample, "--out", out)
	if code != 2 || !strings.Contains(stderr, "--force") || !strings.Contains(stderr, "example-paired-review") {
		t.Errorf("run into another campaign's outputs exited %d; want 2 naming the campaign and --force:\n%s", code, stderr)
	}
	if !maps.Equal(outputFiles(t, out), before) {
		t.Error("a refused run changed --out")
	}
	mustRun(t, "run", "--example", newExample, "--out", out, "--force")

	// A directory holding files evalgate did not write is never replaced.
	mine := filepath.Join(base, "mine")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mine, "thesis.tex"), []byte("years of work"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, force := range []string{"", "--force"} {
		args := []string{"run", "--example", oldExample, "--out", mine}
		if force != "" {
			args = append(args, force)
		}
		code, _, stderr := evalgate(t, args...)
		if code != 2 || !strings.Contains(stderr, "thesis.tex") {
			t.Errorf("run %v into a user's directory exited %d; want 2 naming thesis.tex:\n%s", args, code, stderr)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(mine, "thesis.tex")); string(data) != "years of work" {
		t.Error("the user's file was touched")
	}
}

// TestRunRefusesOutBeforeReading: an --out the run could not write into
// in the end is refused before the campaign is read, not after judging
// it. The campaign here is one the loader rejects, so a refusal after
// reading it would exit 1 and print its findings (packet.json's); refused
// first, the run exits 2, prints none and leaves --out as it is. A
// directory of the same campaign is still the run's to replace.
func TestRunRefusesOutBeforeReading(t *testing.T) {
	base := t.TempDir()
	mine := filepath.Join(base, "mine")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mine, "thesis.tex"), []byte("years of work"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(base, "other")
	mustRun(t, "run", "--example", newExample, "--no-intervals", "--out", other)
	before := outputFiles(t, other)
	camp, _ := hostileCopy(t)
	if err := os.WriteFile(filepath.Join(camp, "tasks", "T1", "packet.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string // what the refusal names
	}{
		{[]string{"run", camp, "--out", mine}, "thesis.tex"},
		{[]string{"run", camp, "--out", mine, "--force"}, "thesis.tex"},
		{[]string{"run", camp, "--out", other}, "--force"},
		{[]string{"run", camp, "--out", other, "--json"}, "--force"},
		{[]string{"run", filepath.Join(camp, "manifest.json"), "--out", other}, "--force"},
	} {
		code, stdout, stderr := evalgate(t, c.args...)
		if code != 2 || !strings.Contains(stderr+stdout, c.want) || strings.Contains(stderr+stdout, "packet.json") {
			t.Errorf("%v exited %d; want 2 naming %q and no finding of packet.json:\n%s%s", c.args, code, c.want, stdout, stderr)
		}
	}
	if !maps.Equal(outputFiles(t, other), before) {
		t.Error("a refused run changed --out")
	}
	if data, _ := os.ReadFile(filepath.Join(mine, "thesis.tex")); string(data) != "years of work" {
		t.Error("the user's file was touched")
	}
	// The same campaign's outputs: read, rejected, and the stale set removed.
	same := filepath.Join(base, "same")
	mustRun(t, "run", "--example", fixtures.DefaultExample, "--no-intervals", "--out", same)
	if code, _, stderr := evalgate(t, "run", camp, "--out", same); code != 1 || !strings.Contains(stderr, "packet.json") {
		t.Errorf("a rejected run into its own campaign's outputs exited %d; want 1 with packet.json's finding:\n%s", code, stderr)
	}
	// Another campaign's with --force: read, and its findings printed.
	if code, _, stderr := evalgate(t, "run", camp, "--out", other, "--force"); code != 1 || !strings.Contains(stderr, "packet.json") {
		t.Errorf("a rejected run into another campaign's outputs with --force exited %d; want 1 with packet.json's finding:\n%s", code, stderr)
	}
}

func TestRunOutInsideCampaign(t *testing.T) {
	camp, _ := hostileCopy(t)
	for _, out := range []string{camp, filepath.Join(camp, "out"), filepath.Join(camp, "answers", "x")} {
		code, _, stderr := evalgate(t, "run", camp, "--out", out)
		if code != 2 || !strings.Contains(stderr, "inside the campaign directory") {
			t.Errorf("run --out %s exited %d; want 2:\n%s", out, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(camp, "out")); !os.IsNotExist(err) {
		t.Error("a refused run created its --out")
	}
}

// A campaign the loader rejects removes the previous outputs of the same
// campaign, so they do not look current.
func TestRejectedRunRemovesStaleOutputs(t *testing.T) {
	camp, _ := hostileCopy(t)
	out := filepath.Join(filepath.Dir(camp), "out")
	mustRun(t, "run", camp, "--out", out)
	stray := filepath.Join(filepath.Dir(camp), ".out.evalgate-new-4242")
	if err := os.Mkdir(stray, 0o755); err != nil {
		t.Fatal(err)
	}
	// Break the packet of task T1: the loader rejects the campaign.
	if err := os.WriteFile(filepath.Join(camp, "tasks", "T1", "packet.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := evalgate(t, "run", camp, "--out", out)
	if code != 1 || !strings.Contains(stderr, "previous outputs") {
		t.Errorf("rejected run exited %d; want 1 saying the previous outputs were removed:\n%s", code, stderr)
	}
	for _, p := range []string{out, stray} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there", p)
		}
	}
}

// A campaign directory whose name is not UTF-8 is escaped in every output,
// --json included.
func TestNonUTF8CampaignName(t *testing.T) {
	src, _ := hostileCopy(t)
	camp := filepath.Join(filepath.Dir(src), "camp-\xff\xfe")
	if err := os.Rename(src, camp); err != nil {
		t.Skipf("this filesystem refuses non-UTF-8 names: %v", err)
	}
	out := filepath.Join(filepath.Dir(camp), "out-\xff")
	for _, args := range [][]string{
		{"run", camp, "--out", out, "--json"},
		{"validate", camp, "--json"},
		{"admit", camp, "--json"},
		{"validate", "--answer", filepath.Join(camp, "answers", "T1-r1-B.json"), "--role", "reconciliation", "--json"},
	} {
		code, stdout, stderr := evalgate(t, args...)
		if args[0] == "admit" {
			code = 0 // admit needs a request; only its output matters here
		}
		if code != 0 && code != 1 {
			t.Errorf("%s exited %d:\n%s%s", args[0], code, stdout, stderr)
		}
		for _, text := range []string{stdout, stderr} {
			if !utf8.ValidString(text) {
				t.Errorf("%s printed invalid UTF-8: %q", args[0], text)
			}
		}
		if strings.HasPrefix(strings.TrimSpace(stdout), "{") {
			var v any
			if err := json.Unmarshal([]byte(stdout), &v); err != nil {
				t.Errorf("%s --json printed invalid JSON: %v", args[0], err)
			}
			if !strings.Contains(stdout, `camp-\\xff\\xfe`) && !slices.Contains(args, "--answer") {
				t.Errorf("%s --json does not name the campaign escaped:\n%s", args[0], stdout)
			}
		}
	}
	for name, data := range outputFiles(t, out) {
		if strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".html") {
			if !utf8.Valid([]byte(data)) || bytes.Contains([]byte(data), []byte("\xff")) {
				t.Errorf("%s holds the raw name", name)
			}
		}
	}
}

// TestRunNeverReplacesUserFiles: a run replaces --out only when its output
// manifest lists every entry with the bytes it gives. A user's own
// report.md (a name evalgate writes), a hidden file of theirs that looks
// like a temporary file, and an output they edited are each refused, with
// --force too, and left as they are; the same for a loader-rejected
// campaign, which would otherwise remove the previous outputs (refused
// before it is read: TestRunRefusesOutBeforeReading).
func TestRunNeverReplacesUserFiles(t *testing.T) {
	base := t.TempDir()
	set := filepath.Join(base, "set")
	mustRun(t, "run", "--example", oldExample, "--no-intervals", "--out", set)
	cases := []struct {
		name  string
		plant func(dir string) error
		file  string
	}{
		{"own report.md", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "report.md"), []byte("my own report"), 0o644)
		}, "report.md"},
		{"hidden file in a set", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, ".notes.tmp-keep"), []byte("my notes"), 0o644)
		}, ".notes.tmp-keep"},
		{"edited output", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "report.md"), []byte("my edits"), 0o644)
		}, "report.md"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if c.name == "own report.md" {
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			} else {
				mustRun(t, "run", "--example", oldExample, "--no-intervals", "--out", dir)
			}
			if err := c.plant(dir); err != nil {
				t.Fatal(err)
			}
			before := outputFiles(t, dir)
			for _, args := range [][]string{
				{"run", "--example", oldExample, "--no-intervals", "--out", dir},
				{"run", "--example", newExample, "--no-intervals", "--out", dir, "--force"},
			} {
				code, _, stderr := evalgate(t, args...)
				if code != 2 || !strings.Contains(stderr, c.file) || !strings.Contains(stderr, "left as it is") {
					t.Errorf("%v exited %d; want 2 naming %s:\n%s", args, code, c.file, stderr)
				}
				if !maps.Equal(outputFiles(t, dir), before) {
					t.Fatalf("%v changed --out", args)
				}
			}
			camp, _ := hostileCopy(t)
			if err := os.WriteFile(filepath.Join(camp, "tasks", "T1", "packet.json"), []byte("{"), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, _, _ := evalgate(t, "run", camp, "--out", dir, "--force"); code != 2 || !maps.Equal(outputFiles(t, dir), before) {
				t.Errorf("a loader-rejected run exited %d and changed --out; want 2 (refused before the campaign is read), --out unchanged", code)
			}
		})
	}
}

// TestShowRefusesMixedSets: show summarises only the complete set the
// output manifest lists: a table removed, a table of another set copied
// in, an edited scorecard or a directory without the manifest is refused.
func TestShowRefusesMixedSets(t *testing.T) {
	base := t.TempDir()
	other := filepath.Join(base, "other")
	mustRun(t, "run", "--example", newExample, "--no-intervals", "--out", other)
	for _, c := range []struct {
		name string
		edit func(dir string) error
	}{
		{"table removed", func(dir string) error { return os.Remove(filepath.Join(dir, "gates.parquet")) }},
		{"table of another set", func(dir string) error {
			data, err := os.ReadFile(filepath.Join(other, "gates.parquet"))
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, "gates.parquet"), data, 0o644)
			}
			return err
		}},
		{"unlisted table", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "rejections.parquet"), nil, 0o644)
		}},
		{"no manifest", func(dir string) error { return os.Remove(filepath.Join(dir, ".evalgate-outputs.json")) }},
	} {
		dir := filepath.Join(base, strings.ReplaceAll(c.name, " ", "-"))
		mustRun(t, "run", "--example", oldExample, "--no-intervals", "--out", dir)
		if code, _, _ := evalgate(t, "show", dir); code != 0 {
			t.Fatalf("%s: show refused the fresh set", c.name)
		}
		if err := c.edit(dir); err != nil {
			t.Fatal(err)
		}
		if code, out, stderr := evalgate(t, "show", dir); code != 2 || out != "" {
			t.Errorf("%s: show exited %d; want 2 and nothing shown:\n%s%s", c.name, code, out, stderr)
		}
	}
}
