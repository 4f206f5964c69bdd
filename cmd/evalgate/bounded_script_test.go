package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// The hostile cases of every command (hostile_commands.txtar) run the
// command under a deadline and, for the memory cases, an RSS bound:
//
//	bounded [-rss MiB] evalgate ARGS...
//
// runs evalgate as a subprocess that is killed when it has not exited
// within boundedDeadline (a FIFO opened blocking would hang forever, so
// the case fails rather than hangs), and fails when its peak resident set
// exceeds MiB. Its stdout and stderr are the command's, for the stdout and
// stderr commands that follow; `! bounded` expects a nonzero exit, as
// `! exec` does. The deadline guards against blocking, not a timing
// assertion: every case exits in well under a second.
const boundedDeadline = 10 * time.Second

func init() {
	scriptCmds["bounded"] = cmdBounded
	scriptCmds["mkfifo"] = cmdMkfifo
}

func cmdBounded(ts *testscript.TestScript, neg bool, args []string) {
	var rssMiB int64
	if len(args) > 1 && args[0] == "-rss" {
		n, err := strconv.ParseInt(args[1], 10, 64)
		ts.Check(err)
		rssMiB, args = n, args[2:]
	}
	if len(args) == 0 || args[0] != "evalgate" {
		ts.Fatalf("usage: bounded [-rss MiB] evalgate ARGS...")
	}
	ctx, cancel := context.WithTimeout(context.Background(), boundedDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, "evalgate", args[1:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = append(os.Environ(), "HOME="+ts.Getenv("HOME"), "TMPDIR="+ts.Getenv("TMPDIR"))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	ts.Stdout().Write([]byte(stdout.String()))
	ts.Stderr().Write([]byte(stderr.String()))
	if ctx.Err() != nil {
		ts.Fatalf("evalgate %s did not exit within %s (blocked?)", strings.Join(args[1:], " "), boundedDeadline)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		ts.Fatalf("evalgate: %v", err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && rssMiB > 0 {
		peak := ru.Maxrss >> 10 // KiB on Linux
		ts.Logf("peak RSS %d MiB", peak)
		if peak > rssMiB {
			ts.Fatalf("peak RSS %d MiB; the bound is %d MiB", peak, rssMiB)
		}
	}
	switch {
	case neg && err == nil:
		ts.Fatalf("unexpected success")
	case !neg && err != nil:
		ts.Fatalf("evalgate exited %d", cmd.ProcessState.ExitCode())
	}
}

// cmdMkfifo PATH... makes named pipes: a reader that opens one blocking
// waits forever for a writer.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: mkfifo PATH...")
	}
	for _, a := range args {
		p := ts.MkAbs(a)
		os.Remove(p)
		ts.Check(syscall.Mkfifo(p, 0o644))
	}
}
