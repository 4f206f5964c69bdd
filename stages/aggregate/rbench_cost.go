package aggregate

import (
	"math/big"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// A stratum's ledger (the reviewer-benchmark protocol: "Record known costs and unresolved holds
// separately"): the cost metric is the exact sum of what the ledger
// accounts for the stratum's attempts, which stays known when some
// execution is interrupted, unmetered or unpriced; what the ledger holds
// for them is the cost_held metric beside it, counted in attempts. Only
// a hold without a bound (no reservation) makes cost_held unknown.

// holds totals the ledger holds of a stratum's attempts.
type holds struct {
	attempts int64         // attempts with a charge held
	amount   *tables.Money // nil when a hold has no bound
	started  bool
}

// add adds one attempt row (a missing attempt holds nothing).
func (h *holds) add(r tables.ReviewRow) {
	if !h.started {
		zero := tables.Money(0)
		h.amount, h.started = &zero, true
	}
	if r.Status == tables.ReviewStatusMissing {
		return
	}
	if r.HeldCost == nil || *r.HeldCost != 0 {
		h.attempts++
	}
	if h.amount == nil || r.HeldCost == nil {
		h.amount = nil
		return
	}
	if s, ok := stats.AddInt64(int64(*h.amount), int64(*r.HeldCost)); ok {
		m := tables.Money(s)
		h.amount = &m
	} else {
		h.amount = nil
	}
}

// metric is the stratum's cost_held row.
func (h holds) metric(base tables.ReviewMetric) tables.ReviewMetric {
	m := base
	m.Metric, m.Numerator = tables.MetricCostHeld, h.attempts
	amount := h.amount
	if !h.started {
		zero := tables.Money(0)
		amount = &zero
	}
	if amount != nil {
		m.Exact = textPtr(amount.String())
		m.Value = stats.Float(new(big.Rat).SetFrac64(int64(*amount), 1_000_000_000_000))
	}
	return m
}
