package scorecard

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/tables"
)

// The reviewer-benchmark section's text, shared by report.md and
// report.html (each escapes it its own way).

// benchmarkRates are the metrics shown as numerator/denominator, in order.
var benchmarkRates = []string{
	tables.MetricDetection, tables.MetricBlockingOnClean, tables.MetricBlockingProvisional, tables.MetricDecisionCoverage,
	tables.MetricCompleted, tables.MetricPrecision, tables.MetricUnadjudicated,
	tables.MetricAbstentions, tables.MetricExecutionErrors, tables.MetricSchemaViolations,
}

// BenchmarkMetricsNote says how to read the metrics table.
const BenchmarkMetricsNote = "Each cell is numerator/denominator; a rate with denominator 0 is undefined, not zero. " +
	"Detection counts only a grounded blocking finding at the planted category and overlapping lines (a wrong location is a miss); " +
	"blocking counts audited clean attempts, provisional clean labels apart; precision is upheld over adjudicated findings, " +
	"the unadjudicated and disputed ones counted apart. Cost is the exact reference cost (unknown when any is); " +
	"latency is the median session duration (of an even count, the mean of the two middle values)."

// BenchmarkMetricTable is the metrics table: one row per split, profile
// and model stratum, rates as numerator/denominator, then tokens, cost
// with its currency and the median latency as a duration.
func (rb *ReviewerBenchmark) BenchmarkMetricTable() (header []string, rows [][]string) {
	header = append([]string{"split", "profile", "model"}, benchmarkRates...)
	header = append(header, tables.MetricInputTokens, tables.MetricOutputTokens, tables.MetricCost, "median_latency")
	type key struct{ split, profile, model string }
	var keys []key
	byKey := map[key]map[string]MetricResult{}
	for _, m := range rb.Metrics {
		k := key{m.Split, m.Profile, m.Model}
		if byKey[k] == nil {
			keys = append(keys, k)
			byKey[k] = map[string]MetricResult{}
		}
		byKey[k][m.Metric] = m
	}
	currency := ""
	if rb.Ledger != nil {
		currency = rb.Ledger.Currency
	}
	for _, k := range keys {
		cells := []string{k.split, k.profile, k.model}
		for _, name := range benchmarkRates {
			m := byKey[k][name]
			cells = append(cells, fmt.Sprintf("%d/%d", m.Numerator, m.Denominator))
		}
		for _, name := range []string{tables.MetricInputTokens, tables.MetricOutputTokens, tables.MetricCost, tables.MetricLatency} {
			v := "unknown"
			if e := byKey[k][name].Exact; e != nil {
				v = *e
				switch {
				case name == tables.MetricCost && currency != "":
					v = currency + " " + v
				case name == tables.MetricLatency:
					v = Duration(e)
				}
			}
			cells = append(cells, v)
		}
		rows = append(rows, cells)
	}
	return header, rows
}

// BenchmarkSummary is the section's first line.
func (rb *ReviewerBenchmark) BenchmarkSummary() string {
	return fmt.Sprintf("%d cases, %d scheduled review attempts; every attempt stays in every denominator.", rb.Cases, rb.Scheduled)
}

// BenchmarkAttempts lists the attempts by status.
func (rb *ReviewerBenchmark) BenchmarkAttempts() string {
	parts := make([]string, len(rb.Attempts))
	for i, c := range rb.Attempts {
		parts[i] = fmt.Sprintf("%s %d", c.Name, c.Count)
	}
	return "Attempts by status: " + strings.Join(parts, ", ") + "."
}

// BenchmarkPromotion is the promotion outcome and why, and a note when the
// final split is retired.
func (rb *ReviewerBenchmark) BenchmarkPromotion(d DecisionResult) []string {
	arm := d.Arm
	if arm == "" {
		arm = "the candidate"
	}
	out := []string{fmt.Sprintf("Promotion of %s: %s: %s.", arm, d.Decision, strings.TrimSuffix(d.Reason, "."))}
	if rb.FinalRetired {
		out = append(out, "The final split is retired (consumed by tuning): it is reported but cannot support a promotion.")
	}
	return out
}

// BenchmarkLedger is the ledger's commitment, exact, with its currency;
// "" when the ledger was not computed.
func (rb *ReviewerBenchmark) BenchmarkLedger() string {
	l := rb.Ledger
	if l == nil {
		return ""
	}
	amount := func(s *string) string {
		switch {
		case s == nil:
			return "unknown"
		case l.Currency == "":
			return *s
		}
		return l.Currency + " " + *s
	}
	return fmt.Sprintf("Ledger (%s cost): accounted %s + held %s + reserved %s = committed %s against the cap %s; remaining %s. "+
		"Held charges (uncertain provider charges, interrupted requests, remote billing awaiting reconciliation) are never assumed free.",
		l.Basis, amount(l.Accounted), amount(l.Held), amount(l.Reserved), amount(l.Committed), amount(l.Cap), amount(l.Remaining))
}
