package main

import (
	"bytes"
	"testing"

	"github.com/evalgate/evalgate/cmd/evalgate/internal/cli"
)

// evalgate runs the CLI in-process, as a user would, and returns its exit
// code, stdout and stderr.
func evalgate(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cli.Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}
