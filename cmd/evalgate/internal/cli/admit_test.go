package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

const validRequest = `{"format":"evalgate.request/v1","request_id":"req-next","session_id":"T9-r1-D",` +
	`"rate_card":"codex-work-2026-09-05","meter_shape":"openai.responses","reservation_id":"res-next",` +
	`"max_input_tokens":50000,"max_output_tokens":5000}`

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
		{"replayed", []string{"admit", "--request", write("replay.json", strings.Replace(validRequest, "req-next", "req_6081b5d3f6fc6552", 1))}, ExitOK},
		{"refused over the session ceiling", []string{"admit", "--request", write("big.json", strings.Replace(validRequest, "50000", "90001", 1))}, ExitRejected},
		{"refused without reservation", []string{"admit", "--request", write("nores.json", strings.Replace(validRequest, `"res-next"`, `""`, 1))}, ExitRejected},
		{"malformed request file", []string{"admit", "--request", write("bad.json", "{")}, ExitRejected},
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

func TestDecodeRequest(t *testing.T) {
	t.Run("valid", func(t *testing.T) {
		r, fs := decodeRequest("r.json", []byte(validRequest))
		if len(fs) != 0 || r.RequestID != "req-next" || r.MaxInputTokens != 50_000 || r.MaxOutputTokens != 5_000 ||
			r.MeterShape != "openai.responses" || r.ReservationID != "res-next" || r.RateCard != "codex-work-2026-09-05" {
			t.Fatalf("request %+v findings %v", r, fs)
		}
	})
	bad := []struct {
		name, body, ptr string
	}{
		{"not an object", `[1]`, ""},
		{"empty", ``, ""},
		{"unknown member", strings.Replace(validRequest, `"format"`, `"extra":1,"format"`, 1), "/extra"},
		{"duplicate member", strings.Replace(validRequest, `"format"`, `"request_id":"x","format"`, 1), "/request_id"},
		{"string bound", strings.Replace(validRequest, `50000`, `"50000"`, 1), "/max_input_tokens"},
		{"fractional bound", strings.Replace(validRequest, `50000`, `5.5`, 1), "/max_input_tokens"},
		{"null bound", strings.Replace(validRequest, `5000}`, `null}`, 1), "/max_output_tokens"},
		{"wrong format", strings.Replace(validRequest, `request/v1`, `request/v2`, 1), "/format"},
		{"trailing garbage", validRequest + `x`, ""},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, fs := decodeRequest("r.json", []byte(tc.body))
			if len(fs) == 0 {
				t.Fatal("accepted")
			}
			f := fs[0]
			if f.Code != tables.CodeAdmissionInvalidRequest || f.File != "r.json" || f.Severity != tables.Reject || f.Message == "" {
				t.Errorf("finding %+v", f)
			}
			if tc.ptr != "" && f.Pointer != tc.ptr {
				t.Errorf("pointer %q, want %q", f.Pointer, tc.ptr)
			}
		})
	}
}

// FuzzDecodeRequest: any bytes decode to a request or to findings, never
// both, never a panic.
func FuzzDecodeRequest(f *testing.F) {
	f.Add([]byte(validRequest))
	f.Add([]byte(`{"max_input_tokens":-1,"max_output_tokens":1e99}`))
	f.Add([]byte(`{"format":"evalgate.request/v1","max_input_tokens":1,"max_output_tokens":1,"a":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, fs := decodeRequest("r.json", data)
		if len(fs) > 0 && r.RequestID != "" {
			t.Fatalf("findings %v with a decoded request %+v", fs, r)
		}
		for _, f := range fs {
			if f.Code != tables.CodeAdmissionInvalidRequest || f.Message == "" {
				t.Fatalf("finding %+v", f)
			}
		}
	})
}
