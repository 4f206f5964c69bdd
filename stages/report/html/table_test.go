package html

import (
	"html/template"
	"strings"
	"testing"
)

// templateTable is the table markup as an html/template define: the
// oracle htmlTable.HTML is held to.
var templateTable = template.Must(template.New("table").Parse(`<div class="scroll"><table>
{{if .Caption}}<caption>{{.Caption}}</caption>{{end}}
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr>{{range .}}<td{{if .Class}} class="{{.Class}}"{{end}}{{if .Title}} title="{{.Title}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
`))

// TestTableHTMLIsTemplate: HTML writes what html/template writes for the
// same table, with every byte value and hostile markup in the text, the
// caption, the header, the class and the title, and with each of them
// empty.
func TestTableHTMLIsTemplate(t *testing.T) {
	hostile := []string{"", "plain", `<script>alert('x')</script>`, `" onmouseover="x`, "a+b&c", "\x00nul",
		"\xc0<\xff>", "\uFDD0\uFFFE\uFFFF", "é ünï", "&amp;", "`back`", "=eq"}
	for b := range 256 {
		hostile = append(hostile, string([]byte{byte(b)}), "x"+string([]byte{byte(b)})+"y")
	}
	var tables []htmlTable
	tables = append(tables, htmlTable{}, htmlTable{Header: []string{}}, htmlTable{Rows: [][]htmlCell{{}}})
	for i, s := range hostile {
		other := hostile[(i*7+3)%len(hostile)]
		tables = append(tables, htmlTable{
			Caption: s,
			Header:  []string{other, s},
			Rows: [][]htmlCell{
				{{Text: s}, {Text: other, Class: s}, {Text: s, Title: other}, {Class: other, Title: s}},
				{{Text: other, Class: "pass", Title: s}},
			},
		})
	}
	for i, tb := range tables {
		var want strings.Builder
		if err := templateTable.Execute(&want, tb); err != nil {
			t.Fatal(err)
		}
		if got := string(tb.HTML()); got != want.String() {
			t.Fatalf("table %d:\n got %q\nwant %q", i, got, want.String())
		}
	}
}

// TestTableSize: size is the markup's length when nothing is escaped.
func TestTableSize(t *testing.T) {
	for _, tb := range []htmlTable{
		{},
		{Caption: "c", Header: []string{"a", "bb"}, Rows: [][]htmlCell{{{Text: "x"}, {Text: "y", Class: "pass", Title: "t"}}, {}}},
	} {
		if got, want := tb.size(), len(tb.HTML()); got != want {
			t.Errorf("size %d, markup %d bytes", got, want)
		}
	}
}
