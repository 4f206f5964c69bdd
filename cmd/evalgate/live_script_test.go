package main

import (
	"bytes"
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() { scriptCmds["placeholder"] = cmdPlaceholder }

// cmdPlaceholder FILE VALUE replaces every empty JSON string member value
// (`: ""`) of FILE by VALUE, as a user would "fill in" the identities a
// proposed manifest leaves empty with a placeholder such as TBD.
func cmdPlaceholder(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: placeholder FILE VALUE")
	}
	name := ts.MkAbs(args[0])
	data, err := os.ReadFile(name)
	ts.Check(err)
	filled := bytes.ReplaceAll(data, []byte(`: ""`), []byte(`: "`+args[1]+`"`))
	if bytes.Equal(filled, data) {
		ts.Fatalf("%s has no empty string member", args[0])
	}
	ts.Check(os.WriteFile(name, filled, 0o644))
}
