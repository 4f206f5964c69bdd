package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
)

// hostileName holds ESC (the start of a terminal escape sequence), U+202E
// (RIGHT-TO-LEFT OVERRIDE, which reorders what a terminal shows) and a
// newline, after which SPLIT would begin a line of its own if printed raw.
const hostileName = "n\x1b[31m\u202e\nSPLIT"

// hostileShown is hostileName as every text output prints it.
const hostileShown = `n\x1b[31m\u202e\nSPLIT`

// TestTextOutputsEscapeNames runs every command that prints a file name or
// a value on directories and files whose names hold ESC, U+202E and a
// newline, and requires that no raw control byte or bidirectional override
// reach stdout or stderr, that no line be split by the name's newline, and
// that the name be printed in its escaped form where it is printed.
func TestTextOutputsEscapeNames(t *testing.T) {
	base := t.TempDir()
	at := func(kind string) string { return filepath.Join(base, kind+hostileName) }
	copyExample := func(example, dir string) {
		fsys, ok := fixtures.Example(example)
		if !ok {
			t.Fatalf("no example %s", example)
		}
		if err := os.CopyFS(dir, fsys); err != nil {
			t.Fatal(err)
		}
	}
	camp, green := at("camp"), at("green")
	copyExample(fixtures.DefaultExample, camp)
	copyExample("paired-review-green", green)
	request := at("request") + ".json"
	writeTestFile(t, request, `{"format":"evalgate.request/v1","request_id":"req-fresh","session_id":"T9-r1-D","rate_card":"codex-work-2026-09-05","meter_shape":"openai.responses","reservation_id":"res-fresh","max_input_tokens":1,"max_output_tokens":0}`)
	inspectLog := at("log") + ".json"
	writeTestFile(t, inspectLog, `{"version":2,"status":"success","eval":{"run_id":"r1","task":"t","model":"openai/m","created":"2026-10-01T08:00:00+00:00","packages":{"inspect_ai":"0.3.200"}},`+
		`"samples":[{"id":"s1","epoch":1,"model_usage":{"openai/m":{"input_tokens":10,"input_tokens_cache_read":0,"input_tokens_cache_write":0,"output_tokens":1,"reasoning_tokens":0,"total_tokens":11}}}]}`)
	codexTree := at("codex")
	writeTestFile(t, filepath.Join(codexTree, "rollout"+hostileName+".jsonl"), "x\n")
	inspectMap := at("map") + ".json"
	writeTestFile(t, inspectMap, `{"format":"evalgate.import_map/v1","source":"inspect","sessions":[]}`)
	out, greenOut := at("out"), at("greenout")

	for _, c := range []struct {
		name  string
		args  []string
		shown bool // the hostile name is printed (escaped)
	}{
		{"synth", []string{"synth", "--kind", "paired-review", "--sessions", "3", "--out", at("synth")}, true},
		{"init", []string{"init", "--kind", "paired-review", "--arm", "A", "--arm", "B:reconciliation", "--task", "T1:repo:F1:behavior_explanation", "--prompt", "common", at("init")}, true},
		{"validate", []string{"validate", camp}, true},
		{"preflight", []string{"preflight", camp}, true},
		{"prompts render --all", []string{"prompts", "render", camp, "--all"}, true},
		{"admit", []string{"admit", camp, "--request", request}, false},
		{"admit (rejected request)", []string{"admit", camp, "--request", inspectLog}, true},
		{"blind export", []string{"blind", "export", camp, "--out", at("blind")}, true},
		{"run", []string{"run", camp, "--no-intervals", "--out", out}, true},
		{"run (green)", []string{"run", green, "--no-intervals", "--out", greenOut}, true},
		{"show", []string{"show", out}, true},
		{"compare", []string{"compare", out, greenOut}, true},
		{"compare --format md", []string{"compare", out, greenOut, "--format", "md"}, false},
		{"collect", []string{"collect", out, "--into", at("dataset")}, true},
		{"import inspect (preview)", []string{"import", "inspect", inspectLog}, true},
		{"import codex (preview)", []string{"import", "codex", codexTree}, true},
		{"import inspect --into", []string{"import", "inspect", inspectLog, "--into", camp, "--map", inspectMap}, true},
		{"import codex --into", []string{"import", "codex", codexTree, "--into", camp, "--map", inspectMap}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := evalgate(t, c.args...)
			t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			for stream, s := range map[string]string{"stdout": stdout, "stderr": stderr} {
				if i := strings.IndexFunc(s, rawControl); i >= 0 {
					t.Errorf("%s holds %q raw at byte %d: %q", stream, s[i:i+1], i, s[max(0, i-40):min(len(s), i+40)])
				}
				for _, line := range strings.Split(s, "\n") {
					if strings.HasPrefix(line, "SPLIT") {
						t.Errorf("%s: a name's newline split a line: %q", stream, line)
					}
				}
			}
			if c.shown && !strings.Contains(stdout+stderr, hostileShown) {
				t.Errorf("the name is not printed in its escaped form %s", hostileShown)
			}
		})
	}
}

// rawControl reports a rune no text output may print raw: a control
// character other than the newline and tab its own layout writes, or a
// bidirectional formatting character.
func rawControl(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

func writeTestFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
