package report

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/golden"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/report/html"
	"github.com/evalgate/evalgate/stages/report/internal/fixture"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

const hostile = `<script>alert("x")</script></svg><img src=x onerror='y'>&amp;`

func renderFixtureHTML(t *testing.T, c *tables.Campaign, s *tables.Set) string {
	t.Helper()
	page, err := html.Render(scorecard.Build(c, s, figuresOf(c, s), "golden"), s)
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}

// wellFormed parses page as strict XML: report.html is written so that it
// is, which proves that no input text opened or closed an element.
func wellFormed(t *testing.T, page string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(page))
	d.Strict = true
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("report.html is not well-formed: %v", err)
		}
	}
}

// TestGoldenHTML pins report.html for the fixture. Refresh with
// go test ./stages/report -run TestGoldenHTML -update.
func TestGoldenHTML(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), Meta{ToolVersion: "golden"}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "fixture.golden.html"), got)
}

func TestHTMLStructure(t *testing.T) {
	page := renderFixtureHTML(t, fixtureCampaign(), fixtureSet(t))
	t.Run("well_formed", func(t *testing.T) { wellFormed(t, page) })
	t.Run("synthetic_before_decision", func(t *testing.T) {
		if i := strings.Index(page, "SYNTHETIC"); i < 0 || i > strings.Index(page, `id="decision"`) {
			t.Error("no SYNTHETIC label before the decision")
		}
	})
	t.Run("not_synthetic_no_label", func(t *testing.T) {
		c := fixtureCampaign()
		c.Manifest.Synthetic = false
		if strings.Contains(renderFixtureHTML(t, c, fixtureSet(t)), "SYNTHETIC") {
			t.Error("SYNTHETIC label on a campaign the manifest does not mark synthetic")
		}
	})
	t.Run("section_order", func(t *testing.T) {
		last := -1
		// The fixture has no cost or time ratio gate: that section does
		// not apply and is not shown.
		if strings.Contains(page, "Cost and time ratios against their thresholds") {
			t.Error("the ratio plot's section is shown without a ratio gate")
		}
		for _, h := range []string{`id="decision"`, `id="completion"`, `id="gates"`, "Paired task R",
			"Source and protocol correctness",
			"Final evidence and plan correctness", "Complete cost and time", `id="runs"`, `id="findings"`,
			"Exploratory intervals (do not gate)"} {
			i := strings.Index(page, h)
			if i <= last {
				t.Errorf("%q at %d, not after %d", h, i, last)
			}
			last = i
		}
	})
	t.Run("failing_gate_named_in_decision", func(t *testing.T) {
		decision := page[strings.Index(page, `id="decision"`):strings.Index(page, `id="completion"`)]
		if !strings.Contains(decision, "<li><strong>g2_quality</strong>") || !strings.Contains(decision, "do_not_advance") {
			t.Errorf("decision section does not name the failing gate:\n%s", decision)
		}
	})
	t.Run("intervals_carry_no_verdict", func(t *testing.T) {
		iv := page[strings.Index(page, "Exploratory intervals (do not gate)"):]
		for _, mark := range []string{`class="pass"`, `class="fail"`, "obs-pass", "obs-fail", ">pass<", ">FAIL<", `class="thr"`, `class="floor"`} {
			if strings.Contains(iv, mark) {
				t.Errorf("interval section carries %q", mark)
			}
		}
	})
}

func TestHTMLSelfContained(t *testing.T) {
	page := renderFixtureHTML(t, fixtureCampaign(), fixtureSet(t))
	for _, ref := range []string{"http://", "https://", "//", "<script", "src=", "href=", "@import", "url(", "<link", "<iframe", "<object"} {
		if strings.Contains(page, ref) {
			t.Errorf("report.html contains %q: it must need no external resource and no script", ref)
		}
	}
}

// hostileSet puts untrusted text everywhere the page shows input text:
// task and arm ids, gate names, thresholds and details, the decision,
// findings and interval labels.
func hostileSet(t *testing.T) (*tables.Campaign, *tables.Set) {
	c := fixtureCampaign()
	c.Manifest.CampaignID = hostile
	s := fixtureSet(t)
	fixture.EditRuns(s, func(runs []tables.Run) {
		for i := range runs {
			if runs[i].TaskID == "T2" {
				runs[i].TaskID = hostile
			}
		}
	})
	s.Gates = append(s.Gates,
		tables.Gate{Gate: "g2_task_floor", Arm: hostile, Observed: "0.5", Threshold: `>= 0.80 "><script>`, Detail: hostile},
		tables.Gate{Gate: "g5_cost_aggregate", Arm: hostile, Observed: "11/10 " + hostile, Threshold: "<= 1.10", Pass: true})
	s.Decision[0].Reason = hostile
	s.Decision[0].FailingGates = []string{"g2_quality", hostile}
	s.Rejections[0].Message = hostile
	s.Rejections[0].Session = hostile
	s.Intervals[0].Hi = ptr(0.7)
	s.Intervals[0].Lo = ptr(0.3)
	s.Intervals[0].Statistic = hostile
	s.Intervals[0].Unit = hostile
	return c, s
}

