package markdown

import (
	"bufio"
	"fmt"

	"github.com/evalgate/evalgate/stages/report/scorecard"
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
	fmt.Fprintf(b, "## Reviewer benchmark\n\n%s\n\n", escapeMarkdown(rb.BenchmarkSummary()))
	for _, line := range rb.BenchmarkPromotion(sc.Decision) {
		fmt.Fprintf(b, "%s\n", escapeMarkdown(line))
	}
	for _, g := range sc.Decision.FailingGateDetails {
		fmt.Fprintf(b, "- %s\n", escapeMarkdown(scorecard.FailingGateLine(g, sc.CostAndTime.Currency)))
	}
	fmt.Fprintf(b, "\n%s\n\n", escapeMarkdown(rb.BenchmarkAttempts()))
	header, rows := rb.BenchmarkMetricTable()
	table(b, header)
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = escapeMarkdown(c)
		}
		row(b, cells...)
	}
	fmt.Fprintf(b, "\n%s\n\n", escapeMarkdown(scorecard.BenchmarkMetricsNote))
	if l := rb.BenchmarkLedger(); l != "" {
		fmt.Fprintf(b, "%s\n\n", escapeMarkdown(l))
	}
}
