// Package interop locates the DuckDB scripts of the repository's interop/
// directory (npm @duckdb/node-api) for the tests that run a real engine on
// evalgate's outputs. A test without node or the installed packages
// skips, unless the CI environment variable is set, where it fails: CI
// must never pass by skipping the engine.
package interop

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Script returns the absolute path of interop/<name>, found from the
// test's working directory upwards (the directory holding go.mod), or
// skips (fails under CI) when node or one of the npm modules the script
// imports is missing from interop/node_modules (by default DuckDB's).
func Script(t *testing.T, name string, modules ...string) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "interop")
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not on PATH"
	} else {
		if len(modules) == 0 {
			modules = []string{"@duckdb/node-api"}
		}
		for _, m := range modules {
			if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(m))); err != nil {
				missing = "interop/node_modules lacks " + m + " (run: npm ci --prefix interop)"
			}
		}
	}
	if missing != "" {
		if ci := os.Getenv("CI"); ci != "" && ci != "false" && ci != "0" {
			t.Fatalf("the interop test cannot run under CI: %s", missing)
		}
		t.Skip(missing)
	}
	return filepath.Join(dir, name)
}

// moduleRoot is the nearest directory at or above the working directory
// that holds go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
