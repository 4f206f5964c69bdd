package account

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Every per-sample (and header) ModelUsage object of the real Inspect logs
// in cmd/evalgate/testdata/reallogs/inspect (inspect_ai 0.3.41–0.3.154, OpenAI:
// cache reads inside input_tokens), decoded with the inclusive shape. The
// expected buckets are computed by hand in each comment.
func TestInspectInclusiveRealLogs(t *testing.T) {
	cases := []struct {
		name, usage string
		want        Buckets
	}{
		// browser.json, sample 1 (gpt-4o-mini, 0.3.95.dev16):
		// uncached = 15235 − 9088 = 6147; total 15516 = 15235 + 281.
		{"browser sample 1", `{"input_tokens":15235,"output_tokens":281,"total_tokens":15516,"input_tokens_cache_read":9088,"reasoning_tokens":0}`,
			Buckets{UncachedInput: 6147, CachedInput: 9088, Output: 281}},
		// popularity.json samples 1–3 (also samples 1–3 of both popularity
		// .eval logs, which lack the cache fields): 64+2=66, 58+2=60, 70+2=72.
		{"popularity.json sample 1", `{"input_tokens":64,"output_tokens":2,"total_tokens":66,"input_tokens_cache_read":0,"reasoning_tokens":0}`,
			Buckets{UncachedInput: 64, Output: 2}},
		{"popularity.json sample 2", `{"input_tokens":58,"output_tokens":2,"total_tokens":60,"input_tokens_cache_read":0,"reasoning_tokens":0}`,
			Buckets{UncachedInput: 58, Output: 2}},
		{"popularity.json sample 3", `{"input_tokens":70,"output_tokens":2,"total_tokens":72,"input_tokens_cache_read":0,"reasoning_tokens":0}`,
			Buckets{UncachedInput: 70, Output: 2}},
		// no-samples.json / popularity.json header stats: 192 + 6 = 198.
		{"no-samples stats", `{"input_tokens":192,"output_tokens":6,"total_tokens":198,"input_tokens_cache_read":0,"reasoning_tokens":0}`,
			Buckets{UncachedInput: 192, Output: 6}},
		// security-guide.json samples 1–3: 320+309=629, 310+256=566, 329+468=797.
		{"security-guide sample 1", `{"input_tokens":320,"output_tokens":309,"total_tokens":629,"input_tokens_cache_read":0,"reasoning_tokens":0}`,
			Buckets{UncachedInput: 320, Output: 309}},
		{"security-guide sample 2", `{"input_tokens":310,"output_tokens":256,"total_tokens":566,"input_tokens_cache_read":0,"reasoning_tokens":0}`,
			Buckets{UncachedInput: 310, Output: 256}},
		{"security-guide sample 3", `{"input_tokens":329,"output_tokens":468,"total_tokens":797,"input_tokens_cache_read":0,"reasoning_tokens":0}`,
			Buckets{UncachedInput: 329, Output: 468}},
		// popularity_dPiJ….eval / popularity_mj7k….eval samples 4–10
		// (0.3.58.dev16, no cache fields): 67+2=69, 63+2=65, 58+2=60,
		// 61+2=63, 55+2=57, 61+2=63, 63+2=65.
		{"popularity.eval sample 4", `{"input_tokens":67,"output_tokens":2,"total_tokens":69}`, Buckets{UncachedInput: 67, Output: 2}},
		{"popularity.eval sample 5", `{"input_tokens":63,"output_tokens":2,"total_tokens":65}`, Buckets{UncachedInput: 63, Output: 2}},
		{"popularity.eval sample 6", `{"input_tokens":58,"output_tokens":2,"total_tokens":60}`, Buckets{UncachedInput: 58, Output: 2}},
		{"popularity.eval sample 7", `{"input_tokens":61,"output_tokens":2,"total_tokens":63}`, Buckets{UncachedInput: 61, Output: 2}},
		{"popularity.eval sample 8", `{"input_tokens":55,"output_tokens":2,"total_tokens":57}`, Buckets{UncachedInput: 55, Output: 2}},
		{"popularity.eval sample 9", `{"input_tokens":61,"output_tokens":2,"total_tokens":63}`, Buckets{UncachedInput: 61, Output: 2}},
		{"popularity.eval sample 10", `{"input_tokens":63,"output_tokens":2,"total_tokens":65}`, Buckets{UncachedInput: 63, Output: 2}},
		// mmlu-summary-choices.eval sample 1 (gpt-4o, 0.3.154.dev44): 153 + 3 = 156.
		{"mmlu sample 1", `{"input_tokens":153,"output_tokens":3,"total_tokens":156,"input_tokens_cache_read":0,"reasoning_tokens":0}`,
			Buckets{UncachedInput: 153, Output: 3}},
		// log_formats.json header stats (ollama/llama3.1, 0.3.41): 66 + 2 = 68.
		{"log_formats stats", `{"input_tokens":66,"output_tokens":2,"total_tokens":68}`, Buckets{UncachedInput: 66, Output: 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, problems := DecodeMeter(tables.ShapeInspectInclusive, []byte(tc.usage))
			if len(problems) != 0 {
				t.Fatalf("problems: %+v", problems)
			}
			if got != tc.want {
				t.Errorf("buckets = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// The same real browser.json object read with the ≥ 0.3.184 shape is
// refused (15235 + 9088 + 281 = 24604 ≠ 15516): never double-counted.
func TestInspectExclusiveRefusesLegacyObject(t *testing.T) {
	usage := `{"input_tokens":15235,"output_tokens":281,"total_tokens":15516,"input_tokens_cache_read":9088,"reasoning_tokens":0}`
	_, problems := DecodeMeter(tables.ShapeInspect, []byte(usage))
	if len(problems) != 1 || problems[0].Code != rules.CodeMeterTotalMismatch {
		t.Fatalf("problems = %+v, want one %s", problems, rules.CodeMeterTotalMismatch)
	}
}

// Synthetic inclusive meters, each valid or breaking exactly one rule.
func TestInspectInclusiveRules(t *testing.T) {
	cases := []struct {
		name, usage string
		want        Buckets
		code        rules.Code
		pointer     string
	}{
		// Writes are a subset too: 1000 − 600 − 300 = 100 uncached;
		// reasoning 40 stays inside output 50; total 1050 = 1000 + 50.
		{"cache write subset", `{"input_tokens":1000,"output_tokens":50,"total_tokens":1050,"input_tokens_cache_read":600,"input_tokens_cache_write":300,"reasoning_tokens":40,"total_cost":null}`,
			Buckets{UncachedInput: 100, CachedInput: 600, CacheWrite5m: 300, Output: 50, Reasoning: 40}, "", ""},
		// The gemini-2.5-pro stats of a 0.3.89 log (notes/receipts.md §4.2):
		// 587338 − (525386 + 21588) = 40364 thinking tokens are hidden.
		{"gemini hidden thoughts", `{"input_tokens":525386,"output_tokens":21588,"total_tokens":587338}`,
			Buckets{}, rules.CodeMeterHiddenTokens, "/total_tokens"},
		{"total below input + output", `{"input_tokens":100,"output_tokens":5,"total_tokens":104}`,
			Buckets{}, rules.CodeMeterTotalMismatch, "/total_tokens"},
		// 90 + 20 = 110 > 100.
		{"read + write exceed input", `{"input_tokens":100,"output_tokens":5,"total_tokens":105,"input_tokens_cache_read":90,"input_tokens_cache_write":20}`,
			Buckets{}, rules.CodeMeterCachedExceedsInput, "/input_tokens_cache_read"},
		{"reasoning exceeds output", `{"input_tokens":100,"output_tokens":5,"total_tokens":105,"reasoning_tokens":6}`,
			Buckets{}, rules.CodeMeterReasoningExceedsOut, "/reasoning_tokens"},
		{"missing total", `{"input_tokens":100,"output_tokens":5}`,
			Buckets{}, rules.CodeMeterMissingField, "/total_tokens"},
		{"unknown member", `{"input_tokens":100,"output_tokens":5,"total_tokens":105,"cached_tokens":1}`,
			Buckets{}, rules.CodeMeterUnknownField, "/cached_tokens"},
		{"negative read", `{"input_tokens":100,"output_tokens":5,"total_tokens":105,"input_tokens_cache_read":-1}`,
			Buckets{}, rules.CodeMeterNegative, "/input_tokens_cache_read"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, problems := DecodeMeter(tables.ShapeInspectInclusive, []byte(tc.usage))
			if tc.code == "" {
				if len(problems) != 0 || got != tc.want {
					t.Fatalf("buckets = %+v, problems %+v; want %+v", got, problems, tc.want)
				}
				return
			}
			if len(problems) != 1 || problems[0].Code != tc.code || problems[0].Pointer != tc.pointer {
				t.Fatalf("problems = %+v, want one %s at %q", problems, tc.code, tc.pointer)
			}
			if got != (Buckets{}) {
				t.Errorf("buckets of a refused meter = %+v, want zero", got)
			}
		})
	}
}

// TestInspectGoogleThoughts: a Google model's usage written by inspect_ai
// before 0.3.208 counts the thinking Gemini reports apart in total_tokens
// only. Counted as the provider reports it: the gemini-2.5-pro stats of a
// 0.3.89 log (notes/receipts.md §4.2), 587338 − (525386 + 21588) = 40364
// thinking tokens, billed as output: output 21588 + 40364 = 61952, of which
// reasoning 40364; no cache reads, so uncached input 525386. With 3,000
// cache reads inside input: uncached 522386.
func TestInspectGoogleThoughts(t *testing.T) {
	for _, tc := range []struct {
		name, usage string
		want        Buckets
	}{
		{"thoughts in the total", `{"input_tokens":525386,"output_tokens":21588,"total_tokens":587338}`,
			Buckets{UncachedInput: 525386, Output: 61952, Reasoning: 40364}},
		{"cache reads inside input", `{"input_tokens":525386,"output_tokens":21588,"total_tokens":587338,"input_tokens_cache_read":3000}`,
			Buckets{UncachedInput: 522386, CachedInput: 3000, Output: 61952, Reasoning: 40364}},
		{"no thinking", `{"input_tokens":100,"output_tokens":5,"total_tokens":105}`,
			Buckets{UncachedInput: 100, Output: 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, problems := DecodeMeter(tables.ShapeInspectGoogle, []byte(tc.usage))
			if len(problems) != 0 || got != tc.want {
				t.Fatalf("buckets = %+v, problems %+v; want %+v", got, problems, tc.want)
			}
		})
	}
	// The same usage under the inclusive shape of another provider is
	// refused: no convention says what its hidden tokens are.
	if _, problems := DecodeMeter(tables.ShapeInspectInclusive, []byte(`{"input_tokens":525386,"output_tokens":21588,"total_tokens":587338}`)); len(problems) != 1 ||
		problems[0].Code != rules.CodeMeterHiddenTokens || !strings.Contains(problems[0].Message, string(tables.ShapeInspectGoogle)) {
		t.Errorf("problems %+v, want one meter_hidden_tokens naming the Google convention", problems)
	}
}

// TestInspectDeclaredHiddenOutput: an inclusive meter whose hidden tokens
// the user declared (`import inspect --hidden-tokens output`) to be hidden
// reasoning billed at the output rate. The excess of total over input +
// output is added to output and is reasoning when it exceeds
// reasoning_tokens: 587338 − (525386 + 21588) = 40364, output 21588 + 40364
// = 61952. With 9088 cache reads inside input: uncached 525386 − 9088 =
// 516298. With reasoning_tokens 50000 above the excess: reasoning 50000
// (of output 61952). A meter without hidden tokens normalises as the
// inclusive shape does: its reasoning stays inside output, counted once.
func TestInspectDeclaredHiddenOutput(t *testing.T) {
	for _, tc := range []struct {
		name, usage string
		want        Buckets
	}{
		{"hidden tokens counted as output", `{"input_tokens":525386,"output_tokens":21588,"total_tokens":587338}`,
			Buckets{UncachedInput: 525386, Output: 61952, Reasoning: 40364}},
		{"cache reads inside input", `{"input_tokens":525386,"output_tokens":21588,"total_tokens":587338,"input_tokens_cache_read":9088}`,
			Buckets{UncachedInput: 516298, CachedInput: 9088, Output: 61952, Reasoning: 40364}},
		{"reasoning_tokens above the excess", `{"input_tokens":525386,"output_tokens":21588,"total_tokens":587338,"reasoning_tokens":50000}`,
			Buckets{UncachedInput: 525386, Output: 61952, Reasoning: 50000}},
		{"no hidden tokens: nothing changes", `{"input_tokens":15235,"output_tokens":281,"total_tokens":15516,"input_tokens_cache_read":9088,"reasoning_tokens":200}`,
			Buckets{UncachedInput: 6147, CachedInput: 9088, Output: 281, Reasoning: 200}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, problems := DecodeMeter(tables.ShapeInspectDeclaredHidden, []byte(tc.usage))
			if len(problems) != 0 || got != tc.want {
				t.Fatalf("buckets = %+v, problems %+v; want %+v", got, problems, tc.want)
			}
			if strings.Contains(tc.name, "nothing changes") {
				if inc, _ := DecodeMeter(tables.ShapeInspectInclusive, []byte(tc.usage)); inc != got {
					t.Errorf("inclusive buckets %+v differ from the declared %+v", inc, got)
				}
			}
		})
	}
	// A total below input + output stays a mismatch: the declaration
	// explains only an excess.
	if _, problems := DecodeMeter(tables.ShapeInspectDeclaredHidden, []byte(`{"input_tokens":100,"output_tokens":5,"total_tokens":90}`)); len(problems) != 1 ||
		problems[0].Code != rules.CodeMeterTotalMismatch {
		t.Errorf("problems %+v, want one meter_total_mismatch", problems)
	}
	// Without the declaration the refusal names the flag that declares it.
	_, problems := DecodeMeter(tables.ShapeInspectInclusive, []byte(`{"input_tokens":525386,"output_tokens":21588,"total_tokens":587338}`))
	if len(problems) != 1 || !strings.Contains(problems[0].Message, "--hidden-tokens output") ||
		!strings.Contains(problems[0].Message, string(tables.ShapeInspectDeclaredHidden)) {
		t.Errorf("problems %+v, want one meter_hidden_tokens naming --hidden-tokens output", problems)
	}
}
