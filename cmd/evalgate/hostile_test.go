package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/internal/heaptest"
	"github.com/evalgate/evalgate/internal/hostile"
)

// Hostile campaign directories through the CLI: each case makes one file of
// a copy of the example hostile and requires the command to exit promptly
// with its typed code, and no output to show a byte of what a symlink
// points at.

const (
	hostileAnswer = "answers/T1-r1-B.json"
	secretText    = "TOP-SECRET root:x:0:0\n"
)

// hostileCopy writes the example campaign into a fresh directory beside a
// secret file and returns both paths.
func hostileCopy(t *testing.T) (camp, secret string) {
	t.Helper()
	base := t.TempDir()
	fsys, _ := fixtures.Example(fixtures.DefaultExample)
	camp = filepath.Join(base, "camp")
	if err := os.CopyFS(camp, fsys); err != nil {
		t.Fatal(err)
	}
	secret = filepath.Join(base, "secret")
	if err := os.WriteFile(secret, []byte(secretText), 0o644); err != nil {
		t.Fatal(err)
	}
	return camp, secret
}

// referencedSource is a source file the example's packets cite.
func referencedSource(t *testing.T, camp string) string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(camp, "sources"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("example has no sources: %v", err)
	}
	return "sources/" + entries[0].Name()
}

// declareBytes sets the byte count the receipt of hostileAnswer declares.
func declareBytes(t *testing.T, camp string, n int64) {
	t.Helper()
	path := filepath.Join(camp, "receipts.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`("path":"` + regexp.QuoteMeta(hostileAnswer) + `","sha256":"[0-9a-f]{64}","bytes":)[0-9]+`)
	if !re.Match(data) {
		t.Fatalf("no receipt output for %s", hostileAnswer)
	}
	data = re.ReplaceAll(data, []byte(fmt.Sprintf("${1}%d", n)))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// promptly runs the CLI in-process and fails, rather than hangs, when it
// does not return: a guard against blocking, not a timing assertion.
func promptly(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code        int
		out, errOut string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := evalgate(t, args...)
		done <- result{code, out, errOut}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.errOut
	case <-time.After(2 * time.Minute):
		t.Fatalf("evalgate %s did not return", strings.Join(args, " "))
		return 0, "", ""
	}
}

type hostileCLICase struct {
	name  string
	setup func(t *testing.T, camp, secret string)
	code  string // the typed code validate must print
	file  string // the path the finding must name
	exit  int    // validate's exit code: 1, or 0 for a fault of the model (a warning)
}

func hostileCLICases(t *testing.T) []hostileCLICase {
	camp, _ := hostileCopy(t)
	source := referencedSource(t, camp)
	return []hostileCLICase{
		{"fifo_manifest", hostile.Replace("manifest.json", hostile.FIFO), "file_not_regular", "manifest.json", 1},
		{"fifo_receipts", hostile.Replace("receipts.jsonl", hostile.FIFO), "file_not_regular", "receipts.jsonl", 1},
		{"fifo_answer", hostile.Replace(hostileAnswer, hostile.FIFO), "file_not_regular", hostileAnswer, 1},
		{"fifo_source", hostile.Replace(source, hostile.FIFO), "file_not_regular", source, 1},
		{"dev_zero_answer_declaring_2^53_bytes", func(t *testing.T, camp, secret string) {
			declareBytes(t, camp, 1<<53-1)
			hostile.Replace(hostileAnswer, func(path, _ string) error { return os.Symlink("/dev/zero", path) })(t, camp, secret)
		}, "path_escapes", hostileAnswer, 1},
		{"sparse_answer_of_2^40_bytes_as_declared", func(t *testing.T, camp, _ string) {
			declareBytes(t, camp, 1<<40)
			if err := os.Truncate(filepath.Join(camp, hostileAnswer), 1<<40); err != nil {
				t.Skipf("no sparse files here: %v", err)
			}
		}, "too_large", hostileAnswer, 0},
		{"symlink_source_to_secret", hostile.Replace(source, hostile.LinkOut), "path_escapes", source, 1},
		{"symlink_source_up_to_secret", hostile.Replace(source, hostile.LinkUp), "path_escapes", source, 1},
		{"symlink_answer_to_secret", hostile.Replace(hostileAnswer, hostile.LinkOut), "path_escapes", hostileAnswer, 1},
		{"symlink_task_to_secret", hostile.Replace("tasks/T1/task.md", hostile.LinkOut), "path_escapes", "tasks/T1/task.md", 1},
		{"symlink_packet_up_to_secret", hostile.Replace("tasks/T1/packet.json", hostile.LinkUp), "path_escapes", "tasks/T1/packet.json", 1},
		{"symlink_tasks_dir_to_outside", func(t *testing.T, camp, secret string) {
			tasks := filepath.Join(camp, "tasks")
			outside := filepath.Join(filepath.Dir(secret), "tasks-outside")
			if err := os.Rename(tasks, outside); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, tasks); err != nil {
				t.Fatal(err)
			}
		}, "path_escapes", "tasks/T1/task.md", 1},
	}
}

