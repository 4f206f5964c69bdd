package scorecard

import (
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// ReviewerBenchmark is the scorecard section of a reviewer benchmark: the
// attempts by status, every metric of the review_metrics table with its
// numerator and denominator as the aggregate stage computed them, the
// ledger's commitment and whether the final split is retired. Absent for
// other kinds.
type ReviewerBenchmark struct {
	Cases        int64          `json:"cases"`
	Scheduled    int64          `json:"scheduled_attempts"` // every case × profile × run: the denominators
	Attempts     []Count        `json:"attempts_by_status"` // completed, abstained, schema_violation, execution_error, missing
	FinalRetired bool           `json:"final_retired"`      // the final split was consumed by tuning: no promotion rests on it
	Metrics      []MetricResult `json:"metrics"`
	Ledger       *LedgerResult  `json:"ledger"` // null when the ledger was not computed
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

// LedgerResult is the ledger's commitment as the budget gate reads it:
// committed = accounted + held + reserved, remaining = cap − committed,
// each an exact decimal in the rate cards' currency, null when unknown
// (never assumed zero).
type LedgerResult struct {
	Basis     string  `json:"basis"` // reference: the rate cards' cost
	Currency  string  `json:"currency"`
	Cap       *string `json:"cap"`
	Accounted *string `json:"accounted"`
	Held      *string `json:"held"`
	Reserved  *string `json:"reserved"`
	Committed *string `json:"committed"`
	Remaining *string `json:"remaining"`
}

func buildReviewerBenchmark(c *tables.Campaign, s *tables.Set, cm *tables.Commitment) *ReviewerBenchmark {
	if c == nil || c.Manifest.Kind != rules.KindReviewerBenchmark {
		return nil
	}
	rb := &ReviewerBenchmark{Cases: int64(len(s.Cases)), Scheduled: int64(len(s.Reviews)), Attempts: []Count{}, Metrics: []MetricResult{},
		FinalRetired: c.Manifest.Benchmark != nil && c.Manifest.Benchmark.FinalRetired}
	for _, st := range []string{tables.ReviewStatusCompleted, tables.ReviewStatusAbstained, tables.ReviewStatusSchemaViolation,
		tables.ReviewStatusExecutionError, tables.ReviewStatusMissing} {
		n := int64(0)
		for _, r := range s.Reviews {
			if r.Status == st {
				n++
			}
		}
		rb.Attempts = append(rb.Attempts, Count{Name: st, Count: n})
	}
	for _, m := range s.ReviewMetrics {
		rb.Metrics = append(rb.Metrics, MetricResult{Split: m.Split, Profile: m.Profile, Model: m.Model, Metric: m.Metric,
			Numerator: m.Numerator, Denominator: m.Denominator, Exact: m.Exact, Value: m.Value})
	}
	if cm != nil {
		rb.Ledger = &LedgerResult{Basis: cm.Basis, Cap: moneyText(cm.Cap), Accounted: moneyText(cm.Accounted), Held: moneyText(cm.Held),
			Reserved: moneyText(cm.Reserved), Committed: moneyText(cm.Committed), Remaining: moneyText(cm.Remaining)}
		if len(c.Manifest.RateCards) > 0 {
			rb.Ledger.Currency = c.Manifest.RateCards[0].Currency
		}
	}
	return rb
}
