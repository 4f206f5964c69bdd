package main

import (
	"context"
	"errors"
	"fmt"
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
//	bounded [-rss MiB] [-deadline SECONDS] evalgate ARGS...
//
// runs evalgate as a subprocess that is killed when it has not exited
// within boundedDeadline (a FIFO opened blocking would hang forever, so
// the case fails rather than hangs; a memory case, which reads a large
// input on a shared machine, gives a longer deadline), and fails when its
// peak resident set exceeds MiB. Its stdout and stderr are the command's, for the stdout and
// stderr commands that follow; `! bounded` expects a nonzero exit, as
// `! exec` does. The deadline guards against blocking, not a timing
// assertion: every case exits in well under a second.
const boundedDeadline = 10 * time.Second

func init() {
	scriptCmds["bounded"] = cmdBounded
	scriptCmds["mkfifo"] = cmdMkfifo
	scriptCmds["hostilefile"] = cmdHostileFile
}

// cmdHostileFile KIND N FILE writes a hostile import source of N records:
//
//	badlines      a Codex rollout of N lines "x" (2N bytes), each malformed
//	unmapped      an Inspect AI .json log of N samples no mapping names
func cmdHostileFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: hostilefile badlines|unmapped N FILE")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	var b strings.Builder
	switch args[0] {
	case "badlines":
		b.Grow(2 * n)
		for range n {
			b.WriteString("x\n")
		}
	case "unmapped":
		b.WriteString(`{"version":2,"status":"success","eval":{"run_id":"hostile-run","task":"t","model":"openai/m",` +
			`"created":"2026-10-01T08:00:00+00:00","packages":{"inspect_ai":"0.3.200"}},"samples":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":"s%d","epoch":1,"model_usage":{}}`, i)
		}
		b.WriteString("]}")
	default:
		ts.Fatalf("hostilefile: no kind %q", args[0])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(b.String()), 0o644))
}

func cmdBounded(ts *testscript.TestScript, neg bool, args []string) {
	var rssMiB int64
	deadline := boundedDeadline
	for len(args) > 1 && (args[0] == "-rss" || args[0] == "-deadline") {
		n, err := strconv.ParseInt(args[1], 10, 64)
		ts.Check(err)
		if args[0] == "-rss" {
			rssMiB = n
		} else {
			deadline = time.Duration(n) * time.Second
		}
		args = args[2:]
	}
	if len(args) == 0 || args[0] != "evalgate" {
		ts.Fatalf("usage: bounded [-rss MiB] [-deadline SECONDS] evalgate ARGS...")
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, "evalgate", args[1:]...)
	peak := measureRSS(cmd)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) } // GNU time and the command
	cmd.WaitDelay = time.Second
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = append(os.Environ(), "HOME="+ts.Getenv("HOME"), "TMPDIR="+ts.Getenv("TMPDIR"))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	rss := peak()
	recordCase(ts, "evalgate "+strings.Join(args[1:], " "), cmd.ProcessState, rss, start, ctx.Err() != nil)
	ts.Stdout().Write([]byte(stdout.String()))
	ts.Stderr().Write([]byte(stderr.String()))
	if ctx.Err() != nil {
		ts.Fatalf("evalgate %s did not exit within %s (blocked?)", strings.Join(args[1:], " "), deadline)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		ts.Fatalf("evalgate: %v", err)
	}
	if rss >= 0 && rssMiB > 0 {
		ts.Logf("peak RSS %d MiB", rss>>10)
		if rss>>10 > rssMiB {
			ts.Fatalf("peak RSS %d MiB; the bound is %d MiB", rss>>10, rssMiB)
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

// timeBinary is GNU time, through which a command's peak RSS is measured
// when it is installed.
const timeBinary = "/usr/bin/time"

// measureRSS makes cmd (not yet started) run through GNU time, a small
// process between this one and the command, and returns what reports the
// command's peak resident set in KiB once cmd has been waited for. On
// Linux a child's ru_maxrss starts from its parent's high-water mark: Go
// starts a child with vfork, whose memory is the parent's until the exec,
// and the kernel keeps that memory's peak as the child's. A test binary
// of a few hundred MiB would make every child it runs look as large. GNU
// time's child starts from GNU time's own peak, about 2 MiB. Without GNU
// time, the command's own ru_maxrss is reported: an upper bound. To kill
// the command, kill its process group (Setpgid is set), not cmd.Process,
// which is GNU time.
func measureRSS(cmd *exec.Cmd) func() int64 {
	direct := func() int64 {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			return int64(ru.Maxrss) // KiB on Linux
		}
		return -1
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if _, err := os.Stat(timeBinary); err != nil || cmd.Err != nil {
		return direct
	}
	f, err := os.CreateTemp("", "evalgate-rss-*")
	if err != nil {
		return direct
	}
	f.Close()
	cmd.Args = append([]string{timeBinary, "-f", "%M", "-o", f.Name(), cmd.Path}, cmd.Args[1:]...)
	cmd.Path = timeBinary
	return func() int64 {
		defer os.Remove(f.Name())
		data, _ := os.ReadFile(f.Name())
		lines := strings.Fields(string(data))
		if len(lines) == 0 {
			return -1
		}
		kib, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
		if err != nil {
			return -1
		}
		return kib
	}
}
