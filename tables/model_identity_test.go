package tables

import "testing"

func TestSameModel(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"gpt-4o-mini", "gpt-4o-mini", true},
		{"anthropic/claude-3-5-haiku-20241022", "claude-3-5-haiku-20241022", true},
		{"claude-3-5-haiku-20241022", "anthropic/claude-3-5-haiku-20241022", true},
		{"vllm/meta-llama/Llama-3.1-8B", "meta-llama/Llama-3.1-8B", true},
		// Both name a provider: they must agree on it.
		{"azure/gpt-4o", "openai/gpt-4o", false},
		// A snapshot is another model; case is not folded.
		{"openai/gpt-4o-mini", "gpt-4o-mini-2024-07-18", false},
		{"GPT-4o", "gpt-4o", false},
		// An empty name matches only itself; a bare prefix is no model.
		{"", "openai/", false},
		{"openai/", "", false},
		{"/gpt-4o", "gpt-4o", false},
		{"", "", true},
	} {
		if got := SameModel(c.a, c.b); got != c.want {
			t.Errorf("SameModel(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
