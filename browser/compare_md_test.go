package browser_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/interop"
	"github.com/evalgate/evalgate/stages/report/compare"
)

// commentFacts is what commentProbe reads off a rendered comment.
type commentFacts struct {
	Heading string `json:"heading"` // the first element's text, when it is a heading
	Tables  []struct {
		Head []string   `json:"head"`
		Rows [][]string `json:"rows"`
	} `json:"tables"`
	Details      int      `json:"details"`       // <details> elements
	OpenDetails  int      `json:"open_details"`  // of which open
	DetailsItems int      `json:"details_items"` // list items inside them
	Visible      string   `json:"visible"`       // what a reader sees before expanding anything
	Text         string   `json:"text"`          // every text, the collapsed section's too
	Strong       []string `json:"strong"`        // bold runs outside the collapsed section
}

const commentProbe = `(() => {
  const body = document.querySelector('article');
  const first = body.firstElementChild;
  const tables = [...body.querySelectorAll('table')].map(t => ({
    head: [...t.querySelectorAll('thead th')].map(c => c.textContent.trim()),
    rows: [...t.querySelectorAll('tbody tr')].map(r => [...r.cells].map(c => c.textContent.trim())),
  }));
  const details = [...body.querySelectorAll('details')];
  return {
    heading: /^H[1-6]$/.test(first?.tagName) ? first.textContent.trim() : '',
    tables, details: details.length, open_details: details.filter(d => d.open).length,
    details_items: details.reduce((n, d) => n + d.querySelectorAll('li').length, 0),
    visible: body.innerText, text: body.textContent,
    strong: [...body.querySelectorAll('strong')].filter(s => !s.closest('details')).map(s => s.textContent),
  };
})()`

// TestCompareCommentInChromium renders the Markdown of compare
// paired-review-green → paired-review (`evalgate compare --format md`)
// with a Markdown renderer (npm marked, GitHub-flavoured, in interop/),
// loads it in Chromium as a pull-request comment is shown and reads it as
// a reviewer would.
//
// Expected by hand from the examples' READMEs: green passes every gate of
// paired-review-evaluation-v1, paired-review fails ten (g1, g2_task_floor,
// g3_max_task_drop, g4, and the six g5 ratio gates); g2_macro_floor and
// g3_macro_gain still pass but their observations fall (1 → 151/160,
// 33/140 → 0.175) and g3_improved_tasks's failing list grows (T3): 13 of
// the 15 gates differ, g2_uncertainty and g5_session_limits do not. The
// headline figures are A's and B's macro-average of task-median R and B's
// cost and time ratios: 4 rows.
func TestCompareCommentInChromium(t *testing.T) {
	script := interop.Script(t, "markdown.mjs", "marked")
	b, ctx := withBrowser(t)
	green := filepath.Dir(writeReport(t, exampleDir(t, "paired-review-green")))
	red := filepath.Dir(writeReport(t, exampleDir(t, "paired-review")))
	c, err := compare.Dirs(green, red, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := c.WriteMarkdown(&md, compare.FailOnRegression); err != nil {
		t.Fatal(err)
	}
	var rendered struct {
		HTML string `json:"html"`
	}
	interop.Node(t, "", md.String(), &rendered, script)
	page := filepath.Join(t.TempDir(), "comment.html")
	doc := fmt.Sprintf(`<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:14px sans-serif;max-width:900px} table{border-collapse:collapse;display:block;overflow:auto} td,th{border:1px solid #ccc;padding:4px}</style>
</head><body><article>%s</article></body></html>`, rendered.HTML)
	if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	var f commentFacts
	msgs, err := b.evaluate(ctx, page, 1280, commentProbe, &f)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		t.Errorf("console: %s", m)
	}

	// The first line: the result, the decision's change and the counts.
	if !regexp.MustCompile(`^evalgate compare: regression · decision advance → do_not_advance · \d+ worse, \d+ better, \d+ changed$`).MatchString(f.Heading) {
		t.Errorf("first line %q: want the result, the decision change and the counts", f.Heading)
	}
	if len(f.Tables) != 2 {
		t.Fatalf("%d tables rendered, want the gates' and the headline figures'", len(f.Tables))
	}
	gates, headlines := f.Tables[0], f.Tables[1]
	if strings.Join(gates.Head, "|") != "gate|threshold|old|new|delta|" || len(gates.Rows) != 13 {
		t.Errorf("gate table %q with %d rows, want 13 (one per gate that differs)", gates.Head, len(gates.Rows))
	}
	seen := map[string]bool{}
	for _, r := range gates.Rows {
		if seen[r[0]] {
			t.Errorf("gate %s has two rows", r[0])
		}
		seen[r[0]] = true
		if dir := r[len(r)-1]; dir != "worse" && dir != "changed" {
			t.Errorf("gate %s: direction %q", r[0], dir)
		}
	}
	for _, g := range []string{"g2_uncertainty B", "g5_session_limits B"} {
		if seen[g] {
			t.Errorf("%s does not differ but has a row", g)
		}
	}
	if len(headlines.Rows) != 4 {
		t.Errorf("%d headline rows, want 4: %q", len(headlines.Rows), headlines.Rows)
	}
	// One row of the gate table, by hand: the aggregate cost ratio of
	// paired-review is 753517/643266 = ×1.171 (+17.1%), green's 1.
	want := []string{"g5_cost_aggregate B", "≤ 1.10", "×1.000 (+0.0%) pass", "×1.171 (+17.1%) fail", "+17.1 pp", "worse"}
	found := false
	for _, r := range gates.Rows {
		found = found || strings.Join(r, "|") == strings.Join(want, "|")
	}
	if !found {
		t.Errorf("no gate row %q in %q", want, gates.Rows)
	}

	// Human units everywhere: no raw nanoseconds, no bare fraction in a
	// cell, no Markdown syntax left over.
	text := strings.NewReplacer(green, "OLD", red, "NEW").Replace(f.Text) // the temporary directories' names have digits
	if n := regexp.MustCompile(`\d{10,}`).FindString(text); n != "" {
		t.Errorf("a raw count %s (nanoseconds?) in the comment", n)
	}
	bare := regexp.MustCompile(`^[+-]?\d+/\d+$`)
	for _, tab := range f.Tables {
		for _, r := range tab.Rows {
			for _, cell := range r {
				if bare.MatchString(cell) {
					t.Errorf("cell %q is a fraction alone", cell)
				}
			}
		}
	}
	for _, syntax := range []string{"**", "\\", "|---", "<details", "`"} {
		if strings.Contains(f.Text, syntax) {
			t.Errorf("%q is left in the rendered text: not parsed as Markdown", syntax)
		}
	}
	// Every difference is in one collapsed section.
	if f.Details != 1 || f.OpenDetails != 0 || f.DetailsItems != len(c.Differences) {
		t.Errorf("%d <details> (%d open) with %d items, want one closed with %d", f.Details, f.OpenDetails, f.DetailsItems, len(c.Differences))
	}
	if strings.Contains(f.Visible, "ceiling wall_time use") || !strings.Contains(f.Text, "ceiling wall_time use: 1 h 34 min 18.4 s → 1 h 34 min 35.5 s (+17.1 s)") {
		t.Errorf("the ceiling's use is not (only) in the collapsed section")
	}
	if len(f.Strong) == 0 || !strings.HasPrefix(f.Strong[0], "Fails") {
		t.Errorf("bold runs %q: want the --fail-on line first", f.Strong)
	}
}
