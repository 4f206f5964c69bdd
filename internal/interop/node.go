package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Node runs `node script args...` in dir (the test's working directory
// when empty), with input written to its standard input as JSON (nothing
// when input is nil), and decodes what it prints as JSON into out. A
// script that fails, runs longer than two minutes or prints something
// else fails the test with its standard error.
func Node(t *testing.T, dir string, input, out any, script string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{script}, args...)...)
	cmd.Dir = dir
	if input != nil {
		in, err := json.Marshal(input)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin = bytes.NewReader(in)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	name := filepath.Base(script)
	if err != nil {
		t.Fatalf("node %s: %v\n%s", name, err, stderr.String())
	}
	if err := json.Unmarshal(stdout, out); err != nil {
		t.Fatalf("%s output: %v\n%s", name, err, stdout)
	}
}
