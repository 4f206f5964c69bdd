package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/rogpeppe/go-internal/testscript"
)

// The imports of import_concurrent.txtar: the three sources mksources
// writes (24 Inspect drafts, 23 Codex and 23 Harbor reviews), each with
// its mapping.
var raceImports = [][]string{
	{"inspect", "inspect/drafts.json", "maps/inspect.json"},
	{"codex", "codex", "maps/codex.json"},
	{"harbor", "harbor", "maps/harbor.json"},
}

func importCmd(src, camp string, imp []string) *exec.Cmd {
	return exec.Command("evalgate", "import", imp[0], filepath.Join(src, imp[1]), "--into", camp, "--map", filepath.Join(src, imp[2]))
}

// copyTree copies the regular files and directories of src to dst.
func copyTree(ts *testscript.TestScript, src, dst string) {
	ts.Check(filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err == nil {
			err = os.WriteFile(filepath.Join(dst, rel), data, 0o644)
		}
		return err
	}))
}

// checkImported checks that camp holds every one of want receipts once,
// a ledger line for each, an answer file for each receipt naming one, and
// no pending, journal or temporary file of an import.
func checkImported(ts *testscript.TestScript, camp string, want int) {
	receipts, _ := os.ReadFile(filepath.Join(camp, "receipts.jsonl"))
	ledger, _ := os.ReadFile(filepath.Join(camp, "imports.jsonl"))
	ids := map[string]bool{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(receipts)), "\n") {
		var r struct {
			SessionID string `json:"session_id"`
			Output    *struct {
				Path string `json:"path"`
			} `json:"output"`
		}
		if line == "" {
			continue
		}
		ts.Check(json.Unmarshal([]byte(line), &r, json.RejectUnknownMembers(false)))
		if ids[r.SessionID] {
			ts.Fatalf("%s: session %s twice", camp, r.SessionID)
		}
		ids[r.SessionID] = true
		if r.Output != nil {
			if _, err := os.Stat(filepath.Join(camp, r.Output.Path)); err != nil {
				ts.Fatalf("%s: the answer of %s: %v", camp, r.SessionID, err)
			}
		}
	}
	if n := bytes.Count(ledger, []byte("\n")); len(ids) != want || n != want {
		ts.Fatalf("%s holds %d receipts and %d ledger lines, want %d of each", camp, len(ids), n, want)
	}
	ts.Check(filepath.WalkDir(camp, func(p string, e fs.DirEntry, err error) error {
		if n := e.Name(); err == nil && (strings.Contains(n, ".evalgate-pending") || strings.Contains(n, ".tmp-") || n == ".evalgate-commit.json") {
			return fmt.Errorf("%s left in the campaign", p)
		}
		return err
	}))
}

// cmdImportrace CAMPAIGN SRC N: N times, a copy of CAMPAIGN receives the
// three imports of SRC at once; each exits 0 and the copy then holds all
// 70 receipts, each with its ledger line. Before the campaign's lock, the
// three read the same old receipts.jsonl and the last writer's file won.
func cmdImportrace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: importrace CAMPAIGN SRC N")
	}
	camp, src := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	n, err := strconv.Atoi(args[2])
	ts.Check(err)
	waited := 0
	for i := range n {
		dir := ts.MkAbs(filepath.Join("race", strconv.Itoa(i)))
		copyTree(ts, camp, dir)
		var cmds []*exec.Cmd
		var errs []*bytes.Buffer
		var dones []func(error) error
		for _, imp := range raceImports {
			cmd := importCmd(src, dir, imp)
			var b bytes.Buffer
			cmd.Stderr = &b
			dones = append(dones, startRecorded(ts, cmd))
			cmds, errs = append(cmds, cmd), append(errs, &b)
		}
		for j, cmd := range cmds {
			if err := waitRecorded(ts, cmd, dones[j]); err != nil {
				ts.Fatalf("try %d: import %s: %v\n%s", i, raceImports[j][0], err, errs[j])
			}
			if strings.Contains(errs[j].String(), "waiting for another import") {
				waited++
			}
		}
		checkImported(ts, dir, 70)
	}
	fmt.Fprintf(ts.Stdout(), "%d races: every import exited 0, 70 receipts and 70 ledger lines each\n", n)
	ts.Logf("%d of the %d imports waited for another", waited, 3*n)
}

// cmdImportkill CAMPAIGN SRC N: N times, a copy of CAMPAIGN that holds the
// Inspect import receives the Codex import, killed (SIGKILL) at a random
// instant of its run; then the Codex import again and the Harbor import
// exit 0 and the copy holds all 70 receipts, each with its ledger line
// and answer, and nothing the killed import left.
func cmdImportkill(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: importkill CAMPAIGN SRC N")
	}
	camp, src := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	n, err := strconv.Atoi(args[2])
	ts.Check(err)
	// How long one uncontended Codex import takes, to kill within it.
	probe := ts.MkAbs("kill/probe")
	copyTree(ts, camp, probe)
	ts.Check(importCmd(src, probe, raceImports[0]).Run())
	start := time.Now()
	ts.Check(importCmd(src, probe, raceImports[1]).Run())
	span := time.Since(start)
	rng := rand.New(rand.NewPCG(31, 7))
	recovered, completed := 0, 0
	for i := range n {
		dir := ts.MkAbs(filepath.Join("kill", strconv.Itoa(i)))
		copyTree(ts, camp, dir)
		ts.Check(importCmd(src, dir, raceImports[0]).Run())
		cmd := importCmd(src, dir, raceImports[1])
		started := time.Now()
		ts.Check(cmd.Start())
		time.Sleep(time.Duration(rng.Int64N(int64(span))))
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		recordKilled(ts, cmd, started)
		if err == nil {
			completed++
		}
		for _, imp := range raceImports[1:] {
			var b bytes.Buffer
			next := importCmd(src, dir, imp)
			next.Stderr = &b
			if err := runRecorded(ts, next); err != nil {
				ts.Fatalf("try %d: the import after the kill: %v\n%s", i, err, &b)
			}
			if strings.Contains(b.String(), "interrupted write") || strings.Contains(b.String(), "a killed import left") {
				recovered++
			}
		}
		checkImported(ts, dir, 70)
	}
	fmt.Fprintf(ts.Stdout(), "%d killed imports: the next imports exited 0, 70 receipts and 70 ledger lines each\n", n)
	ts.Logf("%d kills came after the import finished; %d next imports recovered a killed one's files", completed, recovered)
}
