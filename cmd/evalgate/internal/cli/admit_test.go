package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const validRequest = `{"format":"evalgate.request/v1","request_id":"req-next","session_id":"T9-r1-D",` +
	`"rate_card":"codex-work-2026-09-05","meter_shape":"openai.responses","reservation_id":"res-next",` +
	`"max_input_tokens":50000,"max_output_tokens":5000}`

// replayRequest repeats the example's request of session T2-r1-D with its
// reservation's bound.
const replayRequest = `{"format":"evalgate.request/v1","request_id":"req_6081b5d3f6fc6552","session_id":"T2-r1-D",` +
	`"rate_card":"codex-work-2026-09-05","meter_shape":"openai.responses","reservation_id":"res-T2-r1-D",` +
	`"max_input_tokens":5000,"max_output_tokens":8000}`

// TestAdmitExitCodes pins admit's exit codes: 0 admitted or replayed,
// 1 refused or a rejected request file, 2 usage.
func TestAdmitExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.json", validRequest)
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"admitted", []string{"admit", "--request", ok}, ExitOK},
		{"replayed", []string{"admit", "--request", write("replay.json", replayRequest)}, ExitOK},
		{"request ID reused for another session", []string{"admit", "--request", write("reused.json", strings.Replace(validRequest, "req-next", "req_6081b5d3f6fc6552", 1))}, ExitRejected},
		{"refused over the session ceiling", []string{"admit", "--request", write("big.json", strings.Replace(validRequest, "50000", "90001", 1))}, ExitRejected},
		{"refused without reservation", []string{"admit", "--request", write("nores.json", strings.Replace(validRequest, `"res-next"`, `""`, 1))}, ExitRejected},
		{"refused without meter", []string{"admit", "--request", write("nometer.json", strings.Replace(validRequest, `"openai.responses"`, `""`, 1))}, ExitRejected},
		{"refused on an empty rate card", []string{"admit", "--request", write("nocard.json", strings.Replace(validRequest, `"codex-work-2026-09-05"`, `""`, 1))}, ExitRejected},
		{"malformed request file", []string{"admit", "--request", write("bad.json", "{")}, ExitRejected},
		{"request directory", []string{"admit", "--request", dir}, ExitUsage},
		{"no --request", []string{"admit"}, ExitUsage},
		{"unreadable request", []string{"admit", "--request", filepath.Join(dir, "absent.json")}, ExitUsage},
		{"unknown example", []string{"admit", "--example", "nope", "--request", ok}, ExitUsage},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if got := Main(tc.args, &out, &errb); got != tc.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", got, tc.want, out.String(), errb.String())
			}
		})
	}
}

// TestAdmitRejectsRequestFile: a request file the loader rejects prints
// every finding on stderr with the loader's codes, nothing on stdout, and
// exits 1.
func TestAdmitRejectsRequestFile(t *testing.T) {
	cases := []struct {
		name string
		body string
		want []string // stderr lines (prefixes), in order
	}{
		{"every problem at once",
			strings.NewReplacer(`"format":"evalgate.request/v1"`, `"format":"evalgate.request/v0"`,
				`,"max_output_tokens":5000`, `,"max_cost":"0"`).Replace(validRequest),
			[]string{"r.json#/format: format_unsupported: ", "r.json#/max_cost: unknown_key: ", "r.json#/max_output_tokens: missing_key: "}},
		{"oversized", validRequest + strings.Repeat(" ", 64<<10), []string{"r.json: too_large: "}},
		{"absent reservation member", strings.Replace(validRequest, `,"reservation_id":"res-next"`, ``, 1),
			[]string{"r.json#/reservation_id: missing_key: "}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "r.json")
			if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			if got := Main([]string{"admit", "--request", p}, &out, &errb); got != ExitRejected || out.Len() != 0 {
				t.Fatalf("exit %d, stdout %q; want exit %d and no stdout", got, out.String(), ExitRejected)
			}
			lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
			if len(lines) != len(tc.want)+1 {
				t.Fatalf("stderr:\n%s\nwant %d findings and a summary line", errb.String(), len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(lines[i], filepath.Join(dir, w)) {
					t.Errorf("stderr line %d = %q, want prefix %q", i+1, lines[i], filepath.Join(dir, w))
				}
			}
		})
	}
}
