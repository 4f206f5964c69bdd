package browser_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/report"
	"github.com/evalgate/evalgate/tables"
	"github.com/parquet-go/parquet-go"
)

// writeReport runs the pipeline (intervals included) on the campaign in
// dir and writes its outputs; it returns report.html's path.
func writeReport(t *testing.T, dir string) string {
	t.Helper()
	res := stages.Run(os.DirFS(dir), filepath.Base(dir), stages.Options{})
	out := filepath.Join(t.TempDir(), "out")
	if err := report.Write(out, res.Campaign, res.Tables, res.Figures, report.Meta{ToolVersion: "browser-test"}); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(out, report.HTMLFile)
}

// exampleDir writes the embedded example name into a temporary directory.
func exampleDir(t *testing.T, name string) string {
	t.Helper()
	c, err := loadExample(name)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), name)
	if err := c.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// allowedTags are the only elements report.html is built from. Any other
// element in the browser's DOM came from input text.
var allowedTags = []string{
	"body", "caption", "circle", "details", "div", "h1", "h2", "h3", "head", "html", "li", "line",
	"meta", "p", "rect", "strong", "style", "summary", "svg", "table", "tbody", "td", "text", "th",
	"thead", "title", "tr", "tspan", "ul",
}

// pageCase is one report and what its DOM must hold. The expectations are
// written by hand from the example's README and manifest, not read from
// the pipeline's outputs.
type pageCase struct {
	name     string
	dir      func(t *testing.T) string
	decision string
	figures  []string // data-figure names, in page order
	tasks    int      // <details> drill-downs: one per task of the example's tasks/ folder
	// visible are strings (hostile markup) that must appear as text.
	visible []string
}

func TestReportInChromium(t *testing.T) {
	b, ctx := withBrowser(t)
	example := func(name string) func(*testing.T) string {
		return func(t *testing.T) string { return exampleDir(t, name) }
	}
	cases := []pageCase{
		{name: "paired-review", dir: example("paired-review"), decision: "do_not_advance", tasks: 8,
			figures: []string{"task-r", "ratios", "forest-ratio", "forest-fraction", "forest-difference"}},
		{name: "paired-review-green", dir: example("paired-review-green"), decision: "advance", tasks: 8,
			figures: []string{"task-r", "ratios", "forest-fraction", "forest-difference"}},
		{name: "system-comparison", dir: example("system-comparison"), decision: "do_not_advance", tasks: 6,
			figures: []string{"task-r", "ratios", "forest-ratio", "forest-fraction", "forest-difference"}},
		{name: "system-comparison-green", dir: example("system-comparison-green"), decision: "advance", tasks: 6,
			figures: []string{"task-r", "ratios", "forest-ratio", "forest-fraction", "forest-difference"}},
		// Round 2 of the development flow, judged by the round-2 preset.
		{name: "development-rounds", dir: example("development-rounds"), decision: "advance", tasks: 4,
			figures: []string{"task-r", "ratios", "forest-fraction", "forest-difference"}},
		// The reviewer benchmark has no paired runs, so no task drill-down.
		{name: "reviewer-benchmark", dir: example("reviewer-benchmark"), decision: "advance",
			figures: []string{"forest-fraction", "forest-difference"}},
		{name: "hostile", dir: hostileDir, decision: hostileDecision, tasks: 8, figures: hostileFigures, visible: hostileVisible},
	}
	if got, want := len(cases)-1, len(fixtures.Examples()); got != want {
		t.Fatalf("%d examples covered, %d embedded: add the new example here", got, want)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeReport(t, c.dir(t))
			for _, width := range []int{1280, 390} {
				t.Run(fmt.Sprint(width), func(t *testing.T) {
					facts, msgs, err := b.load(ctx, path, width)
					if err != nil {
						t.Fatal(err)
					}
					checkPage(t, c, facts, msgs)
					checkPlots(t, facts)
					checkCounts(t, filepath.Dir(path), facts)
				})
			}
		})
	}
}

