package importers

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// TestReadCodexRollout reads the multi-turn fixture: the session's
// identity, times and final answer come from the rollout's own lines, and
// its meter is the final running total verbatim.
func TestReadCodexRollout(t *testing.T) {
	data, err := os.ReadFile("testdata/codex/multi-turn.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r, fs := ReadCodexRollout("multi-turn.jsonl", data)
	if r == nil || len(fs) > 0 {
		t.Fatalf("refused: %v", fs)
	}
	want := `{"input_tokens":45000,"cached_input_tokens":37000,"output_tokens":2000,"reasoning_output_tokens":1068,"total_tokens":47000}`
	if r.MeterShape != tables.ShapeCodexTotalTokenUsage || string(r.Usage) != want {
		t.Errorf("meter %s %s, want %s", r.MeterShape, r.Usage, want)
	}
	if string(r.Output) != "Final review." || r.Match.Record != "019d0a4c-1b2e-7a51-9c3d-2f6e8b1a7c40" || r.Match.Model != "gpt-5.6-sol" {
		t.Errorf("record %+v", r)
	}
}

// TestCodexRolloutProblems: one broken rollout per finding.
func TestCodexRolloutProblems(t *testing.T) {
	meta := `{"timestamp":"2026-10-01T09:00:00Z","type":"session_meta","payload":{"id":"s1","timestamp":"2026-10-01T09:00:00Z"}}`
	ctx := `{"timestamp":"2026-10-01T09:00:01Z","type":"turn_context","payload":{"model":"m1"}}`
	tc := `{"timestamp":"2026-10-01T09:00:02Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":` +
		`{"input_tokens":10,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":11},"last_token_usage":` +
		`{"input_tokens":10,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":11}}}}`
	cases := []struct {
		name  string
		lines []string
		code  rules.Code
		sev   rules.Severity
	}{
		{"no session_meta", []string{ctx, tc}, rules.CodeCodexRolloutMalformed, rules.Reject},
		{"two session_meta", []string{meta, meta, ctx, tc}, rules.CodeCodexRolloutMalformed, rules.Reject},
		{"not JSON", []string{meta, "{", ctx}, rules.CodeCodexRolloutMalformed, rules.Reject},
		{"offset-free timestamp", []string{meta, strings.Replace(ctx, "09:00:01Z", "09:00:01", 1), tc}, rules.CodeCodexRolloutMalformed, rules.Reject},
		{"no model", []string{meta, tc}, rules.CodeCodexRolloutMalformed, rules.Reject},
		{"two models", []string{meta, ctx, strings.Replace(ctx, "m1", "m2", 1), tc}, rules.CodeCodexRolloutMalformed, rules.Reject},
		{"no usage", []string{meta, ctx}, rules.CodeCodexNoUsage, rules.Warn},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, fs := ReadCodexRollout("r.jsonl", []byte(strings.Join(c.lines, "\n")))
			if !slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == c.code && f.Severity == c.sev }) {
				t.Errorf("want %s (%s), got %v", c.code, c.sev, fs)
			}
		})
	}
}

// TestReadHarborTrial: a timestamp without an offset is refused, never
// given a zone; missing token counts leave the record without a meter.
func TestReadHarborTrial(t *testing.T) {
	data, err := os.ReadFile("testdata/harbor/fix-parser__Ab3xK9q/result.json")
	if err != nil {
		t.Fatal(err)
	}
	r, fs := ReadHarborTrial("result.json", data, nil)
	if r == nil || len(fs) > 0 || r.MeterShape != tables.ShapeHarborAgentContext || string(r.CostUSD) != "0.0994" ||
		string(r.Usage) != `{"n_cache_tokens":36000,"n_input_tokens":48000,"n_output_tokens":2500}` {
		t.Fatalf("record %+v %v", r, fs)
	}
	naive := strings.Replace(string(data), `"started_at": "2026-10-01T10:00:00.000000Z"`, `"started_at": "2026-10-01T10:00:00.000000"`, 1)
	if _, fs := ReadHarborTrial("result.json", []byte(naive), nil); !slices.ContainsFunc(fs, func(f rules.Finding) bool {
		return f.Code == rules.CodeHarborResultMalformed && f.Pointer == "/started_at"
	}) {
		t.Errorf("naive timestamp: %v", fs)
	}
	bare := `{"id":"t1","agent_result":null,"verifier_result":{"rewards":{"reward":0}},"exception_info":null,"started_at":"2026-10-01T10:00:00Z","finished_at":null}`
	r, fs = ReadHarborTrial("result.json", []byte(bare), nil)
	if r == nil || r.MeterShape != "" || r.EndedAt != nil || !slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeHarborNoUsage }) {
		t.Errorf("bare trial %+v %v", r, fs)
	}
	if _, fs := ReadHarborTrial("result.json", []byte(`[1]`), nil); !slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeHarborResultMalformed }) {
		t.Errorf("not an object: %v", fs)
	}
}

// TestCodexRolloutModel: the model a rollout records is its returned
// model: turn_context's, or session_meta's when the rollout has no
// turn_context; a session_meta model that is another model than
// turn_context's (under the model identity rule) refuses the rollout.
func TestCodexRolloutModel(t *testing.T) {
	meta := func(model string) string {
		m := ""
		if model != "" {
			m = `,"model":"` + model + `"`
		}
		return `{"timestamp":"2026-10-01T09:00:00Z","type":"session_meta","payload":{"id":"s1","timestamp":"2026-10-01T09:00:00Z"` + m + `}}`
	}
	ctx := `{"timestamp":"2026-10-01T09:00:01Z","type":"turn_context","payload":{"model":"gpt-5.6-sol"}}`
	for _, c := range []struct {
		name, rollout, want string
		malformed           bool
	}{
		{"turn_context", meta("") + "\n" + ctx, "gpt-5.6-sol", false},
		{"session_meta only", meta("gpt-5.6-sol"), "gpt-5.6-sol", false},
		{"both, one with the provider", meta("openai/gpt-5.6-sol") + "\n" + ctx, "gpt-5.6-sol", false},
		{"both, another model", meta("gpt-5.6-sol-mini") + "\n" + ctx, "", true},
		{"neither", meta(""), "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, fs := ReadCodexRollout("r.jsonl", []byte(c.rollout+"\n"))
			if c.malformed {
				if r != nil || !slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeCodexRolloutMalformed }) {
					t.Fatalf("record %+v, findings %v: want codex_rollout_malformed", r, fs)
				}
				return
			}
			if r == nil || r.ReturnedModel != c.want || r.Match.Model != c.want {
				t.Fatalf("record %+v, findings %v: want returned and matched model %q", r, fs, c.want)
			}
		})
	}
}
