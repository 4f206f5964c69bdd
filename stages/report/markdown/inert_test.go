package markdown

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestInertIsUnchanged: escapeMarkdown with its fast path is escapeEach
// (rune by rune, no fast path) on every string of up to two bytes and on
// random strings, and inert text is text escaping leaves unchanged.
func TestInertIsUnchanged(t *testing.T) {
	check := func(s string) {
		t.Helper()
		want := escapeEach(s)
		if got := escapeMarkdown(s); got != want {
			t.Fatalf("escapeMarkdown(%q) = %q, want %q", s, got, want)
		}
		if inert(s) && want != s {
			t.Fatalf("inert(%q) but escaping gives %q", s, want)
		}
	}
	check("")
	for a := range 256 {
		check(string([]byte{byte(a)}))
		for b := range 256 {
			check(string([]byte{byte(a), byte(b)}))
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	pieces := []string{"a", "w", "W", ".", "task-17", " ", "é", "\u202e", "\u2028", "\x7f", "\x00", "|", "<", "&", "www.x", "\xff"}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		check(b.String())
	}
}