func TestHTMLEscapesHostileText(t *testing.T) {
	c, s := hostileSet(t)
	page := renderFixtureHTML(t, c, s)
	t.Run("well_formed", func(t *testing.T) { wellFormed(t, page) })
	t.Run("no_raw_markup", func(t *testing.T) {
		for _, raw := range []string{"<script", "<img", "onerror='"} {
			if strings.Contains(page, raw) {
				t.Errorf("hostile text reached the page unescaped: %q", raw)
			}
		}
	})
	t.Run("svg_balanced", func(t *testing.T) {
		if o, c := strings.Count(page, "<svg "), strings.Count(page, "</svg>"); o != c || o < 3 {
			t.Errorf("%d <svg> opened, %d closed (want equal, at least 3 plots)", o, c)
		}
	})
	t.Run("shown_escaped", func(t *testing.T) {
		for _, esc := range []string{"&lt;script&gt;", "&lt;/svg&gt;", "&amp;amp;"} {
			if !strings.Contains(page, esc) {
				t.Errorf("escaped form %q missing: the hostile text should still be visible", esc)
			}
		}
	})
}

// FuzzRenderHTML puts arbitrary text into ids and messages; the page must
// stay well-formed and never carry raw markup from the input.
func FuzzRenderHTML(f *testing.F) {
	for _, s := range []string{"", hostile, "\xff", "]]>", "<!--", "\u202e", "&#0;"} {
		f.Add(s)
	}
	render := func(t *testing.T, text string) string {
		text = "fz:" + text // never equal to a fixture id, so the page's shape is fixed
		s := fixtureSet(t)
		fixture.EditRuns(s, func(runs []tables.Run) { runs[0].TaskID = text })
		s.Gates[0].Detail = text
		s.Rejections[0].Message = text
		c := fixtureCampaign()
		c.Manifest.CampaignID = text
		return renderFixtureHTML(t, c, s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		page := render(t, text)
		wellFormed(t, page)
		// A long label wraps onto more <tspan> lines; every other element is fixed.
		if got, want := markupCount(page), markupCount(render(t, "")); got != want {
			t.Fatalf("input %q changed the page's markup: %d '<', want %d", text, got, want)
		}
	})
}

// tspanTag matches the line breaks of a wrapped plot label.
var tspanTag = regexp.MustCompile(`</?tspan[^>]*>`)

// markupCount counts the tags of page other than label lines.
func markupCount(page string) int { return strings.Count(tspanTag.ReplaceAllString(page, ""), "<") }

