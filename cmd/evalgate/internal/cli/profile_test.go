package cli

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
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
