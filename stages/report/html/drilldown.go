package html

import (
	"fmt"
	"html/template"
	"iter"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// The per-task drill-down of report.html: one <details> element per task
// (no script, no server), in the order of the runs table, listing each of
// the task's runs with its classification, R, U, cost, time and the
// findings of its sessions.

// taskDetail is one task's <details> element.
type taskDetail struct {
	Task    string
	Summary string
	Runs    htmlTable
}

// HTML is the task's <details> element, written here rather than by
// template actions per task (reflection over three fields and a method):
// what html/template writes for
//
//	<details>
//	<summary><strong>{{.Task}}</strong>{{.Summary}}</summary>
//	{{.Runs.HTML}}</details>
//
// and a newline, Task and Summary through htmlEscaper
// (TestDetailHTMLIsTemplate).
func (d taskDetail) HTML() template.HTML {
	var b strings.Builder
	b.Grow(len("<details>\n<summary><strong></strong></summary>\n</details>\n") + len(d.Task) + len(d.Summary) + d.Runs.size())
	b.WriteString("<details>\n<summary><strong>")
	htmlEscaper.WriteString(&b, d.Task)
	b.WriteString("</strong>")
	htmlEscaper.WriteString(&b, d.Summary)
	b.WriteString("</summary>\n")
	d.Runs.write(&b)
	b.WriteString("</details>\n")
	return template.HTML(b.String()) //nolint:gosec // every string went through htmlEscaper or is htmlTable's markup
}

// detailsHTML is each detail's markup, as details yields them.
func detailsHTML(details iter.Seq[taskDetail]) iter.Seq[template.HTML] {
	return func(yield func(template.HTML) bool) {
		for d := range details {
			if !yield(d.HTML()) {
				return
			}
		}
	}
}

// taskDetails yields each task's drill-down, tasks in order of first
// appearance in runs, each run with the findings of its draft, review and
// setup sessions. A task's cells are built when it is yielded, so the
// page holds one task's runs and table at a time, not a cell of every run.
// The score stage's runs are sorted by task, so each task's runs follow
// each other and one pass over the spool yields them; runs in another
// order (a table set built by hand) take one pass per task.
func taskDetails(runs *spool.Spool[tables.Run], findings []rules.Finding, currency string) iter.Seq[taskDetail] {
	return func(yield func(taskDetail) bool) {
		bySession := map[string][]string{}
		sorted := append(rules.Findings(nil), findings...)
		sorted.Sort()
		perSession := map[string][]rules.Finding{}
		for _, f := range sorted {
			if f.Session != "" {
				perSession[f.Session] = append(perSession[f.Session], f)
			}
		}
		// A session's repeated identical findings are one line with their
		// count and first positions, as everywhere findings are printed.
		for s, fs := range perSession {
			for _, g := range rules.Collapse(fs) {
				bySession[s] = append(bySession[s], plainText(string(g.First.Severity))+": "+plainText(g.Error()))
			}
		}
		tasks, grouped := taskOrder(runs)
		if !grouped {
			for _, task := range tasks {
				var g []tables.Run
				for r := range runs.All() {
					if r.TaskID == task {
						g = append(g, r)
					}
				}
				if !yield(detailOf(g, bySession, currency)) {
					return
				}
			}
			return
		}
		var g []tables.Run // the current task's runs
		for r := range runs.All() {
			if len(g) > 0 && r.TaskID != g[0].TaskID {
				if !yield(detailOf(g, bySession, currency)) {
					return
				}
				clear(g)
				g = g[:0]
			}
			g = append(g, r)
		}
		if len(g) > 0 {
			yield(detailOf(g, bySession, currency))
		}
	}
}

// taskOrder lists the tasks of runs in order of first appearance and
// reports whether each task's runs follow each other.
func taskOrder(runs *spool.Spool[tables.Run]) (tasks []string, grouped bool) {
	seen := map[string]bool{}
	grouped = true
	for r := range runs.All() {
		if n := len(tasks); n > 0 && tasks[n-1] == r.TaskID {
			continue
		}
		if seen[r.TaskID] {
			grouped = false
			continue
		}
		seen[r.TaskID] = true
		tasks = append(tasks, r.TaskID)
	}
	return tasks, grouped
}

// detailOf is the drill-down of runs, all of one task.
func detailOf(runs []tables.Run, bySession map[string][]string, currency string) taskDetail {
	d := taskDetail{Task: plainText(runs[0].TaskID), Runs: htmlTable{
		Header: []string{"rep", "arm", "classification", "scored", "R", "U", "critical failures",
			"source gate", "protocol gate", "workflow cost", "workflow time", "findings of its sessions"},
		Rows: make([][]htmlCell, 0, len(runs)),
	}}
	for i := range runs {
		r := &runs[i]
		var notes []string
		for _, s := range []string{r.DraftSessionID, r.ReviewSessionID, r.SetupSessionID} {
			if s != "" {
				notes = append(notes, bySession[s]...)
			}
		}
		row := appendCells(make([]htmlCell, 0, len(d.Runs.Header)), scorecard.Int(r.Repetition), r.Arm, string(r.Classification), scorecard.YesNo(r.Scored),
			scorecard.Fraction(r.R != nil, r.RNum, r.RDen), scorecard.Fraction(r.U != nil, r.UNum, r.UDen),
			scorecard.Int(r.CriticalFailures), scorecard.YesNo(r.SourceGate), scorecard.YesNo(r.ProtocolGate),
			scorecard.MoneyAmount(currency, r.WorkflowCost), scorecard.DurationNS(r.WorkflowNS))
		row = append(row, htmlCell{Text: joinLines(notes)})
		d.Runs.Rows = append(d.Runs.Rows, row)
	}
	d.Summary = detailSummary(d.Runs)
	return d
}

// detailSummary counts a task's runs by classification (column 2).
func detailSummary(t htmlTable) string {
	var classes []string
	counts := map[string]int{}
	for _, row := range t.Rows {
		c := row[2].Text
		if counts[c] == 0 {
			classes = append(classes, c)
		}
		counts[c]++
	}
	parts := make([]string, len(classes))
	for i, c := range classes {
		parts[i] = fmt.Sprintf("%s %d", c, counts[c])
	}
	return fmt.Sprintf("%d runs: %s", len(t.Rows), strings.Join(parts, ", "))
}

// joinLines joins findings with "; ", or "none".
func joinLines(lines []string) string {
	if len(lines) == 0 {
		return "none"
	}
	return strings.Join(lines, "; ")
}
