package markdown

import (
	"bytes"
	"fmt"

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

// writeReviewerBenchmark renders the section: one table of rates with
// numerator/denominator per split, profile and model stratum, then the
// sums.
func writeReviewerBenchmark(b *bytes.Buffer, rb *scorecard.ReviewerBenchmark) {
	if rb == nil {
		return
	}
	fmt.Fprintf(b, "## Reviewer benchmark\n\n%d cases, %d scheduled review attempts; every attempt stays in every denominator.\n\n", rb.Cases, rb.Scheduled)
	header := []string{"split", "profile", "model"}
	header = append(header, rateMetrics...)
	header = append(header, tables.MetricInputTokens, tables.MetricOutputTokens, tables.MetricCost, tables.MetricLatency)
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
	for _, k := range keys {
		cells := []string{escapeMarkdown(k.split), escapeMarkdown(k.profile), escapeMarkdown(k.model)}
		for _, name := range rateMetrics {
			m := byKey[k][name]
			cells = append(cells, fmt.Sprintf("%d/%d", m.Numerator, m.Denominator))
		}
		for _, name := range []string{tables.MetricInputTokens, tables.MetricOutputTokens, tables.MetricCost, tables.MetricLatency} {
			exact := "unknown"
			if e := byKey[k][name].Exact; e != nil {
				exact = *e
			}
			cells = append(cells, escapeMarkdown(exact))
		}
		row(b, cells...)
	}
	b.WriteString("\nCost is the exact reference cost; latency is the exact median session duration in nanoseconds (mean of the two middle values).\n\n")
}
