package main

import (
	"os"
	"path/filepath"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/rogpeppe/go-internal/testscript"
)

// setupExampleCopy writes a fresh copy of the embedded example campaign into
// $WORK/example before every script, so a script can edit it (a ceiling, a
// rate card) and run the CLI on the copy; $EXAMPLE names it. The proposed
// live manifest's directory (fixtures/live) is copied to $WORK/live.
func setupExampleCopy(env *testscript.Env) error {
	fsys, _ := fixtures.Example(fixtures.DefaultExample)
	dir := filepath.Join(env.WorkDir, "example")
	if err := os.CopyFS(dir, fsys); err != nil {
		return err
	}
	env.Setenv("EXAMPLE", dir)
	return os.CopyFS(filepath.Join(env.WorkDir, "live"), fixtures.Live())
}
