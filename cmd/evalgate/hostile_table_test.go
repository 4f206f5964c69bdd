package main

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// The hostile cases' table: every hostile case of the CLI, each run as a
// subprocess of the evalgate binary under a deadline (bounded), with its
// exit code, seconds and peak RSS, and whether the expected behaviour
// held. The cases are the hostile scripts (testdata/script/hostile_*.txtar,
// import_concurrent.txtar, hostile_dataloss.txtar, which make test runs
// as ordinary assertions) and the heavy ones only the table runs
// (testdata/hostile: 30,000 sessions, 30 concurrent runs, a damaged spool
// chunk). A script marks its cases:
//
//	case [-cmd TEXT] NAME... [-- EXPECTED...]
//	held
//
// case starts a case: every evalgate process the following commands run
// (bounded, importrace, importkill, runrace, collectkill) is one row of
// it, or, with -cmd, all of them are one row named TEXT (rc the distinct
// exit codes, seconds from the first start to the last exit, peak RSS the
// largest). held, after the case's assertions, says its expected
// behaviour held; a case whose script failed before its held is NOT held.
//
//	EVALGATE_HOSTILE_TABLE=FILE go test ./cmd/evalgate -run TestHostileTable -parallel 1
//
// runs them (make hostile-table, with the built binary as evalgate) and
// writes the markdown table to FILE.

func init() {
	scriptCmds["case"] = cmdCase
	scriptCmds["held"] = cmdHeld
	scriptCmds["runrace"] = cmdRunrace
	scriptCmds["collectkill"] = cmdCollectkill
	scriptCmds["spoolchunk"] = cmdSpoolchunk
	scriptCmds["imported"] = cmdImported
}

// cmdImported CAMPAIGN N checks that CAMPAIGN holds N receipts, each once,
// with N ledger lines, every answer a receipt names, and no pending,
// journal or temporary file of an import (checkImported).
func cmdImported(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: imported CAMPAIGN N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	checkImported(ts, ts.MkAbs(args[0]), n)
}

// hostileKinds are the kinds of hostile case, each case's name's prefix.
var hostileKinds = []string{"Hang", "Memory", "Data loss", "Escape", "Wrong exit", "Smaller"}

type hostileCase struct {
	seq            int
	script, name   string
	expected, fold string
	held           bool
	runs           []hostileRun
}

type hostileRun struct {
	command    string
	rc         int // -1: killed (by the deadline or a signal)
	timedOut   bool
	start, end time.Time
	rssKiB     int64
}

var hostileCases struct {
	sync.Mutex
	current map[*testscript.TestScript]*hostileCase
	all     []*hostileCase
}

// cmdCase starts a case of the script's (see above).
func cmdCase(ts *testscript.TestScript, neg bool, args []string) {
	fold := ""
	if len(args) > 1 && args[0] == "-cmd" {
		fold, args = args[1], args[2:]
	}
	name, expected, _ := strings.Cut(strings.Join(args, " "), " -- ")
	if neg || name == "" {
		ts.Fatalf("usage: case [-cmd TEXT] NAME... [-- EXPECTED...]")
	}
	hostileCases.Lock()
	defer hostileCases.Unlock()
	if hostileCases.current == nil {
		hostileCases.current = map[*testscript.TestScript]*hostileCase{}
	}
	c := &hostileCase{seq: len(hostileCases.all), script: strings.TrimPrefix(filepath.Base(ts.Getenv("WORK")), "script-"),
		name: name, expected: expected, fold: fold}
	hostileCases.current[ts] = c
	hostileCases.all = append(hostileCases.all, c)
}

// cmdHeld says the current case's expected behaviour held.
func cmdHeld(ts *testscript.TestScript, neg bool, args []string) {
	hostileCases.Lock()
	defer hostileCases.Unlock()
	c := hostileCases.current[ts]
	if neg || len(args) != 0 || c == nil {
		ts.Fatalf("usage: held (after a case)")
	}
	for _, r := range c.runs {
		if r.timedOut {
			ts.Fatalf("case %s: %s did not exit within its deadline", c.name, r.command)
		}
	}
	c.held = true
	delete(hostileCases.current, ts)
}

