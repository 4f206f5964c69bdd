package markdown

import (
	"bufio"
	"fmt"

	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// writeReviewerBenchmark renders the section: the promotion outcome and,
// one line per failing gate, why; the attempts by status; one table of
// rates with numerator/denominator per split, profile and model stratum
// with the sums; and the ledger's commitment.
func writeReviewerBenchmark(b *bufio.Writer, sc *scorecard.Scorecard) {
	rb := sc.ReviewerBenchmark
	if rb == nil {
		return
	}
	fmt.Fprintf(b, "## Reviewer benchmark\n\n%s\n\n%s\n\n", escapeMarkdown(rb.BenchmarkSummary()), escapeMarkdown(rb.BenchmarkExcluded()))
	for _, line := range rb.BenchmarkPromotion(sc.Decision) {
		fmt.Fprintf(b, "%s\n", escapeMarkdown(line))
	}
	for _, g := range sc.Decision.FailingGateDetails {
		fmt.Fprintf(b, "- %s\n", escapeMarkdown(scorecard.FailingGateLine(g, sc.CostAndTime.Currency)))
	}
	fmt.Fprintf(b, "\n%s\n\n", escapeMarkdown(rb.BenchmarkAttempts()))
	header, rows := rb.BenchmarkMetricTable()
	writeCells(b, header, rows)
	fmt.Fprintf(b, "\n%s\n\n", escapeMarkdown(scorecard.BenchmarkMetricsNote))
	if l := rb.BenchmarkLedger(); l != "" {
		fmt.Fprintf(b, "%s\n\n", escapeMarkdown(l))
	}
	header, rows = rb.BenchmarkLedgerTable()
	if len(rows) > 0 {
		b.WriteString("Ledger by role (every review execution and auxiliary call, under the one cap):\n\n")
		writeCells(b, header, rows)
		b.WriteString("\n")
	}
}

// writeBenchmarkPage writes the body of a reviewer benchmark's report
// after its decision: its own completion counts (attempts, executions,
// the ledger's entries), the gates with each compared difference beside
// its threshold, the benchmark section, the campaign ceilings, the
// findings and the exploratory intervals — none of the paired-review
// sections, which this kind has no rows for.
func writeBenchmarkPage(b *bufio.Writer, sc *scorecard.Scorecard, s *tables.Set) {
	rb := sc.ReviewerBenchmark
	currency := sc.CostAndTime.Currency
	if rb.Ledger != nil && rb.Ledger.Currency != "" {
		currency = rb.Ledger.Currency
	}
	b.WriteString("## Completion\n\nA complete run is not a success: the decision above is the verdict.\n\n")
	for _, line := range rb.BenchmarkCompletion() {
		fmt.Fprintf(b, "- %s\n", escapeMarkdown(line))
	}
	fmt.Fprintf(b, "- Findings: %d (%s)\n\n", sc.Completion.Findings, counts(sc.Completion.FindingsBySeverity))
	b.WriteString("## Gates\n\n")
	if len(sc.Gates) == 0 {
		b.WriteString("No gate was evaluated.\n\n")
	} else {
		header, rows := scorecard.BenchmarkGateTable(sc.Gates, currency)
		writeCells(b, header, rows)
		b.WriteString("\n")
	}
	writeReviewerBenchmark(b, sc)
	writeCeilings(b, sc.Ceilings, currency)
	writeFindings(b, s.Rejections)
	writeBenchmarkIntervals(b, sc.Intervals)
}

// writeBenchmarkIntervals writes a reviewer benchmark's exploratory
// intervals: one row per rate and scope, the interval or why none.
func writeBenchmarkIntervals(b *bufio.Writer, iv scorecard.Intervals) {
	b.WriteString("## Exploratory intervals (do not gate)\n\n")
	fmt.Fprintf(b, "Label: %s. Gate effect: %s. These intervals never change a gate or the decision.\n\n", iv.Label, iv.GateEffect)
	if len(iv.Rows) == 0 {
		b.WriteString("No interval was computed.\n")
		return
	}
	b.WriteString(escapeMarkdown(scorecard.BenchmarkIntervalIntro()) + "\n\n")
	header, rows := scorecard.BenchmarkIntervalTable(iv.Rows)
	writeCells(b, header, rows)
}

// writeCells writes a table of plain cells, each escaped.
func writeCells(b *bufio.Writer, header []string, rows [][]string) {
	table(b, header)
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = escapeMarkdown(c)
		}
		row(b, cells...)
	}
}
