// Package golden compares what a test produced with a committed file (a
// golden file, a generated document) and prints a line diff when they
// differ. One flag, -update, rewrites every golden file instead of
// comparing: `make update` runs it on every package whose tests import
// this one.
//
// Only tests import this package.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
)

var update = flag.Bool("update", false, "rewrite golden files and generated documents instead of comparing with them")

// Update reports whether the test binary runs with -update.
func Update() bool { return *update }

// Check compares got with the file at path. Under -update it writes got
// there (creating the directory) instead. A missing file is fatal; a
// different one fails the test with a diff from the file to got.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with go test -update, or make update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date (refresh with go test -update, or make update, and review the diff):\n%s", path, Diff(path, want, got))
	}
}

// Diff is a unified line diff from want (the file at path) to got; empty
// when they are equal.
func Diff(path string, want, got []byte) string {
	return string(diff.Diff(path, want, "got", got))
}
