package markdown

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscapeMarkdown(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "T1 r2", "T1 r2"},
		{"table_pipe", "a|b", `a\|b`},
		{"html", "<script>alert(1)</script>", `&lt;script&gt;alert\(1\)&lt;/script&gt;`},
		{"link", "[x](javascript:y)", `\[x\]\(javascript\:y\)`},
		{"heading_via_newline", "ok\n# owned", `ok \# owned`},
		{"emphasis_code", "*b* _i_ `c`", "\\*b\\* \\_i\\_ \\`c\\`"},
		{"entity", "&amp;", `&amp;amp;`},
		{"www_autolink", "see www.evil.com", `see www\.evil.com`},
		{"url_autolink", "http://x.y", `http\://x.y`},
		{"plain_punctuation_kept", "0.85 >= a-b", `0.85 &gt;= a-b`},
		{"bidi_override", "a\u202eb", "a b"},
		{"invalid_utf8", "a\xffb", "a\uFFFDb"},
		{"unicode_kept", "résumé 日本", "résumé 日本"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := escapeMarkdown(c.in); got != c.want {
				t.Errorf("escapeMarkdown(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// FuzzEscapeMarkdown checks that no input can break out of a table cell or
// start raw HTML: the output has no line break, no '<' or '>', no
// unescaped '|', and is valid UTF-8.
func FuzzEscapeMarkdown(f *testing.F) {
	for _, s := range []string{"", "a|b", "<b>", "\\|", "x\r\ny", "\u2028", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := escapeMarkdown(s)
		if strings.ContainsAny(out, "\n\r<>\u2028\u2029") || !utf8.ValidString(out) {
			t.Fatalf("escapeMarkdown(%q) = %q", s, out)
		}
		for i := 0; i < len(out); i++ {
			if out[i] == '\\' {
				i++ // the escaped character
				continue
			}
			if out[i] == '|' {
				t.Fatalf("unescaped | in %q", out)
			}
		}
	})
}