// checkPlots: every plot scales (a viewBox), draws every mark and label
// inside its box, titles its axes, and gives each arm its own colour.
func checkPlots(t *testing.T, facts pageFacts) {
	t.Helper()
	for _, f := range facts.Figures {
		if f.ViewBox == "" {
			t.Errorf("plot %s has no viewBox: it cannot scale", f.Name)
		}
		for _, o := range f.Outside {
			t.Errorf("plot %s draws %s outside its box", f.Name, o)
		}
		if len(f.AxisTitles) == 0 {
			t.Errorf("plot %s has no axis title", f.Name)
		}
		if f.Name == "task-r" && len(f.AxisTitles) < 2 {
			t.Errorf("plot task-r titles %q: want both axes", f.AxisTitles)
		}
		seen := map[string]string{}
		for arm, colors := range f.ArmColors {
			if len(colors) != 1 {
				t.Errorf("plot %s draws arm %s in %d colours %q", f.Name, arm, len(colors), colors)
			}
			for _, c := range colors {
				if other, dup := seen[c]; dup {
					t.Errorf("plot %s draws arms %s and %s in the same colour %s", f.Name, other, arm, c)
				}
				seen[c] = arm
			}
		}
		if f.Name == "task-r" && len(f.ArmColors) < 2 {
			t.Errorf("plot task-r marks %d arms with data-arm, want every arm", len(f.ArmColors))
		}
	}
}

// checkCounts: every count the page states equals the row count of the
// table it counts, read from the Parquet files written beside the page.
func checkCounts(t *testing.T, out string, facts pageFacts) {
	t.Helper()
	rows := func(table string) int64 {
		f, err := os.Open(filepath.Join(out, table+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		pf, err := parquet.OpenFile(f, st.Size())
		if err != nil {
			t.Fatal(err)
		}
		return pf.NumRows()
	}
	counted := map[string]string{"sessions": "sessions", "runs": "runs", "findings": tables.CampaignFindingsTable}
	if rows("reviews") > 0 { // a reviewer benchmark counts its review attempts, and has no sessions or runs
		counted = map[string]string{"attempts": "reviews", "findings": tables.CampaignFindingsTable}
	}
	for count, table := range counted {
		got, ok := facts.Counts[count]
		if !ok {
			t.Errorf("the page states no %s count", count)
			continue
		}
		if want := rows(table); got != fmt.Sprint(want) {
			t.Errorf("the page says %s %s; %s.parquet has %d rows", got, count, table, want)
		}
	}
}

func checkPage(t *testing.T, c pageCase, facts pageFacts, msgs []consoleMessage) {
	t.Helper()
	if facts.Decision != c.decision {
		t.Errorf("decision in the DOM = %q, want %q", facts.Decision, c.decision)
	}
	var names []string
	for _, f := range facts.Figures {
		names = append(names, f.Name)
		if f.Width < 100 || f.Height < 50 || f.Marks == 0 {
			t.Errorf("plot %s drawn %.0f×%.0f px with %d marks: not a visible plot", f.Name, f.Width, f.Height, f.Marks)
		}
	}
	if !slices.Equal(names, c.figures) {
		t.Errorf("plots in the DOM = %q, want %q", names, c.figures)
	}
	for _, tag := range facts.Tags {
		if !slices.Contains(allowedTags, tag) {
			t.Errorf("element <%s> in the DOM: report.html never writes it, so input text became markup", tag)
		}
	}
	for _, h := range facts.Handlers {
		t.Errorf("event handler attribute %s in the DOM", h)
	}
	for _, l := range facts.Links {
		t.Errorf("link attribute %s in the DOM: the report references nothing", l)
	}
	for _, v := range c.visible {
		if !strings.Contains(facts.Text, v) {
			t.Errorf("hostile text %q is not shown as text", v)
		}
	}
	if !strings.Contains(facts.CSP, "default-src 'none'") {
		t.Errorf("Content-Security-Policy = %q, want default-src 'none'", facts.CSP)
	}
	if facts.Details != c.tasks {
		t.Errorf("%d <details> drill-downs in the page, want one per task: %d", facts.Details, c.tasks)
	}
	if facts.ScrollWidth > facts.ViewportWidth+1 {
		t.Errorf("page %.0f px wide in a %.0f px viewport: it scrolls sideways", facts.ScrollWidth, facts.ViewportWidth)
	}
	for _, o := range facts.Overflow {
		t.Errorf("%s overflows the 1280 px viewport outside a scroll wrapper", o)
	}
	for _, m := range msgs {
		t.Errorf("console: %s", m)
	}
}
