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
