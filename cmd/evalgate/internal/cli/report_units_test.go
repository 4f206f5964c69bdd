package cli

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
)

// TestReportHumanUnits runs every embedded example, intervals included, as
// `evalgate run` does, and scans its report.md and report.html for the raw
// forms the formatting layer replaces (reportUnitProblems). Exact values
// belong in scorecard.json and the tables, not in what a person reads.
func TestReportHumanUnits(t *testing.T) {
	for _, example := range fixtures.Examples() {
		t.Run(example, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if code, _, stderr := mainCmd("run", "--example", example, "--out", out); code != ExitOK {
				t.Fatalf("run: exit %d: %s", code, stderr)
			}
			for _, name := range []string{"report.md", "report.html"} {
				data, err := os.ReadFile(filepath.Join(out, name))
				if err != nil {
					t.Fatal(err)
				}
				cells := markdownCells
				if strings.HasSuffix(name, ".html") {
					cells = htmlCells
				}
				for _, p := range reportUnitProblems(string(data), cells) {
					t.Errorf("%s: %s", name, p)
				}
			}
		})
	}
}

// The raw forms a report must not show:
//   - a number with 7 or more decimals (a 12-decimal median, a 17-digit
//     float bound): longDecimal;
//   - a count of nanoseconds: an integer of 9 or more digits beside a time
//     word in the same line of text (timeNearInteger), any integer of 1e9
//     or more in a column whose header is a duration (durationHeader), and
//     any integer of 10 or more digits anywhere but in an exact fraction
//     ("p/q") or a seed column (bareInteger).
var (
	longDecimal     = regexp.MustCompile(`[0-9]\.[0-9]{7,}`)
	bigInteger      = regexp.MustCompile(`(^|[^0-9./])([0-9]{9,})($|[^0-9./])`)
	timeWord        = regexp.MustCompile(`(?i)\b(ns|nanoseconds?|seconds?|time|latency|duration|wall|elapsed)\b|_ns\b`)
	durationHeader  = regexp.MustCompile(`(?i)time|latency|duration|wall|elapsed|(^|[ _])ns\b`)
	seedHeader      = regexp.MustCompile(`(?i)^seed$`)
	markdownRow     = regexp.MustCompile(`(?m)^\|.*\|$`)
	htmlRow         = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	htmlCell        = regexp.MustCompile(`(?s)<t([hd])[^>]*>(.*?)</t[hd]>`)
	htmlTag         = regexp.MustCompile(`<[^>]*>`)
	markdownEscapes = strings.NewReplacer(`\`, ``)
)

// cell is one table cell with its column's header.
type cell struct{ header, text string }

// reportUnitProblems lists every raw form in a report's text, each with
// its context.
func reportUnitProblems(text string, cells func(string) []cell) []string {
	var problems []string
	for _, loc := range longDecimal.FindAllStringIndex(text, -1) {
		problems = append(problems, "long decimal "+context(text, loc))
	}
	for line := range strings.Lines(text) {
		if timeWord.MatchString(line) {
			for _, m := range bigInteger.FindAllStringSubmatch(line, -1) {
				problems = append(problems, "nanosecond integer "+m[2]+" beside a time word in: "+strings.TrimSpace(trimmed(line)))
			}
		}
	}
	for _, c := range cells(text) {
		if seedHeader.MatchString(c.header) {
			continue
		}
		for _, m := range bigInteger.FindAllStringSubmatch(c.text, -1) {
			switch {
			case durationHeader.MatchString(c.header):
				problems = append(problems, "nanosecond integer "+m[2]+" in duration column "+c.header)
			case len(m[2]) >= 10:
				problems = append(problems, "bare integer "+m[2]+" in column "+c.header)
			}
		}
	}
	return problems
}

func context(text string, loc []int) string {
	lo, hi := max(loc[0]-60, 0), min(loc[1]+20, len(text))
	return text[loc[0]:loc[1]] + " in …" + text[lo:hi] + "…"
}

func trimmed(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// markdownCells splits every Markdown table into cells under their
// header (the row above a |---| separator).
func markdownCells(text string) []cell {
	var out []cell
	var header []string
	for _, line := range markdownRow.FindAllString(text, -1) {
		fields := splitMarkdownRow(line)
		switch {
		case strings.HasPrefix(line, "|---"):
			continue
		case header == nil || len(fields) != len(header):
			header = fields
			continue
		}
		for i, f := range fields {
			out = append(out, cell{header[i], f})
		}
	}
	return out
}

func splitMarkdownRow(line string) []string {
	parts := strings.Split(strings.Trim(line, "|"), " | ")
	for i, p := range parts {
		parts[i] = markdownEscapes.Replace(strings.TrimSpace(p))
	}
	return parts
}

// htmlCells splits every HTML table row into cells under the last header
// row seen.
func htmlCells(text string) []cell {
	var out []cell
	var header []string
	for _, row := range htmlRow.FindAllStringSubmatch(text, -1) {
		var kinds, texts []string
		for _, c := range htmlCell.FindAllStringSubmatch(row[1], -1) {
			kinds = append(kinds, c[1])
			texts = append(texts, strings.TrimSpace(html.UnescapeString(htmlTag.ReplaceAllString(c[2], ""))))
		}
		if len(kinds) > 0 && kinds[0] == "h" && !strings.Contains(strings.Join(kinds, ""), "d") {
			header = texts
			continue
		}
		for i, t := range texts {
			h := ""
			if i < len(header) {
				h = header[i]
			}
			out = append(out, cell{h, t})
		}
	}
	return out
}

// The scan itself fails on each raw form and passes the readable ones.
func TestReportUnitProblems(t *testing.T) {
	md := "| arm | median workflow time | seed | cost ratio |\n|---|---|---|---|\n" +
		"| A | 135411000000 | 9223372036854775813 | ×1.171 (+17.1%; exactly 7535170000001/6432660000000) |\n" +
		"| B | 2 min 15.4 s | 741 | 0.666666666667 |\n" +
		"latency is 63495000000 per session\n" +
		"reference 1234567890 tokens\n"
	got := reportUnitProblems(md, markdownCells)
	want := []string{"long decimal 0.666666666667", "nanosecond integer 63495000000 beside",
		"nanosecond integer 135411000000 in duration column median workflow time"}
	if len(got) != len(want) {
		t.Fatalf("%d problems, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d = %q, want prefix %q", i, got[i], want[i])
		}
	}
	page := "<table><thead><tr><th>task</th><th>median_latency_ns</th><th>input</th></tr></thead>\n" +
		"<tbody><tr><td>T1</td><td>63495000</td><td>1069225</td></tr>\n<tr><td>T2</td><td>1000000000</td><td>12345678901</td></tr></tbody></table>\n"
	got = reportUnitProblems(page, htmlCells)
	if len(got) != 2 || !strings.Contains(got[0], "1000000000 in duration column median_latency_ns") || !strings.Contains(got[1], "bare integer 12345678901 in column input") {
		t.Errorf("html problems:\n%s", strings.Join(got, "\n"))
	}
}