// recordCase adds a process that ran from start until now to the script's
// current case, if any.
func recordCase(ts *testscript.TestScript, command string, ps *os.ProcessState, rssKiB int64, start time.Time, timedOut bool) {
	if work := ts.Getenv("WORK"); work != "" {
		command = strings.ReplaceAll(command, work+string(filepath.Separator), "")
	}
	r := hostileRun{command: command, rc: -1, timedOut: timedOut, start: start, end: time.Now(), rssKiB: rssKiB}
	if ps != nil {
		r.rc = ps.ExitCode()
	}
	hostileCases.Lock()
	defer hostileCases.Unlock()
	if c := hostileCases.current[ts]; c != nil {
		c.runs = append(c.runs, r)
	}
}

// runRecorded runs cmd to its end and records it in the current case.
func runRecorded(ts *testscript.TestScript, cmd *exec.Cmd) error {
	return waitRecorded(ts, cmd, startRecorded(ts, cmd))
}

// startRecorded starts cmd, measured (measureRSS), for waitRecorded.
func startRecorded(ts *testscript.TestScript, cmd *exec.Cmd) func(error) error {
	args := strings.Join(cmd.Args, " ")
	peak := measureRSS(cmd)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return func(error) error { return err }
	}
	return func(err error) error {
		recordCase(ts, args, cmd.ProcessState, peak(), start, false)
		return err
	}
}

// waitRecorded waits for a command startRecorded started and records it.
func waitRecorded(ts *testscript.TestScript, cmd *exec.Cmd, done func(error) error) error {
	if cmd.Process == nil {
		return done(nil)
	}
	return done(cmd.Wait())
}

// recordKilled records a command killed on purpose: its peak RSS is not
// measured (GNU time would be killed in its place).
func recordKilled(ts *testscript.TestScript, cmd *exec.Cmd, start time.Time) {
	recordCase(ts, strings.Join(cmd.Args, " "), cmd.ProcessState, -1, start, false)
}

