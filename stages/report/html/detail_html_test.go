package html

import (
	"html/template"
	"slices"
	"strings"
	"testing"
)

// templateDetails is the per-task markup as the page template wrote it.
var templateDetails = template.Must(template.New("details").Parse(`{{range .}}<details>
<summary><strong>{{.Task}}</strong>{{.Summary}}</summary>
{{.Runs.HTML}}</details>
{{end}}`))

// TestDetailHTMLIsTemplate: the details written by taskDetail.HTML are
// what the template wrote, hostile task names and summaries included.
func TestDetailHTMLIsTemplate(t *testing.T) {
	hostile := []string{"", "plain", `<script>alert('x')</script>`, `" onmouseover="x`, "a+b&c", "\x00nul",
		"\xc0<\xff>", "\uFDD0\uFFFE\uFFFF", "é ünï", "&amp;", "`back`", "=eq", " (3 runs: 2 pass, 1 fail)"}
	for b := range 256 {
		hostile = append(hostile, "x"+string([]byte{byte(b)})+"y")
	}
	var details []taskDetail
	for i, s := range hostile {
		other := hostile[(i*5+1)%len(hostile)]
		details = append(details, taskDetail{Task: s, Summary: other}, taskDetail{Task: other, Summary: s, Runs: htmlTable{
			Caption: s, Header: []string{"rep", other},
			Rows: [][]htmlCell{{{Text: s}, {Text: other, Class: "pass", Title: s}}},
		}})
	}
	var want strings.Builder
	if err := templateDetails.Execute(&want, details); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for h := range detailsHTML(slices.Values(details)) {
		got.WriteString(string(h))
	}
	if got.String() != want.String() {
		g, w := got.String(), want.String()
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		t.Fatalf("details differ at byte %d:\n got %q\nwant %q", i, g[max(0, i-40):min(len(g), i+40)], w[max(0, i-40):min(len(w), i+40)])
	}
}