// TestPlotCoordinates checks plotted positions against hand computations.
// Task R plot: y(v) = 24 + (1 − v) × 220. Ratio plot: x(v) = 200 + v / xmax
// × 360 with xmax the observed/threshold maximum rounded up to a multiple
// of a round step (1, 2 or 5 × 10^k giving about five ticks from 0).
// Forest: x(v) = 300 + (v − lo′) / (hi′ − lo′) × 360 with lo′, hi′ the data
// range (with 0 for a difference, 1 for a ratio, and any gate threshold)
// widened to multiples of a round step.
func TestPlotCoordinates(t *testing.T) {
	s := fixtureSet(t)
	page := renderFixtureHTML(t, fixtureCampaign(), s)
	t.Run("task_r_dots", func(t *testing.T) {
		// T1 A: median(3/4, 2/4) = 5/8 → y = 24 + 0.375 × 220 = 106.50.
		// T1 B: median(4/4, 3/4) = 7/8 → y = 24 + 0.125 × 220 = 51.50.
		for _, want := range []string{
			`cy="106.50" r="4.50"><title>T1 A: median R 5/8</title>`,
			`cy="51.50" r="4.50"><title>T1 B: median R 7/8</title>`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("task R plot lacks %s", want)
			}
		}
	})
	t.Run("default_floor_line", func(t *testing.T) {
		// No g2_task_floor gate in the fixture: floor 0.80 → y = 24 + 0.2 × 220 = 68.00.
		if !strings.Contains(page, `<line class="floor" x1="50.00" y1="68.00"`) {
			t.Error("no floor line at R = 0.80")
		}
	})
	t.Run("ratio_gate_against_threshold", func(t *testing.T) {
		s := fixtureSet(t)
		s.Gates = append(s.Gates,
			tables.Gate{Gate: "g5_cost_aggregate", Arm: "B", Observed: "6/5 (≈1.2)", Threshold: "<= 1.10"},
			tables.Gate{Gate: "g5_time_aggregate", Arm: "B", Observed: "0.9", Threshold: "<= 1.10", Pass: true})
		page := renderFixtureHTML(t, fixtureCampaign(), s)
		// Range [0, 1.2] over five ticks: raw step 0.24 → 0.5, xmax = 1.5. Observed 1.2 → 200 + 0.8 × 360 = 488.00;
		// threshold 1.10 → 200 + 264 = 464.00; observed 0.9 → 200 + 216 = 416.00.
		for _, want := range []string{
			`<line class="thr" x1="464.00"`,
			`<circle class="obs-fail" cx="488.00"`,
			`<circle class="obs-pass" cx="416.00"`,
			`<line class="parity" x1="440.00"`, // 1.00 → 200 + 240
		} {
			if !strings.Contains(page, want) {
				t.Errorf("ratio plot lacks %s", want)
			}
		}
	})
	t.Run("forest_ok_rows_only", func(t *testing.T) {
		s := fixtureSet(t)
		s.Intervals[0].Lo, s.Intervals[0].Hi = ptr(0.25), ptr(0.75)
		s.Intervals = append(s.Intervals, tables.Interval{Statistic: "skipped_stat", Status: "degenerate",
			Estimate: ptr(0.5), Lo: ptr(0.5), Hi: ptr(0.5), Unit: "fraction"})
		page := renderFixtureHTML(t, fixtureCampaign(), s)
		// Range [0.25, 0.75]: raw step 0.1, axis [0.2, 0.8]. Estimate 0.5 →
		// 300 + 0.3/0.6 × 360 = 480.00; lo 0.25 → 330.00; hi 0.75 → 630.00.
		// The label is two lines (statistic, method): row height 2 × 13 + 11
		// = 37, centre 24 + 18.5 = 42.50.
		for _, want := range []string{
			`<line class="ci" x1="330.00" y1="42.50" x2="630.00"`,
			`<circle class="est" cx="480.00" cy="42.50"`,
			"0.5 [0.25, 0.75]",
			`<text x="300.00" y="77.00" text-anchor="middle">0.2</text>`, // bottom 24 + 37, labels 16 below
			`<text x="660.00" y="77.00" text-anchor="middle">0.8</text>`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("forest lacks %s", want)
			}
		}
		svgs := page[strings.Index(page, "Exploratory intervals (do not gate)"):strings.LastIndex(page, "</svg>")]
		if strings.Contains(svgs, "skipped_stat") {
			t.Error("an interval whose status is not ok was plotted")
		}
	})
	t.Run("forest_empty", func(t *testing.T) {
		// The fixture's only interval has hi = NaN: nothing to plot, so
		// no forest is drawn (the intervals table still lists the row).
		if strings.Contains(page, `data-figure="forest-`) {
			t.Error("a forest was drawn with no interval to plot")
		}
	})
}

// TestHTMLContentSecurityPolicy recomputes the style's hash from the page
// itself: the policy must allow exactly that style and nothing else.
func TestHTMLContentSecurityPolicy(t *testing.T) {
	page := renderFixtureHTML(t, fixtureCampaign(), fixtureSet(t))
	style := page[strings.Index(page, "<style>")+len("<style>") : strings.Index(page, "</style>")]
	sum := sha256.Sum256([]byte(style))
	want := `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-` +
		base64.StdEncoding.EncodeToString(sum[:]) + `'; base-uri 'none'; form-action 'none'"/>`
	if !strings.Contains(page, want) {
		t.Errorf("no policy allowing only the page's style; want %s", want)
	}
	if i, j := strings.Index(page, want), strings.Index(page, "<style>"); i < 0 || i > j {
		t.Error("the policy must come before the style it allows")
	}
	if strings.Count(page, "<style>") != 1 || strings.Contains(page, " style=") {
		t.Error("a style other than the one hashed")
	}
}

// TestHTMLTaskDrillDown: one <details> per task of the runs, each listing
// that task's runs and the findings of their sessions only.
func TestHTMLTaskDrillDown(t *testing.T) {
	s := fixtureSet(t)
	fixture.EditRuns(s, func(runs []tables.Run) { runs[0].ReviewSessionID = "S-drill" })
	s.Rejections = append(s.Rejections, rules.Finding{Code: "c_code", Severity: rules.Warn, File: "receipts.jsonl", Line: 3,
		Session: "S-drill", Message: "drill-down marker"})
	page := renderFixtureHTML(t, fixtureCampaign(), s)
	tasks := map[string]int{}
	runs := s.Runs.Collect()
	for _, r := range runs {
		tasks[r.TaskID]++
	}
	if got := strings.Count(page, "<details>"); got != len(tasks) {
		t.Errorf("%d <details>, want one per task: %d", got, len(tasks))
	}
	for _, d := range strings.Split(page, "<details>")[1:] {
		d = d[:strings.Index(d, "</details>")]
		task := d[strings.Index(d, "<strong>")+len("<strong>") : strings.Index(d, "</strong>")]
		if got := strings.Count(d, "<tr><td>"); got != tasks[task] {
			t.Errorf("task %s lists %d runs, want %d", task, got, tasks[task])
		}
		if has := strings.Contains(d, "drill-down marker"); has != (task == runs[0].TaskID) {
			t.Errorf("task %s: finding of session S-drill shown = %v", task, has)
		}
	}
}
