package compare

import (
	"github.com/evalgate/evalgate/tables"
)

// DiffReviewMetric is the kind of a reviewer-benchmark metric difference:
// one review_metrics row (split, profile, model stratum) and metric.
const DiffReviewMetric = "review_metric"

// reviewMetricSense is which way each reviewer-benchmark metric reads:
// more detected defects, decidable and completed reviews and upheld
// findings are better; blocking audited clean cases, abstentions, errors,
// schema violations, unadjudicated findings, tokens, cost and latency are
// worse. Scheduled attempts and blocking on provisional clean cases (not
// yet a false-positive rate) have no direction.
var reviewMetricSense = map[string]sense{
	tables.MetricScheduled:           noSense,
	tables.MetricCompleted:           higherIsBetter,
	tables.MetricDecisionCoverage:    higherIsBetter,
	tables.MetricDetection:           higherIsBetter,
	tables.MetricBlockingOnClean:     lowerIsBetter,
	tables.MetricBlockingProvisional: noSense,
	tables.MetricPrecision:           higherIsBetter,
	tables.MetricUnadjudicated:       lowerIsBetter,
	tables.MetricAbstentions:         lowerIsBetter,
	tables.MetricExecutionErrors:     lowerIsBetter,
	tables.MetricSchemaViolations:    lowerIsBetter,
	tables.MetricInputTokens:         lowerIsBetter,
	tables.MetricOutputTokens:        lowerIsBetter,
	tables.MetricCost:                lowerIsBetter,
	tables.MetricLatency:             lowerIsBetter,
}

// reviewMetrics diffs the review_metrics rows keyed by split, profile and
// model stratum: the metric's exact value (a fraction num/den, a sum, a
// money amount or a median) with its direction, and for a rate its
// denominator (eligible attempts or findings; a change there has no
// direction but is never hidden by an equal value).
func (d *differ) reviewMetrics(old, nw []tables.ReviewMetric) {
	key := func(m tables.ReviewMetric) string { return m.Split + " " + m.Profile + " " + m.Model + " " + m.Metric }
	om, nm := indexBy(old, key), indexBy(nw, key)
	for _, k := range unionKeys(old, nw, key) {
		o, n := om[k], nm[k]
		row := o
		if row == nil {
			row = n
		}
		rk := row.Split + " " + row.Profile + " " + row.Model
		d.metric(DiffReviewMetric, rk, row.Metric, metricExact(o), metricExact(n), reviewMetricSense[row.Metric])
		d.metric(DiffReviewMetric, rk, row.Metric+".denominator", metricDen(o), metricDen(n), noSense)
	}
}

// metricExact is a row's exact value; nil when the row is absent or the
// value undefined or unknown.
func metricExact(m *tables.ReviewMetric) *string {
	if m == nil || m.Exact == nil {
		return nil
	}
	s := *m.Exact
	return &s
}

func metricDen(m *tables.ReviewMetric) *string {
	if m == nil {
		return nil
	}
	return amountText(&m.Denominator, nil)
}