// TestHostileTable runs every hostile case and writes the table to the
// file EVALGATE_HOSTILE_TABLE names (make hostile-table). Without it the
// test is skipped: make test runs the quick cases in TestScripts.
func TestHostileTable(t *testing.T) {
	out := os.Getenv("EVALGATE_HOSTILE_TABLE")
	if out == "" {
		t.Skip("EVALGATE_HOSTILE_TABLE=FILE runs every hostile case and writes their table (make hostile-table)")
	}
	if bin := os.Getenv("EVALGATE_BIN"); bin != "" {
		// The built binary, not this test binary, is the evalgate every
		// case runs.
		abs, err := filepath.Abs(bin)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := os.Symlink(abs, filepath.Join(dir, "evalgate")); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	hostileSourceDir, _ = os.Getwd()
	files, _ := filepath.Glob("testdata/script/hostile_*.txtar")
	files = append(files, "testdata/script/import_concurrent.txtar")
	heavy, _ := filepath.Glob("testdata/hostile/*.txtar")
	files = append(files, heavy...)
	began := time.Now()
	load := loadAverage()
	t.Run("cases", func(t *testing.T) {
		testscript.Run(t, testscript.Params{
			Files:               files,
			RequireExplicitExec: true,
			Setup:               setupExampleCopy,
			Cmds:                scriptCmds,
		})
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Every hostile case, each a subprocess of the evalgate binary (`make hostile-table`), %s, %s.\n",
		began.UTC().Format("2006-01-02 15:04 MST"), machine())
	fmt.Fprintf(&b, "Load average %s at the start, %s at the end; %s in all. rc -1 is a process killed (by its deadline, or on purpose).\n\n",
		load, loadAverage(), time.Since(began).Round(time.Second))
	b.WriteString(hostileTableMarkdown())
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
}

// hostileTableMarkdown renders every recorded case as a markdown table.
func hostileTableMarkdown() string {
	hostileCases.Lock()
	defer hostileCases.Unlock()
	cases := slices.Clone(hostileCases.all)
	// In the order of kinds ("Hang: …", "Memory: …"), then as run.
	kind := func(c *hostileCase) int {
		k, _, _ := strings.Cut(c.name, ":")
		if i := slices.Index(hostileKinds, k); i >= 0 {
			return i
		}
		return len(hostileKinds)
	}
	slices.SortStableFunc(cases, func(a, b *hostileCase) int { return cmp.Or(kind(a)-kind(b), a.seq-b.seq) })
	var b strings.Builder
	b.WriteString("| case | command | rc | seconds | peak RSS | result |\n|---|---|---|---|---|---|\n")
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, c := range cases {
		result := "yes"
		if !c.held {
			result = "**NO**"
		}
		if c.expected != "" {
			result += ": " + c.expected
		}
		rows := c.runs
		if c.fold != "" && len(rows) > 0 {
			f := hostileRun{command: fmt.Sprintf("%s (%d processes)", c.fold, len(rows)), start: rows[0].start, end: rows[0].end, rssKiB: -1}
			var rcs []string
			for _, r := range rows {
				if rc := strconv.Itoa(r.rc); !slices.Contains(rcs, rc) {
					rcs = append(rcs, rc)
				}
				f.start, f.end, f.rssKiB = minTime(f.start, r.start), maxTime(f.end, r.end), max(f.rssKiB, r.rssKiB)
			}
			slices.Sort(rcs)
			f.command += "\x00" + strings.Join(rcs, ", ")
			rows = []hostileRun{f}
		}
		if len(rows) == 0 {
			fmt.Fprintf(&b, "| %s | (none ran) | | | | %s |\n", cell(c.name), result)
		}
		for _, r := range rows {
			command, rc, _ := strings.Cut(r.command, "\x00")
			if rc == "" {
				rc = strconv.Itoa(r.rc)
			}
			rss := "not measured"
			if r.rssKiB >= 0 {
				rss = fmt.Sprintf("%.1f MiB", float64(r.rssKiB)/1024)
			}
			fmt.Fprintf(&b, "| %s | `%s` | %s | %.2f | %s | %s |\n", cell(c.name), cell(command), rc,
				r.end.Sub(r.start).Seconds(), rss, cell(result))
		}
	}
	return b.String()
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// machine names the CPU, its count and the OS, as far as they are known.
func machine() string {
	cpu := runtime.GOARCH
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d CPUs, %s/%s, %s", cpu, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

// dirFiles reads every file under dir but its lock file: slash-separated
// path → bytes (nil when dir is missing).
func dirFiles(ts *testscript.TestScript, dir string) map[string]string {
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil
	}
	files := map[string]string{}
	ts.Check(filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || e.Name() == ".evalgate-lock" {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	}))
	return files
}

// cmdRunrace N: N times, two runs of two examples into one --out at once
// (both with --force): both exit 0, --out then holds exactly one of the
// two complete sets, show accepts it, and nothing is left beside it.
func cmdRunrace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: runrace N")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	examples := []string{"paired-review", "paired-review-green"}
	var refs []map[string]string
	for _, ex := range examples {
		ref := ts.MkAbs(filepath.Join("runrace-ref", ex))
		ts.Check(exec.Command("evalgate", "run", "--example", ex, "--no-intervals", "--out", ref).Run())
		refs = append(refs, dirFiles(ts, ref))
	}
	seen := map[int]int{}
	for i := range n {
		out := ts.MkAbs(filepath.Join("runrace", strconv.Itoa(i), "out"))
		var cmds []*exec.Cmd
		var dones []func(error) error
		for _, ex := range examples {
			cmd := exec.Command("evalgate", "run", "--example", ex, "--no-intervals", "--force", "--out", out)
			dones = append(dones, startRecorded(ts, cmd))
			cmds = append(cmds, cmd)
		}
		for j, cmd := range cmds {
			if err := waitRecorded(ts, cmd, dones[j]); err != nil {
				ts.Fatalf("try %d: the run of %s: %v", i, examples[j], err)
			}
		}
		got := dirFiles(ts, out)
		which := slices.IndexFunc(refs, func(ref map[string]string) bool { return maps.Equal(got, ref) })
		if which < 0 {
			ts.Fatalf("try %d: --out holds neither complete set: %v", i, slices.Sorted(maps.Keys(got)))
		}
		seen[which]++
		var errOut bytes.Buffer
		show := exec.Command("evalgate", "show", out)
		show.Stderr = &errOut
		if err := runRecorded(ts, show); err != nil {
			ts.Fatalf("try %d: show refused the set: %v\n%s", i, err, &errOut)
		}
		if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
			ts.Fatalf("try %d: left beside --out: %v", i, entries)
		}
	}
	fmt.Fprintf(ts.Stdout(), "%d races: both runs exited 0, one complete set that show accepts each time\n", n)
	ts.Logf("the last writer was %s %d times, %s %d times", examples[0], seen[0], examples[1], seen[1])
}

