package html

import (
	"html/template"
	"strings"
)

// HTML is the table's markup, written here rather than by a template
// action per cell (a page of 100,000 runs has over a million cells): a
// scroll wrapper, the caption when set, one header row, then one row per
// line, a cell's class and title as attributes when set.
//
// Every string goes through htmlEscaper, which escapes exactly what
// html/template escapes for a string in element content or in a quoted
// attribute value (one table serves both there: NUL becomes U+FFFD, and
// " & ' + < > become character references; every other byte, invalid
// UTF-8 included, is copied). TestTableHTMLIsTemplate holds the markup
// and the escaping to html/template's rendering of the same table.
func (t htmlTable) HTML() template.HTML {
	var b strings.Builder
	b.Grow(t.size())
	t.write(&b)
	return template.HTML(b.String()) //nolint:gosec // every string went through htmlEscaper
}

// write writes the markup HTML returns to b.
func (t htmlTable) write(b *strings.Builder) {
	b.WriteString("<div class=\"scroll\"><table>\n")
	if t.Caption != "" {
		b.WriteString("<caption>")
		htmlEscaper.WriteString(b, t.Caption)
		b.WriteString("</caption>")
	}
	b.WriteString("\n<thead><tr>")
	for _, h := range t.Header {
		b.WriteString("<th>")
		htmlEscaper.WriteString(b, h)
		b.WriteString("</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, row := range t.Rows {
		b.WriteString("<tr>")
		for _, c := range row {
			b.WriteString("<td")
			if c.Class != "" {
				b.WriteString(" class=\"")
				htmlEscaper.WriteString(b, c.Class)
				b.WriteString("\"")
			}
			if c.Title != "" {
				b.WriteString(" title=\"")
				htmlEscaper.WriteString(b, c.Title)
				b.WriteString("\"")
			}
			b.WriteString(">")
			htmlEscaper.WriteString(b, c.Text)
			b.WriteString("</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table></div>\n")
}

// size is the length of t's markup when nothing needs escaping, so the
// markup is usually built in one allocation.
func (t htmlTable) size() int {
	n := 86 // the wrapper, thead and tbody
	if t.Caption != "" {
		n += len("<caption></caption>") + len(t.Caption)
	}
	for _, h := range t.Header {
		n += len(h) + 9
	}
	for _, row := range t.Rows {
		n += 10
		for _, c := range row {
			n += len(c.Text) + 9
			if c.Class != "" {
				n += len(c.Class) + 9
			}
			if c.Title != "" {
				n += len(c.Title) + 9
			}
		}
	}
	return n
}

// htmlEscaper is html/template's escaping of a string in element content
// and in a quoted attribute value (see [htmlTable.HTML]).
var htmlEscaper = strings.NewReplacer(
	"\x00", "\uFFFD",
	`"`, "&#34;",
	"&", "&amp;",
	"'", "&#39;",
	"+", "&#43;",
	"<", "&lt;",
	">", "&gt;",
)
