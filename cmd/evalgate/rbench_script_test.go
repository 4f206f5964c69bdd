package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/evalgate/evalgate/fixtures/rbdefects"
)

func init() { scriptCmds["rbdefect"] = cmdRbdefect }

// cmdRbdefect DIR NAME... writes the reviewer-benchmark example into DIR
// with the one-defect or promotion-rule fixture NAME (rbdefects.All,
// rbdefects.Outcomes; the words of NAME joined by spaces) applied, so a
// script probes one rule through the CLI on a copy that differs from
// the example by that one edit.
func cmdRbdefect(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: rbdefect DIR NAME...")
	}
	name := strings.Join(args[1:], " ")
	files, err := rbdefects.Example()
	ts.Check(err)
	var apply func(rbdefects.Files) error
	for _, d := range rbdefects.All() {
		if d.Name == name {
			apply = d.Apply
		}
	}
	for _, o := range rbdefects.Outcomes() {
		if o.Name == name {
			apply = o.Apply
		}
	}
	if apply == nil {
		ts.Fatalf("no reviewer-benchmark fixture %q", name)
	}
	ts.Check(apply(files))
	dir := ts.MkAbs(args[0])
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		ts.Check(os.MkdirAll(filepath.Dir(full), 0o755))
		ts.Check(os.WriteFile(full, data, 0o644))
	}
}