// cmdCollectkill FIRST SECOND N: N times, a dataset holding FIRST's run
// receives SECOND's, the collect killed (SIGKILL) at a random instant of
// its run; the next collect of both exits 0 and leaves exactly the
// dataset an uninterrupted collect writes: no temporary, pending or
// journal file, no partition of the killed collect, no empty directory.
func cmdCollectkill(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: collectkill FIRST SECOND N")
	}
	first, second := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	n, err := strconv.Atoi(args[2])
	ts.Check(err)
	ref := ts.MkAbs("collectkill/reference")
	ts.Check(exec.Command("evalgate", "collect", first, second, "--into", ref).Run())
	want := dirFiles(ts, ref)
	probe := ts.MkAbs("collectkill/probe")
	ts.Check(exec.Command("evalgate", "collect", first, "--into", probe).Run())
	start := time.Now()
	ts.Check(exec.Command("evalgate", "collect", second, "--into", probe).Run())
	span := time.Since(start)
	rng := rand.New(rand.NewPCG(31, 11))
	for i := range n {
		dataset := ts.MkAbs(filepath.Join("collectkill", strconv.Itoa(i)))
		ts.Check(exec.Command("evalgate", "collect", first, "--into", dataset).Run())
		cmd := exec.Command("evalgate", "collect", second, "--into", dataset)
		started := time.Now()
		ts.Check(cmd.Start())
		time.Sleep(time.Duration(rng.Int64N(int64(span))))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		recordKilled(ts, cmd, started)
		if err := runRecorded(ts, exec.Command("evalgate", "collect", first, second, "--into", dataset)); err != nil {
			ts.Fatalf("try %d: the collect after the kill: %v", i, err)
		}
		if got := dirFiles(ts, dataset); !maps.Equal(got, want) {
			ts.Fatalf("try %d: the dataset after the kill and the next collect differs from an uninterrupted one (%d files, want %d)", i, len(got), len(want))
		}
		ts.Check(filepath.WalkDir(dataset, func(p string, e os.DirEntry, err error) error {
			if err == nil && e.IsDir() {
				if entries, _ := os.ReadDir(p); len(entries) == 0 {
					return fmt.Errorf("try %d: empty directory %s", i, p)
				}
			}
			return err
		}))
	}
	fmt.Fprintf(ts.Stdout(), "%d killed collects: the next collect exited 0 and left the uninterrupted dataset each time\n", n)
}

// hostileSourceDir is cmd/evalgate's directory, where TestHostileTable
// starts.
var hostileSourceDir string

// cmdSpoolchunk runs the spool package's test of a damaged chunk (a few
// bytes whose block states a decoded length of gigabytes) as a
// subprocess, the test binary EVALGATE_SPOOL_TEST names (make
// hostile-table builds it; without it, it is built here): the spool is
// evalgate's own temporary storage, which no command reads from a path a
// user gives, so no evalgate command can be given the chunk.
func cmdSpoolchunk(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: spoolchunk")
	}
	bin := os.Getenv("EVALGATE_SPOOL_TEST")
	if bin == "" {
		bin = ts.MkAbs("spool.test")
		build := exec.Command("go", "test", "-c", "-o", bin, "./spool")
		build.Dir = filepath.Join(hostileSourceDir, "..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			ts.Fatalf("go test -c ./spool: %v\n%s", err, out)
		}
	}
	cmd := exec.Command(bin, "-test.run", "^TestSpoolCodecStatedLength$", "-test.v")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := runRecorded(ts, cmd)
	ts.Stdout().Write(out.Bytes())
	ts.Check(err)
}
