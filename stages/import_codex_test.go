package stages_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/tables"
)

// TestImportCodexMultiTurn imports a rollout of two user turns and three
// model responses in which Codex re-emitted two token_count events
// unchanged. Read independently below: every event's running total summed
// gives 123,000 input tokens, every event's last turn summed gives 72,000;
// both are wrong. The session used what its final running total says,
// which equals the three distinct turns: input 12,000 + 15,000 + 18,000 =
// 45,000 (cached 9,000 + 12,000 + 16,000 = 37,000, so 8,000 uncached),
// output 700 + 400 + 900 = 2,000 (reasoning 512 + 256 + 300 = 1,068).
// Priced by hand at $4 / $0.40 / $20 per million:
//
//	8,000 × 4    = 32,000 → $0.032
//	37,000 × 0.4 = 14,800 → $0.0148
//	2,000 × 20   = 40,000 → $0.04
//	                total    $0.0868
func TestImportCodexMultiTurn(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join(codexRollouts, "multi-turn.jsonl"))
	var sumTotals, sumLasts int64
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var l struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
				Info *struct {
					Total struct {
						InputTokens int64 `json:"input_tokens"`
					} `json:"total_token_usage"`
					Last struct {
						InputTokens int64 `json:"input_tokens"`
					} `json:"last_token_usage"`
				} `json:"info"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatal(err)
		}
		if l.Type == "event_msg" && l.Payload.Type == "token_count" && l.Payload.Info != nil {
			sumTotals += l.Payload.Info.Total.InputTokens
			sumLasts += l.Payload.Info.Last.InputTokens
		}
	}
	if sumTotals != 123000 || sumLasts != 72000 {
		t.Fatalf("the fixture no longer discriminates: naive sums %d and %d", sumTotals, sumLasts)
	}

	man, _, receipts, fs := importCodex(t, "multi-turn.jsonl")
	if fs.Rejected() {
		t.Fatalf("rejected: %v", fs)
	}
	var r tables.Receipt
	if err := jsonUnmarshalReceipt(bytes.TrimSpace(receipts), &r); err != nil {
		t.Fatal(err)
	}
	b, problems := account.DecodeMeter(r.Meter.Shape, r.Meter.Usage)
	want := account.Buckets{UncachedInput: 8000, CachedInput: 37000, Output: 2000, Reasoning: 1068}
	if len(problems) > 0 || b != want {
		t.Fatalf("buckets %+v %v, want %+v", b, problems, want)
	}
	if r.RequestID != codexSession || r.Identity.ReturnedModel != "gpt-5.6-sol" || r.StartedAt.Format("15:04:05.000") != "09:00:00.000" ||
		r.EndedAt == nil || r.EndedAt.Format("15:04:05.000") != "09:00:41.320" || r.Status != tables.StatusResponse {
		t.Errorf("identity or times not the rollout's own: %+v", r)
	}
	if r.MonotonicStartNS != nil || r.Reservation != nil || r.Inputs.RenderedSHA256 != "" {
		t.Errorf("absent facts were filled in: %+v", r)
	}
	set := account.Run(&tables.Campaign{Manifest: *man, Receipts: spool.Of(tables.Line[tables.Receipt]{Line: 1, Record: r})})
	cost, _ := tables.ParseMoney("0.0868")
	if set.Tokens.Len() != 1 || set.Tokens.Collect()[0].ReferenceCost == nil || *set.Tokens.Collect()[0].ReferenceCost != cost {
		t.Errorf("priced %+v, want $0.0868", set.Tokens)
	}
}
