package scorecard

import "github.com/evalgate/evalgate/tables"

// ReviewerBenchmark is the scorecard section of a reviewer benchmark: the
// attempts and every metric of the review_metrics table, each with its
// numerator and denominator as the aggregate stage computed them. Absent
// for other kinds.
type ReviewerBenchmark struct {
	Cases     int64          `json:"cases"`
	Scheduled int64          `json:"scheduled_attempts"` // every case × profile × run: the denominators
	Metrics   []MetricResult `json:"metrics"`
}

// MetricResult is one row of the review_metrics table.
type MetricResult struct {
	Split       string   `json:"split"`
	Profile     string   `json:"profile"`
	Model       string   `json:"model"`
	Metric      string   `json:"metric"`
	Numerator   int64    `json:"numerator"`
	Denominator int64    `json:"denominator"`
	Exact       *string  `json:"exact"` // null when undefined or unknown
	Value       *float64 `json:"value"`
}

func buildReviewerBenchmark(c *tables.Campaign, s *tables.Set) *ReviewerBenchmark {
	if c == nil || c.Manifest.Kind != tables.KindReviewerBenchmark {
		return nil
	}
	rb := &ReviewerBenchmark{Cases: int64(len(s.Cases)), Scheduled: int64(len(s.Reviews)), Metrics: []MetricResult{}}
	for _, m := range s.ReviewMetrics {
		rb.Metrics = append(rb.Metrics, MetricResult{Split: m.Split, Profile: m.Profile, Model: m.Model, Metric: m.Metric,
			Numerator: m.Numerator, Denominator: m.Denominator, Exact: m.Exact, Value: m.Value})
	}
	return rb
}
