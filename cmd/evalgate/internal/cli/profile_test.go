package cli

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestRunProfiles: --cpuprofile and --memprofile write two gzipped pprof
// profiles (a run of the small example may take no CPU sample, so the
// stage labels are not checked here; make profile shows them).
func TestRunProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	if code, _, stderr := mainCmd("run", "--example", "paired-review-green", "--no-intervals", "--out", filepath.Join(dir, "out"),
		"--cpuprofile", cpu, "--memprofile", mem); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, p := range []string{cpu, mem} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s is not gzipped: %v", p, err)
		}
		data, err := io.ReadAll(z)
		if err != nil || len(data) == 0 {
			t.Fatalf("%s: %d bytes, %v", p, len(data), err)
		}
		if p == mem && !bytes.Contains(data, []byte("alloc_space")) {
			t.Errorf("%s is not an allocation profile", p)
		}
	}
}

// TestPauseMemProfile: main's PauseMemProfile stops sampling allocations;
// a run with --memprofile samples again at the rate the process started
// with, and its profile holds the run's allocations; a run without it
// leaves sampling off.
func TestPauseMemProfile(t *testing.T) {
	started := runtime.MemProfileRate
	t.Cleanup(func() { runtime.MemProfileRate, memProfileRate = started, 0 })
	PauseMemProfile()
	if runtime.MemProfileRate != 0 || memProfileRate != started {
		t.Fatalf("after PauseMemProfile the rate is %d (kept %d); want 0 (kept %d)", runtime.MemProfileRate, memProfileRate, started)
	}
	dir := t.TempDir()
	if code, _, stderr := mainCmd("run", "--example", "paired-review-green", "--no-intervals", "--out", filepath.Join(dir, "plain")); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if runtime.MemProfileRate != 0 {
		t.Errorf("a run without --memprofile set the rate to %d", runtime.MemProfileRate)
	}
	mem := filepath.Join(dir, "mem.pprof")
	if code, _, stderr := mainCmd("run", "--example", "paired-review-green", "--no-intervals", "--out", filepath.Join(dir, "out"), "--memprofile", mem); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if runtime.MemProfileRate != started {
		t.Errorf("with --memprofile the rate is %d, want %d", runtime.MemProfileRate, started)
	}
	data, err := os.ReadFile(mem)
	if err != nil || len(data) < 1000 {
		t.Errorf("%s: %d bytes, %v; want the run's allocations", mem, len(data), err)
	}
}
