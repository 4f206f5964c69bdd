package rules

import "testing"

// TestPointerToken pins RFC 6901 escaping, "~" before "/" so "~1" in a
// member name survives a round trip.
func TestPointerToken(t *testing.T) {
	for in, want := range map[string]string{"": "", "a": "a", "openai/gpt-4o": "openai~1gpt-4o", "a~b": "a~0b", "~1": "~01", "/~": "~1~0"} {
		if got := PointerToken(in); got != want {
			t.Errorf("PointerToken(%q) = %q, want %q", in, got, want)
		}
	}
}
