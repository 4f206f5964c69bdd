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
// live manifest's directory (fixtures/live) is copied to $WORK/live, the
// green system comparison to $WORK/scgreen ($SCGREEN), the
// paired-review-green example to $WORK/green-campaign ($GREEN) and the
// development example to $WORK/devrounds ($DEVROUNDS).
func setupExampleCopy(env *testscript.Env) error {
	fsys, _ := fixtures.Example(fixtures.DefaultExample)
	dir := filepath.Join(env.WorkDir, "example")
	if err := os.CopyFS(dir, fsys); err != nil {
		return err
	}
	env.Setenv("EXAMPLE", dir)
	sc, _ := fixtures.Example("system-comparison-green")
	scDir := filepath.Join(env.WorkDir, "scgreen")
	if err := os.CopyFS(scDir, sc); err != nil {
		return err
	}
	env.Setenv("SCGREEN", scDir)
	green, _ := fixtures.Example("paired-review-green")
	if err := os.CopyFS(filepath.Join(env.WorkDir, "green-campaign"), green); err != nil {
		return err
	}
	env.Setenv("GREEN", filepath.Join(env.WorkDir, "green-campaign"))
	dev, _ := fixtures.Example("development-rounds")
	devDir := filepath.Join(env.WorkDir, "devrounds")
	if err := os.CopyFS(devDir, dev); err != nil {
		return err
	}
	env.Setenv("DEVROUNDS", devDir)
	return os.CopyFS(filepath.Join(env.WorkDir, "live"), fixtures.Live())
}
