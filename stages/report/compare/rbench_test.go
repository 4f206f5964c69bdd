package compare

import (
	"fmt"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// rate is a review_metrics rate row num/den.
func rate(split, profile, metric string, num, den int64) tables.ReviewMetric {
	v, exact := float64(num)/float64(den), fmt.Sprintf("%d/%d", num, den)
	return tables.ReviewMetric{Split: split, Profile: profile, Model: "m", Metric: metric, Numerator: num, Denominator: den,
		Exact: &exact, Value: &v}
}

// TestCompareReviewMetrics: two reviewer-benchmark outputs differ in
// review_metrics rows keyed by split, profile and model stratum. Only the
// metrics a gate reads for the candidate have a direction: more
// detections in a judged split are better, more blocked clean attempts
// worse; the candidate's precision (no gate reads it) and the baseline's
// figures are changes, and so is a denominator that changes, even when
// the value is the same number.
func TestCompareReviewMetrics(t *testing.T) {
	old := writeOutput(t, func(_ *tables.Campaign, s *tables.Set) {
		s.Decision[0].Arm = "candidate"
		s.ReviewMetrics = []tables.ReviewMetric{
			rate("selection", "candidate", tables.MetricDetection, 16, 20),
			rate("selection", "candidate", tables.MetricBlockingOnClean, 1, 10),
			rate("final", "baseline", tables.MetricDecisionCoverage, 18, 20),
			rate("all", "candidate", tables.MetricPrecision, 5, 6),
			rate("selection", "baseline", tables.MetricDetection, 10, 20),
		}
	})
	nw := writeOutput(t, func(_ *tables.Campaign, s *tables.Set) {
		s.Decision[0].Arm = "candidate"
		s.ReviewMetrics = []tables.ReviewMetric{
			rate("selection", "candidate", tables.MetricDetection, 18, 20),
			rate("selection", "candidate", tables.MetricBlockingOnClean, 2, 10),
			rate("final", "baseline", tables.MetricDecisionCoverage, 36, 40),
			rate("all", "candidate", tables.MetricPrecision, 4, 6),
			rate("selection", "baseline", tables.MetricDetection, 8, 20),
		}
	})
	c := compare(t, old, nw, "0")
	for _, w := range []struct {
		key, field, old, new, delta string
		dir                         Direction
	}{
		{"selection candidate m", "detection", "16/20", "18/20", "0.1", Better},
		{"selection candidate m", "blocking_on_clean", "1/10", "2/10", "0.1", Worse},
		{"all candidate m", "finding_precision", "5/6", "4/6", "-1/6", Changed},
		{"selection baseline m", "detection", "10/20", "8/20", "-0.1", Changed},
		{"final baseline m", "decision_coverage.denominator", "20", "40", "20", Changed},
	} {
		d := find(c, DiffReviewMetric, w.key, w.field)
		if d == nil {
			t.Errorf("no %s %s difference in %+v", w.key, w.field, c.Differences)
			continue
		}
		if str(d.Old) != w.old || str(d.New) != w.new || str(d.Delta) != w.delta || d.Direction != w.dir || !d.Beyond {
			t.Errorf("%s %s: %s → %s Δ %s %s, want %s → %s Δ %s %s", w.key, w.field, str(d.Old), str(d.New), str(d.Delta), d.Direction,
				w.old, w.new, w.delta, w.dir)
		}
	}
	if d := find(c, DiffReviewMetric, "final baseline m", "decision_coverage"); d != nil {
		t.Errorf("18/20 and 36/40 are the same number, got %+v", d)
	}
	back := compare(t, nw, old, "0")
	if d := find(back, DiffReviewMetric, "selection candidate m", "detection"); d == nil || d.Direction != Worse {
		t.Errorf("detection 18/20 → 16/20: %+v, want worse", d)
	}
}

// TestReviewMetricSenses: a metric a gate reads moves by that gate's
// comparison (the candidate's detection is added to the detection gates'
// observation, its blocking subtracted from the blocking gates').
func TestReviewMetricSenses(t *testing.T) {
	for m, want := range map[string]sense{
		tables.MetricDetection:        higherIsBetter,
		tables.MetricBlockingOnClean:  lowerIsBetter,
		tables.MetricSchemaViolations: lowerIsBetter,
	} {
		if got := gateReadSense[m]; got != want {
			t.Errorf("%s: sense %d, want %d", m, got, want)
		}
	}
}
