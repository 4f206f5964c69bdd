package markdown

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// refEscape is escapeMarkdown without its inert fast path.
func refEscape(s string) string {
	var b strings.Builder
	prev := rune(0)
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case strings.ContainsRune(markdownActive, r), r == '.' && (prev == 'w' || prev == 'W'):
			b.WriteByte('\\')
			b.WriteRune(r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

// TestInertIsUnchanged: escapeMarkdown with its fast path is refEscape on
// every string of up to two bytes and on random strings, and inert text is
// exactly the text escaping leaves unchanged among them.
func TestInertIsUnchanged(t *testing.T) {
	check := func(s string) {
		t.Helper()
		want := refEscape(s)
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
