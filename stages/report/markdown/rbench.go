package markdown

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// rateMetrics are the metrics the report shows as counts over their
// denominators, in this order.
var rateMetrics = []string{
	tables.MetricDetection, tables.MetricBlockingOnClean, tables.MetricBlockingProvisional, tables.MetricDecisionCoverage,
	tables.MetricCompleted, tables.MetricPrecision, tables.MetricUnadjudicated,
	tables.MetricAbstentions, tables.MetricExecutionErrors, tables.MetricSchemaViolations,
}

// sumMetrics are the metrics shown as exact values.
var sumMetrics = []string{tables.MetricInputTokens, tables.MetricOutputTokens, tables.MetricCost, tables.MetricLatency}

// writeReviewerBenchmark renders the section: the promotion outcome and
// why, the attempts by status, one table of rates with
// numerator/denominator per split, profile and model stratum with the
// sums, and the ledger.
func writeReviewerBenchmark(b *bytes.Buffer, sc *scorecard.Scorecard) {
	rb := sc.ReviewerBenchmark
	if rb == nil {
		return
	}
	fmt.Fprintf(b, "## Reviewer benchmark\n\n%d cases, %d scheduled review attempts; every attempt stays in every denominator.\n\n", rb.Cases, rb.Scheduled)
	writePromotion(b, sc)
	parts := make([]string, len(rb.Attempts))
	for i, c := range rb.Attempts {
		parts[i] = fmt.Sprintf("%s %d", escapeMarkdown(c.Name), c.Count)
	}
	fmt.Fprintf(b, "Attempts by status: %s.\n\n", strings.Join(parts, ", "))
	header := []string{"split", "profile", "model"}
	header = append(header, rateMetrics...)
	header = append(header, tables.MetricInputTokens, tables.MetricOutputTokens, tables.MetricCost, "median_latency")
	table(b, header)
	type key struct{ split, profile, model string }
	var keys []key
	byKey := map[key]map[string]scorecard.MetricResult{}
	for _, m := range rb.Metrics {
		k := key{m.Split, m.Profile, m.Model}
		if byKey[k] == nil {
			keys = append(keys, k)
			byKey[k] = map[string]scorecard.MetricResult{}
		}
		byKey[k][m.Metric] = m
	}
	currency := ""
	if rb.Ledger != nil {
		currency = rb.Ledger.Currency
	}
	for _, k := range keys {
		cells := []string{escapeMarkdown(k.split), escapeMarkdown(k.profile), escapeMarkdown(k.model)}
		for _, name := range rateMetrics {
			m := byKey[k][name]
			cells = append(cells, fmt.Sprintf("%d/%d", m.Numerator, m.Denominator))
		}
		for _, name := range sumMetrics {
			v := byKey[k][name].Exact
			switch {
			case v == "null":
			case name == tables.MetricCost && currency != "":
				v = currency + " " + v
			case name == tables.MetricLatency:
				v = scorecard.Duration(&v)
			}
			cells = append(cells, escapeMarkdown(v))
		}
		row(b, cells...)
	}
	b.WriteString("\nEach cell is numerator/denominator; a rate with denominator 0 is undefined, not zero. Detection counts only a grounded blocking finding at the planted category and overlapping lines (a wrong location is a miss); blocking counts audited clean attempts, provisional clean labels apart; precision is upheld over adjudicated findings, the unadjudicated and disputed ones counted apart. Cost is the exact reference cost (null when any is unknown); latency is the median session duration (of an even count, the mean of the two middle values).\n\n")
	writeLedger(b, rb.Ledger)
}

// writePromotion states the outcome and, one line per failing gate, why.
func writePromotion(b *bytes.Buffer, sc *scorecard.Scorecard) {
	d := sc.Decision
	fmt.Fprintf(b, "Promotion of %s: **%s**: %s.\n", escapeMarkdown(cmp.Or(d.Arm, "the candidate")), escapeMarkdown(string(d.Decision)), escapeMarkdown(d.Reason))
	if sc.ReviewerBenchmark.FinalRetired {
		b.WriteString("The final split is retired (consumed by tuning): it is reported but cannot support a promotion.\n")
	}
	for _, g := range d.FailingGateDetails {
		fmt.Fprintf(b, "- %s\n", escapeMarkdown(scorecard.FailingGateLine(g, sc.CostAndTime.Currency)))
	}
	b.WriteString("\n")
}

// writeLedger prints the ledger's commitment exactly.
func writeLedger(b *bytes.Buffer, l *scorecard.LedgerResult) {
	if l == nil {
		return
	}
	amount := func(s *string) string {
		if s == nil {
			return "unknown"
		}
		if l.Currency == "" {
			return *s
		}
		return l.Currency + " " + *s
	}
	fmt.Fprintf(b, "Ledger (%s cost): accounted %s + held %s + reserved %s = committed %s against the cap %s; remaining %s. Held charges (uncertain provider charges, interrupted requests, remote billing awaiting reconciliation) are never assumed free.\n\n",
		escapeMarkdown(l.Basis), escapeMarkdown(amount(l.Accounted)), escapeMarkdown(amount(l.Held)), escapeMarkdown(amount(l.Reserved)),
		escapeMarkdown(amount(l.Committed)), escapeMarkdown(amount(l.Cap)), escapeMarkdown(amount(l.Remaining)))
}
