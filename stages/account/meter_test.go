package account

import (
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Each valid case is a realistic usage object with its buckets worked out
// by hand from notes/receipts.md §1–§2 in the comment beside it.
func TestDecodeMeterValid(t *testing.T) {
	cases := []struct {
		name  string
		shape tables.UsageShape
		usage string
		want  Buckets
	}{
		{"normalized", tables.ShapeNormalized, normalized(3000, 9000, 10, 20, 700, 512),
			Buckets{3000, 9000, 10, 20, 700, 512}},
		// cached ⊂ input: 12000 − 9000 = 3000 uncached; reasoning stays inside the 700 output.
		{"responses cached inside input", tables.ShapeOpenAIResponses,
			`{"input_tokens":12000,"input_tokens_details":{"cached_tokens":9000},"output_tokens":700,"output_tokens_details":{"reasoning_tokens":512},"total_tokens":12700}`,
			Buckets{UncachedInput: 3000, CachedInput: 9000, Output: 700, Reasoning: 512}},
		// cache writes are a further subset: 12000 − 9000 − 1000 = 2000.
		{"responses cache write subset", tables.ShapeOpenAIResponses,
			`{"input_tokens":12000,"input_tokens_details":{"cached_tokens":9000,"cache_write_tokens":1000},"output_tokens":700,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":12700}`,
			Buckets{UncachedInput: 2000, CachedInput: 9000, CacheWrite5m: 1000, Output: 700}},
		// 5000 − 4096 = 904 uncached.
		{"chat cached inside prompt", tables.ShapeOpenAIChat,
			`{"prompt_tokens":5000,"completion_tokens":300,"total_tokens":5300,"prompt_tokens_details":{"cached_tokens":4096},"completion_tokens_details":{"reasoning_tokens":192}}`,
			Buckets{UncachedInput: 904, CachedInput: 4096, Output: 300, Reasoning: 192}},
		// The real o4-mini call of notes/receipts.md §2.2.
		{"chat real o4-mini", tables.ShapeOpenAIChat,
			`{"completion_tokens":105,"prompt_tokens":1267,"total_tokens":1372,"completion_tokens_details":{"accepted_prediction_tokens":0,"audio_tokens":0,"reasoning_tokens":64,"rejected_prediction_tokens":0},"prompt_tokens_details":{"audio_tokens":0,"cached_tokens":0}}`,
			Buckets{UncachedInput: 1267, Output: 105, Reasoning: 64}},
		// Anthropic: reads and writes are outside input_tokens; nothing is subtracted.
		{"anthropic cache outside input", tables.ShapeAnthropic,
			`{"input_tokens":12,"cache_creation_input_tokens":2500,"cache_read_input_tokens":48000,"output_tokens":640,"cache_creation":{"ephemeral_5m_input_tokens":2500,"ephemeral_1h_input_tokens":0},"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard"}`,
			Buckets{UncachedInput: 12, CachedInput: 48000, CacheWrite5m: 2500, Output: 640}},
		// Writes split by TTL 1000 + 2000 = 3000; thinking 200 ⊂ output 500.
		{"anthropic ttl split and thinking", tables.ShapeAnthropic,
			`{"input_tokens":20,"cache_creation_input_tokens":3000,"cache_read_input_tokens":10000,"output_tokens":500,"cache_creation":{"ephemeral_5m_input_tokens":1000,"ephemeral_1h_input_tokens":2000},"output_tokens_details":{"thinking_tokens":200}}`,
			Buckets{UncachedInput: 20, CachedInput: 10000, CacheWrite5m: 1000, CacheWrite1h: 2000, Output: 500, Reasoning: 200}},
		// Gemini: cached ⊂ prompt (20000 − 16000 = 4000); thoughts outside
		// candidates, billed as output: 400 + 1200 = 1600.
		{"gemini thoughts outside candidates", tables.ShapeGemini,
			`{"promptTokenCount":20000,"cachedContentTokenCount":16000,"candidatesTokenCount":400,"thoughtsTokenCount":1200,"totalTokenCount":21600}`,
			Buckets{UncachedInput: 4000, CachedInput: 16000, Output: 1600, Reasoning: 1200}},
		// The real Gemini 2.5 Pro receipt: 590 + 44 + 37 = 671; output 44 + 37 = 81.
		{"gemini real 2.5 pro", tables.ShapeGemini,
			`{"promptTokenCount":590,"candidatesTokenCount":44,"thoughtsTokenCount":37,"totalTokenCount":671,"promptTokensDetails":[{"modality":"TEXT","tokenCount":590}],"trafficType":"ON_DEMAND"}`,
			Buckets{UncachedInput: 590, Output: 81, Reasoning: 37}},
		// Codex: bill the last turn (15500 − 14000 = 1500 uncached), never the
		// running total (30000) nor running + last (45500).
		{"codex running totals not summed", tables.ShapeCodexTokenCount,
			`{"total_token_usage":{"input_tokens":30000,"cached_input_tokens":24000,"output_tokens":900,"reasoning_output_tokens":640,"total_tokens":30900},"last_token_usage":{"input_tokens":15500,"cached_input_tokens":14000,"output_tokens":400,"reasoning_output_tokens":256,"total_tokens":15900},"model_context_window":272000}`,
			Buckets{UncachedInput: 1500, CachedInput: 14000, Output: 400, Reasoning: 256}},
		// Inspect ≥ 0.3.184: input excludes reads and writes; total = 3000 + 9000 + 500 + 700.
		{"inspect normalised", tables.ShapeInspect,
			`{"input_tokens":3000,"output_tokens":700,"total_tokens":13200,"input_tokens_cache_write":500,"input_tokens_cache_read":9000,"reasoning_tokens":512,"total_cost":0.0123}`,
			Buckets{UncachedInput: 3000, CachedInput: 9000, CacheWrite5m: 500, Output: 700, Reasoning: 512}},
		{"inspect nullable extras", tables.ShapeInspect,
			`{"input_tokens":100,"output_tokens":5,"total_tokens":105,"input_tokens_cache_write":null,"input_tokens_cache_read":null,"reasoning_tokens":null,"total_cost":null}`,
			Buckets{UncachedInput: 100, Output: 5}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, problems := DecodeMeter(tc.shape, []byte(tc.usage))
			if len(problems) != 0 {
				t.Fatalf("problems: %+v", problems)
			}
			if got != tc.want {
				t.Errorf("buckets = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// Each invalid case breaks exactly one rule.
func TestDecodeMeterInvalid(t *testing.T) {
	resp := func(in, cached, out, reasoning, total string) string {
		return `{"input_tokens":` + in + `,"input_tokens_details":{"cached_tokens":` + cached + `},"output_tokens":` + out +
			`,"output_tokens_details":{"reasoning_tokens":` + reasoning + `},"total_tokens":` + total + `}`
	}
	cases := []struct {
		name    string
		shape   tables.UsageShape
		usage   string
		code    rules.Code
		pointer string
	}{
		{"unknown shape", "openai.completions", `{}`, rules.CodeMeterUnknownShape, ""},
		{"not an object", tables.ShapeNormalized, `[1,2]`, rules.CodeMeterMalformed, ""},
		{"null usage", tables.ShapeNormalized, `null`, rules.CodeMeterMalformed, ""},
		{"empty usage", tables.ShapeNormalized, ``, rules.CodeMeterMalformed, ""},
		{"unknown field", tables.ShapeAnthropic,
			`{"input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"iterations":[]}`,
			rules.CodeMeterUnknownField, "/iterations"},
		{"case-folded field is unknown", tables.ShapeOpenAIResponses,
			`{"Input_Tokens":1}`, rules.CodeMeterUnknownField, "/Input_Tokens"},
		{"missing total", tables.ShapeOpenAIResponses,
			`{"input_tokens":10,"input_tokens_details":{"cached_tokens":0},"output_tokens":1,"output_tokens_details":{"reasoning_tokens":0}}`,
			rules.CodeMeterMissingField, "/total_tokens"},
		{"null required count", tables.ShapeOpenAIResponses, resp("10", "null", "1", "0", "11"),
			rules.CodeMeterMissingField, "/input_tokens_details/cached_tokens"},
		{"missing details object", tables.ShapeOpenAIChat,
			`{"prompt_tokens":10,"completion_tokens":1,"total_tokens":11,"completion_tokens_details":{"reasoning_tokens":0}}`,
			rules.CodeMeterMissingField, "/prompt_tokens_details"},
		{"negative", tables.ShapeOpenAIResponses, resp("10", "-1", "1", "0", "11"), rules.CodeMeterNegative, "/input_tokens_details/cached_tokens"},
		{"fraction", tables.ShapeOpenAIResponses, resp("10.5", "0", "1", "0", "11"), rules.CodeMeterMalformed, "/input_tokens"},
		{"string count", tables.ShapeOpenAIResponses, resp(`"10"`, "0", "1", "0", "11"), rules.CodeMeterMalformed, "/input_tokens"},
		{"beyond int64", tables.ShapeOpenAIResponses, resp("99999999999999999999", "0", "1", "0", "11"), rules.CodeMeterMalformed, "/input_tokens"},
		{"absurd count", tables.ShapeOpenAIResponses, resp("10000000000000000", "0", "1", "0", "11"), rules.CodeMeterOutOfRange, "/input_tokens"},
		{"duplicate key", tables.ShapeNormalized,
			`{"uncached_input":1,"uncached_input":2,"cached_input":0,"cache_write_5m":0,"cache_write_1h":0,"output":0,"reasoning":0}`,
			rules.CodeMeterMalformed, "/uncached_input"},
		{"cached exceeds input", tables.ShapeOpenAIResponses, resp("10", "11", "1", "0", "11"), rules.CodeMeterCachedExceedsInput, "/input_tokens_details/cached_tokens"},
		{"reasoning exceeds output", tables.ShapeOpenAIChat,
			`{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":6}}`,
			rules.CodeMeterReasoningExceedsOut, "/completion_tokens_details/reasoning_tokens"},
		{"normalized reasoning exceeds output", tables.ShapeNormalized, normalized(1, 0, 0, 0, 5, 6),
			rules.CodeMeterReasoningExceedsOut, "/reasoning"},
		{"total mismatch", tables.ShapeOpenAIResponses, resp("10", "0", "1", "0", "12"), rules.CodeMeterTotalMismatch, "/total_tokens"},
		// Summing thoughts into candidates twice would give 21600 − 1200.
		{"gemini total without thoughts", tables.ShapeGemini,
			`{"promptTokenCount":20000,"cachedContentTokenCount":16000,"candidatesTokenCount":400,"thoughtsTokenCount":1200,"totalTokenCount":20400}`,
			rules.CodeMeterTotalMismatch, "/totalTokenCount"},
		{"gemini cached exceeds prompt", tables.ShapeGemini,
			`{"promptTokenCount":10,"cachedContentTokenCount":11,"candidatesTokenCount":1,"totalTokenCount":11}`,
			rules.CodeMeterCachedExceedsInput, "/cachedContentTokenCount"},
		{"inspect total mismatch", tables.ShapeInspect,
			`{"input_tokens":3000,"output_tokens":700,"total_tokens":3700,"input_tokens_cache_read":9000}`,
			rules.CodeMeterTotalMismatch, "/total_tokens"},
		// The real 2024 Anthropic receipt has writes but no TTL split: unpriceable.
		{"anthropic writes without ttl", tables.ShapeAnthropic,
			`{"cache_creation_input_tokens":493,"cache_read_input_tokens":2706,"input_tokens":5,"output_tokens":85,"service_tier":"standard"}`,
			rules.CodeMeterCacheBreakdown, "/cache_creation"},
		{"anthropic ttl sum mismatch", tables.ShapeAnthropic,
			`{"input_tokens":5,"output_tokens":1,"cache_creation_input_tokens":100,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":60,"ephemeral_1h_input_tokens":60}}`,
			rules.CodeMeterCacheBreakdown, "/cache_creation"},
		{"codex running total below last turn", tables.ShapeCodexTokenCount,
			`{"total_token_usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":110},"last_token_usage":{"input_tokens":50,"cached_input_tokens":0,"output_tokens":20,"reasoning_output_tokens":0,"total_tokens":70}}`,
			rules.CodeMeterRunningTotalBelow, "/total_token_usage/output_tokens"},
		{"codex missing last turn", tables.ShapeCodexTokenCount,
			`{"total_token_usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":110}}`,
			rules.CodeMeterMissingField, "/last_token_usage"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, problems := DecodeMeter(tc.shape, []byte(tc.usage))
			if len(problems) != 1 {
				t.Fatalf("problems = %+v, want exactly one %s", problems, tc.code)
			}
			if p := problems[0]; p.Code != tc.code || p.Pointer != tc.pointer || !p.Invalid() {
				t.Errorf("problem = %+v, want %s at %q", p, tc.code, tc.pointer)
			}
		})
	}
}

// An unsupported modifier keeps the buckets but makes the cost unpriceable.
func TestDecodeMeterModifiers(t *testing.T) {
	cases := []struct {
		name           string
		shape          tables.UsageShape
		usage, pointer string
	}{
		{"anthropic batch tier", tables.ShapeAnthropic,
			`{"input_tokens":5,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"service_tier":"batch"}`, "/service_tier"},
		{"anthropic us geo", tables.ShapeAnthropic,
			`{"input_tokens":5,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"inference_geo":"us"}`, "/inference_geo"},
		{"anthropic web search", tables.ShapeAnthropic,
			`{"input_tokens":5,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"server_tool_use":{"web_search_requests":2,"web_fetch_requests":0}}`, "/server_tool_use"},
		{"chat audio", tables.ShapeOpenAIChat,
			`{"prompt_tokens":10,"completion_tokens":1,"total_tokens":11,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":4},"completion_tokens_details":{"reasoning_tokens":0}}`, "/prompt_tokens_details/audio_tokens"},
		{"gemini provisioned", tables.ShapeGemini,
			`{"promptTokenCount":10,"candidatesTokenCount":1,"totalTokenCount":11,"trafficType":"PROVISIONED_THROUGHPUT"}`, "/trafficType"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, problems := DecodeMeter(tc.shape, []byte(tc.usage))
			if len(problems) != 1 || problems[0].Code != rules.CodeMeterUnsupportedModifier || problems[0].Invalid() || problems[0].Pointer != tc.pointer {
				t.Fatalf("problems = %+v, want one unsupported modifier at %s", problems, tc.pointer)
			}
			if b.Input() == 0 || b.Output != 1 {
				t.Errorf("buckets lost: %+v", b)
			}
		})
	}
}

func FuzzMeter(f *testing.F) {
	for _, s := range tables.UsageShapes() {
		f.Add(string(s), `{}`)
	}
	f.Add(string(tables.ShapeCodexTokenCount), `{"total_token_usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":2},"last_token_usage":null}`)
	f.Add(string(tables.ShapeAnthropic), `{"input_tokens":-9223372036854775808,"output_tokens":9223372036854775807,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}`)
	f.Add(string(tables.ShapeGemini), `{"promptTokenCount":1e3,"totalTokenCount":[{"a":{"b":[]}}]}`)
	f.Add(string(tables.ShapeInspect), "{\"input_tokens\":1,\"\xff\":2}")
	f.Fuzz(func(t *testing.T, shape, usage string) {
		b, problems := DecodeMeter(tables.UsageShape(shape), []byte(usage))
		for _, p := range problems {
			if p.Code == "" || p.Message == "" {
				t.Fatalf("untyped problem %+v", p)
			}
		}
		invalid := false
		for _, p := range problems {
			invalid = invalid || p.Invalid()
		}
		if invalid {
			return
		}
		// Accepted meters are normalised consistently.
		if b.UncachedInput < 0 || b.CachedInput < 0 || b.CacheWrite5m < 0 || b.CacheWrite1h < 0 || b.Output < 0 || b.Reasoning > b.Output {
			t.Fatalf("inconsistent buckets %+v from %q", b, usage)
		}
		PriceOf(b, NewTariff(sonnetCard())) // must not panic
	})
}
