package compare

import (
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// DiffReviewMetric is the kind of a reviewer-benchmark metric difference:
// one review_metrics row (split, profile, model stratum) and metric.
const DiffReviewMetric = "review_metric"

// gateReadSense is which way each review metric a reviewer-benchmark gate
// reads moves for the candidate profile (rule G6): the detection and
// blocking gates difference the candidate's detected defects and blocked
// audited clean attempts with the baseline's in the selection and final
// splits, rb_decidability and rb_execution_errors difference its decidable
// attempts and execution errors there, and rb_contract counts the
// candidate's schema and contract violations. Every other metric, split
// and profile (the baseline's own figures, counts, tokens, cost, latency)
// is a change without direction.
var gateReadSense = map[string]sense{
	tables.MetricDetection:          gateSense(rules.GateRbDetectionSelection),
	tables.MetricBlockingOnClean:    opposite(gateSense(rules.GateRbBlockingSelection)), // the baseline's blocked minus the candidate's
	tables.MetricSchemaViolations:   gateSense(rules.GateRbContract),
	tables.MetricContractViolations: gateSense(rules.GateRbContract),
	tables.MetricDecisionCoverage:   gateSense(rules.GateRbDecidability),
	tables.MetricExecutionErrors:    opposite(gateSense(rules.GateRbExecutionErrors)), // the baseline's errors minus the candidate's
}

// gateSplits are the splits the detection, blocking, decidability and
// execution-error gates judge.
var gateSplits = map[string]bool{"selection": true, "final": true}

// reviewMetricSense is the direction of a review metric row's move.
func (d *differ) reviewMetricSense(m *tables.ReviewMetric) sense {
	if !d.roles.candidates[m.Profile] {
		return noSense
	}
	if m.Metric == tables.MetricSchemaViolations || m.Metric == tables.MetricContractViolations {
		return gateReadSense[m.Metric]
	}
	if !gateSplits[m.Split] {
		return noSense
	}
	return gateReadSense[m.Metric]
}

// reviewMetricUnit is a review metric's unit.
func reviewMetricUnit(metric string) string {
	switch metric {
	case tables.MetricScheduled, tables.MetricAttempted:
		return scorecard.UnitCount
	case tables.MetricInputTokens, tables.MetricOutputTokens:
		return scorecard.UnitTokens
	case tables.MetricCost, tables.MetricCostHeld:
		return scorecard.UnitMoney
	case tables.MetricLatency:
		return scorecard.UnitNS
	}
	return scorecard.UnitFraction
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
		d.metric(DiffReviewMetric, rk, row.Metric, reviewMetricUnit(row.Metric), metricExact(o), metricExact(n), d.reviewMetricSense(row))
		d.metric(DiffReviewMetric, rk, row.Metric+".denominator", scorecard.UnitCount, metricDen(o), metricDen(n), noSense)
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

// opposite is the sense of a term subtracted from a gate's observation.
func opposite(s sense) sense {
	switch s {
	case higherIsBetter:
		return lowerIsBetter
	case lowerIsBetter:
		return higherIsBetter
	}
	return noSense
}
