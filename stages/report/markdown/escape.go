package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// markdownActive are the ASCII characters that can start inline Markdown
// syntax (emphasis, code, links, images, headings, tables, strikethrough,
// autolink schemes); escapeMarkdown backslash-escapes them.
const markdownActive = "\\`*_[]()#!|~:"

// escapeMarkdown makes untrusted text inert inside a Markdown paragraph or
// table cell: the characters of markdownActive are backslash-escaped, '<',
// '>' and '&' become entities (no raw HTML, no entity tricks), a '.' after
// 'w' is escaped (no "www." autolink), line breaks, control and format
// characters (including bidi overrides) become a space, and invalid UTF-8
// becomes U+FFFD. The result is never placed at the start of a line, so
// list and block syntax ('-', '+', '1.', '>') cannot start there.
func escapeMarkdown(s string) string {
	if inert(s) {
		return s
	}
	return escapeEach(s)
}

// escapeEach is escapeMarkdown rune by rune, inert text or not.
func escapeEach(s string) string {
	var b strings.Builder
	b.Grow(len(s))
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

// inert reports whether escapeMarkdown leaves s as it is: printable ASCII
// without a character of markdownActive, '<', '>', '&', or a '.' after 'w'
// or 'W' (TestInertIsUnchanged).
func inert(s string) bool {
	prev := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c > '~' || c == '<' || c == '>' || c == '&' || strings.IndexByte(markdownActive, c) >= 0 ||
			(c == '.' && (prev == 'w' || prev == 'W')) {
			return false
		}
		prev = c
	}
	return true
}

// Escape is escapeMarkdown for the other renderers of Markdown (compare's
// PR comment): untrusted text made inert inside a paragraph or table cell.
func Escape(s string) string { return escapeMarkdown(s) }
