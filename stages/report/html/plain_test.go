package html

import "testing"

func TestPlainText(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain", "T1 r2", "T1 r2"},
		{"newline", "a\nb\r\tc", "a b  c"},
		{"bidi_override", "a\u202eb", "a b"},
		{"invalid_utf8", "a\xffb", "a\uFFFDb"},
		{"markup_kept_for_template", "<b>", "<b>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := plainText(c.in); got != c.want {
				t.Errorf("plainText(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestPlainTextASCII: the printable-ASCII shortcut gives what the rune by
// rune rule gives, for every byte value alone and inside ASCII text.
func TestPlainTextASCII(t *testing.T) {
	for b := range 256 {
		for _, s := range []string{string([]byte{byte(b)}), "a" + string([]byte{byte(b)}) + "z"} {
			if got, want := plainText(s), plainRunes(s); got != want {
				t.Errorf("plainText(%q) = %q, rune by rune %q", s, got, want)
			}
		}
	}
}