// TestHostileCampaignsCLI runs validate, validate --json and run on each
// hostile campaign.
func TestHostileCampaignsCLI(t *testing.T) {
	for _, tc := range hostileCLICases(t) {
		t.Run(tc.name, func(t *testing.T) {
			camp, secret := hostileCopy(t)
			tc.setup(t, camp, secret)
			code, stdout, stderr := promptly(t, "validate", camp)
			if code != tc.exit || !strings.Contains(stdout, tc.code) || !strings.Contains(stdout, tc.file) {
				t.Errorf("validate exited %d; want %d with %s naming %s:\n%s%s", code, tc.exit, tc.code, tc.file, stdout, stderr)
			}
			_, jsonOut, jsonErr := promptly(t, "validate", "--json", camp)
			out := filepath.Join(filepath.Dir(camp), "out")
			runCode, runOut, runErr := promptly(t, "run", camp, "--out", out)
			if runCode != 0 && runCode != 1 {
				t.Errorf("run exited %d:\n%s%s", runCode, runOut, runErr)
			}
			noSecret(t, out, stdout, stderr, jsonOut, jsonErr, runOut, runErr)
		})
	}
}

// noSecret fails when any printed text or output file holds the secret
// file's bytes or its sha256.
func noSecret(t *testing.T, out string, printed ...string) {
	t.Helper()
	sum := sha256.Sum256([]byte(secretText))
	marks := [][]byte{[]byte("TOP-SECRET"), []byte(hex.EncodeToString(sum[:]))}
	check := func(where string, data []byte) {
		for _, m := range marks {
			if bytes.Contains(data, m) {
				t.Errorf("%s shows the symlink target (%s)", where, m)
			}
		}
	}
	for i, p := range printed {
		check(fmt.Sprintf("printed text %d", i), []byte(p))
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		check(e.Name(), data)
	}
}

// TestMillionEmptyReceiptLines: a receipts.jsonl of 10^6 lines `{}` (3 MB)
// once ran out of memory at 10 GB, at least 10 KB of findings held per
// line. Its findings are capped, so the peak heap stays far under 256 MiB.
// The test writes 200,000 such lines: a validate that held every line's
// findings would need at least 2 GB there, eight times the bound, and the
// capped one is checked in a fifth of the time 10^6 lines took.
func TestMillionEmptyReceiptLines(t *testing.T) {
	camp, _ := hostileCopy(t)
	if err := os.WriteFile(filepath.Join(camp, "receipts.jsonl"), bytes.Repeat([]byte("{}\n"), 200_000), 0o644); err != nil {
		t.Fatal(err)
	}
	var code int
	var stdout string
	peak := heaptest.Peak(func() { code, stdout, _ = promptly(t, "validate", camp) })
	t.Logf("peak heap %d MiB", peak>>20)
	if peak > 256<<20 {
		t.Errorf("peak heap %d MiB; the bound is 256 MiB", peak>>20)
	}
	if code != 1 || !strings.Contains(stdout, "missing_key") || !strings.Contains(stdout, "findings_capped") {
		t.Errorf("validate exited %d; want 1 with missing_key findings and their findings_capped count:\n%.2000s", code, stdout)
	}
}
