package account

import (
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// TestImportShapes decodes the two shapes `evalgate import` writes; each
// expectation is worked by hand from the usage.
func TestImportShapes(t *testing.T) {
	cases := []struct {
		name  string
		shape tables.UsageShape
		usage string
		want  Buckets
		code  rules.Code // "" when valid
	}{
		{"codex running total", tables.ShapeCodexTotalTokenUsage,
			`{"input_tokens":45000,"cached_input_tokens":37000,"output_tokens":2000,"reasoning_output_tokens":1068,"total_tokens":47000}`,
			Buckets{UncachedInput: 8000, CachedInput: 37000, Output: 2000, Reasoning: 1068}, ""},
		{"codex total off", tables.ShapeCodexTotalTokenUsage,
			`{"input_tokens":45000,"cached_input_tokens":37000,"output_tokens":2000,"reasoning_output_tokens":1068,"total_tokens":47001}`,
			Buckets{}, rules.CodeMeterTotalMismatch},
		{"codex running totals are not a TokenUsage", tables.ShapeCodexTotalTokenUsage,
			`{"total_token_usage":{},"last_token_usage":{}}`, Buckets{}, rules.CodeMeterUnknownField},
		{"harbor input includes the cache", tables.ShapeHarborAgentContext,
			`{"n_input_tokens":48000,"n_cache_tokens":36000,"n_output_tokens":2500}`,
			Buckets{UncachedInput: 12000, CachedInput: 36000, Output: 2500}, ""},
		{"harbor without cache count", tables.ShapeHarborAgentContext,
			`{"n_input_tokens":48000,"n_output_tokens":2500}`, Buckets{UncachedInput: 48000, Output: 2500}, ""},
		{"harbor cache above input", tables.ShapeHarborAgentContext,
			`{"n_input_tokens":100,"n_cache_tokens":101,"n_output_tokens":1}`, Buckets{}, rules.CodeMeterCachedExceedsInput},
		{"harbor without input", tables.ShapeHarborAgentContext, `{"n_output_tokens":1}`, Buckets{}, rules.CodeMeterMissingField},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, problems := DecodeMeter(c.shape, []byte(c.usage))
			switch {
			case c.code == "" && (len(problems) > 0 || b != c.want):
				t.Errorf("got %+v %v, want %+v", b, problems, c.want)
			case c.code != "" && (len(problems) == 0 || problems[0].Code != c.code):
				t.Errorf("got %v, want %s", problems, c.code)
			}
		})
	}
}
