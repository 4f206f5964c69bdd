package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestProgressChangesNoOutput: --progress (forced, stderr not a terminal)
// writes its lines to stderr only; stdout and every output file are the
// same bytes as without it, and --progress=false prints nothing.
func TestProgressChangesNoOutput(t *testing.T) {
	dir := synthCampaign(t, "paired-review", 90, "0.1", 4)
	work := t.TempDir()
	quiet, loud := filepath.Join(work, "quiet"), filepath.Join(work, "loud")
	code, stdoutQuiet, stderrQuiet := evalgate(t, "run", dir, "--out", quiet, "--progress=false")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderrQuiet)
	}
	if stderrQuiet != "" {
		t.Errorf("--progress=false wrote to stderr: %q", stderrQuiet)
	}
	code, stdoutLoud, stderrLoud := evalgate(t, "run", dir, "--out", loud, "--progress")
	if code != 0 {
		t.Fatalf("run --progress: exit %d: %s", code, stderrLoud)
	}
	for _, want := range []string{"evalgate: load · ", "files opened", "MiB read", "evalgate: done in "} {
		if !strings.Contains(stderrLoud, want) {
			t.Errorf("progress on stderr lacks %q:\n%s", want, stderrLoud)
		}
	}
	if strings.Contains(stdoutLoud, "evalgate: ") {
		t.Errorf("progress reached stdout:\n%s", stdoutLoud)
	}
	if strings.ReplaceAll(stdoutLoud, loud, quiet) != stdoutQuiet {
		t.Errorf("stdout differs with --progress:\n%s\nwithout:\n%s", stdoutLoud, stdoutQuiet)
	}
	a, b := treeBytes(t, quiet), treeBytes(t, loud)
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("%d output files without --progress, %d with", len(a), len(b))
	}
	for p, data := range a {
		if !bytes.Equal(data, b[p]) {
			t.Errorf("%s differs with --progress", p)
		}
	}
	if code, _, stderr := evalgate(t, "validate", dir, "--progress"); code != 0 || !strings.Contains(stderr, "evalgate: validate · ") {
		t.Errorf("validate --progress: exit %d, stderr %q", code, stderr)
	}
}
