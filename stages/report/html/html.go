// Package html renders report.html, the self-contained HTML report, from
// the scorecard and the tables. It formats; every number comes from the
// scorecard (stages/report/scorecard).
package html

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"io"
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// File is the self-contained HTML report's file name (rule R1).
const File = "report.html"

// report.html invariants:
//   - Self-contained: inline CSS and inline SVG only; no script, no
//     external reference of any kind. A Content-Security-Policy meta tag
//     allows nothing but the one <style> element, by its hash.
//   - Every plot is an <svg data-figure="NAME">, and the decision carries
//     data-decision, so a browser test finds both by name.
//   - Every table and plot sits in a horizontal scroll wrapper: the page
//     itself never scrolls sideways.
//   - Each task's runs are a <details> drill-down: classification, R, U,
//     cost, time and the findings of the run's sessions.
//   - Every string from the inputs reaches the page through html/template
//     (text and attributes), in the tables through htmlEscaper (the same
//     escaping, held to html/template by a test) or, inside the SVG plots,
//     through escapeHTML; control and format characters are blanked first
//     (plainText).
//   - Byte-deterministic: every row comes from an ordered slice, and every
//     coordinate is printed with a fixed number of decimals.
//   - The exploratory intervals come last and carry no pass or fail mark.

// htmlCell is one table cell; Class is a fixed CSS class (never input
// text); Title, when set, is shown on hover (an exact value).
type htmlCell struct {
	Text  string
	Class string
	Title string
}

// failingGate is one line of the decision block: the gate's name, then
// its observed value against its threshold and what failed it.
type failingGate struct {
	Name, Rest string
}

// htmlTable is a table of already formatted (not yet escaped) cells.
type htmlTable struct {
	Caption string
	Header  []string
	Rows    [][]htmlCell
}

// htmlPage is the template's data.
type htmlPage struct {
	Title        string
	Synthetic    bool
	Identity     []htmlCell // Text = label, Class unused
	Decision     string
	DecisionArm  string
	DecisionPass bool
	FailingGates []failingGate
	Reason       string
	Policy       string
	Completion   []completionItem
	Gates        htmlTable
	TaskRPlot    template.HTML
	RatioPlot    template.HTML
	Source       htmlTable
	EvidenceArms htmlTable
	EvidenceTask htmlTable
	CostSummary  string
	CostArms     htmlTable
	CostRatios   htmlTable
	AnyRun       bool
	Tasks        iter.Seq[template.HTML] // each task's <details>, built as the page is written
	Findings     []string
	MoreFindings int
	Intervals    scorecard.Intervals
	ForestPlots  []template.HTML
	IntervalRows htmlTable
	// IntervalIntro is a reviewer benchmark's text above its intervals:
	// the method and where its coverage is tested.
	IntervalIntro string
	Benchmark     *benchmarkSection // reviewer benchmark only (rbench.go)
}

// Render renders report.html from the scorecard and the tables, in the
// order of report.md: SYNTHETIC banner, decision with every failing gate
// named, completion, gates, plots, the three scorecards, runs per task,
// findings, then the exploratory intervals with their forest plot.
func Render(sc scorecard.Scorecard, s *tables.Set) ([]byte, error) {
	var b bytes.Buffer
	if err := Write(&b, sc, s); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Write writes [Render]'s page to w as it is built, through a buffer: the
// drill-down of each task is built, written and dropped in turn, so the
// page is never held whole; the error is w's or the template's.
func Write(w io.Writer, sc scorecard.Scorecard, s *tables.Set) error {
	if s == nil {
		s = &tables.Set{}
	}
	p := htmlPage{
		Title:     plainText(cmp.Or(sc.CampaignID, "(no campaign)")),
		Synthetic: sc.Synthetic,
		Identity: []htmlCell{
			{Text: "Kind: " + plainText(sc.Kind)},
			{Text: "Manifest sha256: " + plainText(sc.ManifestSHA256)},
			{Text: "Tool version: " + plainText(sc.ToolVersion)},
			{Text: "Scorecard: " + sc.ScorecardVersion},
		},
		Decision:     plainText(string(sc.Decision.Decision)),
		DecisionArm:  plainText(sc.Decision.Arm),
		DecisionPass: sc.Decision.Decision == tables.DecisionAdvance,
		FailingGates: failingGateLines(sc.Decision, sc.CostAndTime.Currency),
		Reason:       plainText(sc.Decision.Reason),
		Policy:       plainText(sc.Decision.Policy),
		Completion:   completionLines(sc),
		Gates:        gatesTable(sc.Gates, sc.CostAndTime.Currency),
		TaskRPlot:    taskRPlot(sc),
		RatioPlot:    ratioPlot(sc.Gates, sc.CostAndTime.Currency),
		Source:       sourceTable(sc.SourceAndProtocol),
		EvidenceArms: evidenceArmsTable(sc.EvidenceAndPlan),
		EvidenceTask: evidenceTaskTable(sc.EvidenceAndPlan),
		CostSummary: fmt.Sprintf("Physical campaign billing (every session once): reference %s, actual %s.",
			scorecard.Amount(sc.CostAndTime.Currency, sc.CostAndTime.SessionReferenceCost), scorecard.Amount(sc.CostAndTime.Currency, sc.CostAndTime.SessionActualCharge)),
		CostArms:     costArmsTable(sc.CostAndTime),
		CostRatios:   costRatiosTable(sc.CostAndTime),
		AnyRun:       s.Runs.Len() > 0,
		Tasks:        detailsHTML(taskDetails(s.Runs, s.Rejections, sc.CostAndTime.Currency)),
		Intervals:    sc.Intervals,
		ForestPlots:  forestPlots(sc.Intervals.Rows, sc.Gates),
		IntervalRows: intervalTable(sc.Intervals.Rows),
		Benchmark:    reviewerBenchmark(sc),
	}
	p.Findings, p.MoreFindings = findingLines(s.Rejections)
	if p.Benchmark != nil { // its own gates, and no paired-review section (rbench.go); its counts are completionLines'
		p.Gates = p.Benchmark.Gates
		p.IntervalRows, p.IntervalIntro = p.Benchmark.Intervals, p.Benchmark.IntervalIntro
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := pageTemplate.Execute(bw, p); err != nil {
		return fmt.Errorf("report: %s: %w", File, err)
	}
	return bw.Flush()
}

// plainText makes untrusted text safe to show as one line before HTML
// escaping: invalid UTF-8 becomes U+FFFD; line breaks, control and format
// characters (bidi overrides included) become a space. Printable ASCII
// (most cells: numbers, IDs, codes) is returned as it is.
func plainText(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return plainRunes(s)
		}
	}
	return s
}

