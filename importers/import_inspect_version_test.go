package importers

import (
	"testing"

	"github.com/evalgate/evalgate/tables"
)

func TestCompareInspectVersions(t *testing.T) {
	cases := []struct {
		name, a, b string
		want       int
	}{
		{"dev of an older release", "0.3.95.dev16+g6527d0861", "0.3.184", -1},
		{"the release itself", "0.3.184", "0.3.184", 0},
		{"later release", "0.3.208", "0.3.184", 1},
		{"numeric not lexical", "0.3.41.dev123+g9ad2119a.d20241015", "0.3.184", -1},
		{"154 dev", "0.3.154.dev44+g32a84c8fe.d20251213", "0.3.184", -1},
		{"dev before its release", "0.3.184.dev5", "0.3.184", -1},
		{"post after its release", "0.3.184.post1", "0.3.184", 1},
		{"missing component is zero", "0.4", "0.3.999", 1},
		{"local part ignored", "0.3.208+local", "0.3.208", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, okA := parseInspectVersion(tc.a)
			b, okB := parseInspectVersion(tc.b)
			if !okA || !okB {
				t.Fatalf("parse %q ok=%v, %q ok=%v", tc.a, okA, tc.b, okB)
			}
			if got := compareInspectVersions(a, b); sign(got) != tc.want {
				t.Errorf("compare(%q, %q) = %d, want sign %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func TestParseInspectVersionRejects(t *testing.T) {
	for _, v := range []string{"", "dev", "v0.3.1", "0.3.x", "0.3.dev1.4", ".", "0..3", "-1.2"} {
		t.Run(v, func(t *testing.T) {
			if _, ok := parseInspectVersion(v); ok {
				t.Errorf("parseInspectVersion(%q) ok, want refused", v)
			}
		})
	}
}

func TestInspectShape(t *testing.T) {
	cases := []struct {
		name, version, model string
		want                 tables.UsageShape
	}{
		{"old openai inclusive", "0.3.95.dev16+g6527d0861", "openai/gpt-4o-mini", tables.ShapeInspectInclusive},
		{"old grok inclusive", "0.3.100", "grok/grok-3", tables.ShapeInspectInclusive},
		{"old anthropic exclusive", "0.3.89", "anthropic/claude-3-5-sonnet-20240620", tables.ShapeInspect},
		{"old google, thoughts in the total", "0.3.89", "google/gemini-2.5-pro", tables.ShapeInspectGoogle},
		{"google between 184 and 208 still", "0.3.200", "google/gemini-2.5-pro", tables.ShapeInspectGoogle},
		{"google at 208 exclusive", "0.3.208", "google/gemini-2.5-pro", tables.ShapeInspect},
		{"openai at 184 exclusive", "0.3.184", "openai/gpt-5", tables.ShapeInspect},
		{"openai dev of 184 still old", "0.3.184.dev3", "openai/gpt-5", tables.ShapeInspectInclusive},
		{"new unknown provider exclusive", "0.3.260", "ollama/llama3.1", tables.ShapeInspect},
		{"old unknown provider", "0.3.41.dev123", "ollama/llama3.1", ""},
		{"old model without provider", "0.3.41", "gpt-4o", ""},
		{"unparseable version", "latest", "openai/gpt-4o", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := InspectShape(tc.version, tc.model)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("InspectShape(%q, %q) = %q, %v; want %q", tc.version, tc.model, got, ok, tc.want)
			}
		})
	}
}

// TestDeclareHiddenOutput: the user's declaration changes the shape of an
// inclusive meter whose total exceeds input + output (587338 > 525386 +
// 21588), and of no other: an inclusive meter with total = input + output
// (15516 = 15235 + 281), the Google and exclusive shapes, a meter of no
// shape and an unreadable usage keep theirs.
func TestDeclareHiddenOutput(t *testing.T) {
	hidden := `{"input_tokens":525386,"output_tokens":21588,"total_tokens":587338}`
	cases := []struct {
		name  string
		shape tables.UsageShape
		usage string
		want  tables.UsageShape
	}{
		{"inclusive with hidden tokens", tables.ShapeInspectInclusive, hidden, tables.ShapeInspectDeclaredHidden},
		{"inclusive without", tables.ShapeInspectInclusive, `{"input_tokens":15235,"output_tokens":281,"total_tokens":15516}`, tables.ShapeInspectInclusive},
		{"inclusive total below", tables.ShapeInspectInclusive, `{"input_tokens":100,"output_tokens":5,"total_tokens":90}`, tables.ShapeInspectInclusive},
		{"google keeps its convention", tables.ShapeInspectGoogle, hidden, tables.ShapeInspectGoogle},
		{"exclusive", tables.ShapeInspect, hidden, tables.ShapeInspect},
		{"no shape", "", hidden, ""},
		{"negative count", tables.ShapeInspectInclusive, `{"input_tokens":-1,"output_tokens":5,"total_tokens":90}`, tables.ShapeInspectInclusive},
		{"missing total", tables.ShapeInspectInclusive, `{"input_tokens":1,"output_tokens":5}`, tables.ShapeInspectInclusive},
		{"not a number", tables.ShapeInspectInclusive, `{"input_tokens":"1","output_tokens":5,"total_tokens":90}`, tables.ShapeInspectInclusive},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			log := &InspectLog{Samples: []InspectSample{{Usage: []InspectModelUsage{{Model: "openai/gpt-4o-mini", Shape: tc.shape, Usage: []byte(tc.usage)}}}}}
			DeclareHiddenOutput(log)
			if got := log.Samples[0].Usage[0].Shape; got != tc.want {
				t.Errorf("shape %q, want %q", got, tc.want)
			}
		})
	}
}
