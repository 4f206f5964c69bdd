package importers

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/evalgate/evalgate/rules"
)

// FuzzCodexRollout: any bytes give a record or rejecting findings, never a
// panic. Oracle, read independently with encoding/json: an accepted
// rollout's meter is the last token_count event's running total, and its
// session ID is the one session_meta's id.
func FuzzCodexRollout(f *testing.F) {
	for _, name := range []string{"multi-turn.jsonl", "resumed.jsonl", "error.jsonl"} {
		data, err := os.ReadFile("testdata/codex/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"timestamp":"2026-10-01T09:00:00Z","type":"session_meta","payload":{"id":"s"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, fs := ReadCodexRollout("fuzz", data)
		typedFindings(t, fs)
		if rec == nil {
			if !fs.Rejected() {
				t.Fatal("no record and no rejecting finding")
			}
			return
		}
		var id string
		var last map[string]any
		for _, line := range bytes.Split(data, []byte("\n")) {
			var l struct {
				Type    string `json:"type"`
				Payload struct {
					ID   string `json:"id"`
					Type string `json:"type"`
					Info *struct {
						Total map[string]any `json:"total_token_usage"`
					} `json:"info"`
				} `json:"payload"`
			}
			if json.Unmarshal(line, &l) != nil {
				continue
			}
			switch {
			case l.Type == "session_meta":
				id = l.Payload.ID
			case l.Type == "event_msg" && l.Payload.Type == "token_count" && l.Payload.Info != nil:
				last = l.Payload.Info.Total
			}
		}
		if rec.RequestID != id {
			t.Fatalf("request ID %q, session_meta id %q", rec.RequestID, id)
		}
		if rec.MeterShape != "" {
			var got map[string]any
			if err := json.Unmarshal(rec.Usage, &got); err != nil || !jsonEqual(got, last) {
				t.Fatalf("meter %s, last running total %v", rec.Usage, last)
			}
		}
	})
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// FuzzHarborTrial: any bytes give a record or rejecting findings, never a
// panic. Oracle: an accepted trial has the document's own id; one marked
// without outcome has neither an exception nor a numeric reward.
func FuzzHarborTrial(f *testing.F) {
	for _, name := range []string{"fix-parser__Ab3xK9q", "fix-parser__Tm7QwE2", "fix-parser__Zr5PnL8"} {
		data, err := os.ReadFile("testdata/harbor/" + name + "/result.json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, fs := ReadHarborTrial("fuzz", data, nil)
		typedFindings(t, fs)
		if rec == nil {
			if !fs.Rejected() {
				t.Fatal("no record and no rejecting finding")
			}
			return
		}
		var d struct {
			ID             string          `json:"id"`
			ExceptionInfo  json.RawMessage `json:"exception_info"`
			VerifierResult *struct {
				Rewards map[string]json.RawMessage `json:"rewards"`
			} `json:"verifier_result"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			return // encoding/json is stricter than the reader about some inputs (e.g. duplicate names)
		}
		if rec.RequestID != d.ID {
			t.Fatalf("request ID %q, document id %q", rec.RequestID, d.ID)
		}
		if rec.NoOutcome {
			rewarded := false
			if d.VerifierResult != nil {
				for _, v := range d.VerifierResult.Rewards {
					var n float64
					rewarded = rewarded || json.Unmarshal(v, &n) == nil
				}
			}
			if (len(d.ExceptionInfo) > 0 && string(d.ExceptionInfo) != "null") || rewarded {
				t.Fatalf("marked without outcome: %s", data)
			}
		}
	})
}

// typedFindings fails when a finding lacks its code, message or severity.
func typedFindings(t *testing.T, fs rules.Findings) {
	t.Helper()
	for _, x := range fs {
		if x.Code == "" || x.Message == "" || (x.Severity != rules.Reject && x.Severity != rules.Warn) {
			t.Fatalf("untyped finding %+v", x)
		}
	}
}
