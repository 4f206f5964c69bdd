package main

import (
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/evalgate/evalgate/fixtures/controls"
)

func init() { scriptCmds["mutate"] = cmdMutate }

// cmdMutate CONTROL DIR writes to DIR, which must not exist yet, a copy of
// the embedded example control CONTROL mutates with its one edit applied
// (fixtures/controls: the same edit `evalgate controls --run` makes), so a
// script can probe that defect through evalgate's own commands.
func cmdMutate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mutate CONTROL DIR")
	}
	ctl, ok := controls.Find(args[0])
	if !ok {
		ts.Fatalf("no control %s", args[0])
	}
	c, err := controls.Prepare(ctl)
	ts.Check(err)
	ts.Check(c.WriteDir(ts.MkAbs(args[1])))
}