// plainRunes is plainText of text with a byte outside printable ASCII.
func plainRunes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' || r == '\uFFFE' || r == '\uFFFF':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func plainList(items []string) []string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = plainText(s)
	}
	return out
}

func joinPlain(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(plainList(items), ", ")
}

func countsPlain(cs []scorecard.Count) string {
	if len(cs) == 0 {
		return "none"
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = fmt.Sprintf("%s %d", plainText(c.Name), c.Count)
	}
	return strings.Join(out, ", ")
}

// failingGateLines lists each failing gate on its own line, through the
// formatting layer's FailingGateLine (as report.md and the terminal).
func failingGateLines(d scorecard.DecisionResult, currency string) []failingGate {
	var out []failingGate
	listed := map[string]bool{}
	for _, g := range d.FailingGateDetails {
		listed[g.Gate] = true
		out = append(out, failingGate{plainText(g.Gate), plainText(strings.TrimPrefix(scorecard.FailingGateLine(g, currency), g.Gate))})
	}
	for _, name := range d.FailingGates {
		if !listed[name] {
			out = append(out, failingGate{plainText(name), ": no row in the gates table"})
		}
	}
	return out
}

// completionItem is one count of the completion list: what it counts
// (data-count, the table it counts: sessions, runs, attempts or findings),
// the count (data-value) and the line shown.
type completionItem struct {
	Count string
	Value int64
	Text  string
}

// completionLines are the campaign's own counts, in the kind's words: a
// system comparison's runs are its workflows; a reviewer benchmark counts
// its scheduled review attempts (the reviews table) instead of sessions
// and runs, which it has none of.
func completionLines(sc scorecard.Scorecard) []completionItem {
	c := sc.Completion
	findings := completionItem{"findings", c.Findings, fmt.Sprintf("Findings about the record: %d (%s)", c.Findings, countsPlain(c.FindingsBySeverity))}
	if rb := sc.ReviewerBenchmark; rb != nil {
		return []completionItem{
			{"attempts", rb.Scheduled, fmt.Sprintf("Review attempts: %d scheduled over %d cases (%s)", rb.Scheduled, rb.Cases, countsPlain(rb.Attempts))},
			findings,
		}
	}
	runs := "Runs"
	if sc.Kind == rules.KindSystemComparison {
		runs = "Workflows (runs)"
	}
	return []completionItem{
		{"sessions", c.Sessions, fmt.Sprintf("Sessions: %d (%s); by status: %s", c.Sessions, countsPlain(c.SessionsByClassification), countsPlain(c.SessionsByStatus))},
		{"runs", c.Runs, fmt.Sprintf("%s: %d planned, %d scored, %d unscored (%s)", runs, c.Runs, c.RunsScored, c.RunsUnscored, countsPlain(c.RunsByClassification))},
		findings,
	}
}

func findingLines(fs []rules.Finding) (lines []string, more int) {
	sorted := append(rules.Findings(nil), fs...)
	sorted.Sort()
	listed := 0
	for _, g := range rules.Collapse(sorted) {
		if listed >= scorecard.MaxListedFindings {
			return lines, len(sorted) - listed
		}
		listed += g.Count()
		lines = append(lines, plainText(string(g.First.Severity))+": "+plainText(g.Error()))
	}
	return lines, 0
}

// cells wraps plain strings as unclassed cells, blanking control characters.
func cells(texts ...string) []htmlCell {
	return appendCells(make([]htmlCell, 0, len(texts)), texts...)
}

// appendCells is cells appended to row.
func appendCells(row []htmlCell, texts ...string) []htmlCell {
	for _, t := range texts {
		row = append(row, htmlCell{Text: plainText(t)})
	}
	return row
}

func passCell(pass bool) htmlCell {
	if pass {
		return htmlCell{Text: "pass", Class: "pass"}
	}
	return htmlCell{Text: "FAIL", Class: "fail"}
}
