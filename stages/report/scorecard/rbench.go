package scorecard

import (
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
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
	Attempts     []Count        `json:"attempts_by_status"` // completed, abstained, contract_violation, schema_violation, execution_error, missing
	FinalRetired bool           `json:"final_retired"`      // the final split was consumed by tuning: no promotion rests on it
	Metrics      []MetricResult `json:"metrics"`
	Ledger       *LedgerResult  `json:"ledger"` // null when the ledger was not computed
	// Executions are the receipts that executed a scheduled attempt (the
	// scored one and every replaced one); Replaced those replaced within
	// the infrastructure-replacement allowance.
	Executions int64 `json:"executions"`
	Replaced   int64 `json:"replaced_executions"`
	// Calls are the ledger's entries by role: every review execution and
	// auxiliary call (adjudication, second opinion, planning, probe,
	// remote execution) the campaign charged, in role order.
	Calls []LedgerRole `json:"ledger_by_role"`
	// Excluded is cases.json's register of excluded cases: proposed cases
	// left out of the scored corpus, each with its reason.
	Excluded []ExcludedResult `json:"excluded"`
}

// ExcludedResult is one entry of the register of excluded cases.
type ExcludedResult struct {
	ID     string `json:"id"`
	Family string `json:"family"`
	Reason string `json:"reason"`
}

// LedgerRole is the ledger's entries of one receipt role: how many, what
// is accounted and what is held (exact decimals in the rate cards'
// currency; null when some charge is unknown).
type LedgerRole struct {
	Role      string  `json:"role"`
	Entries   int64   `json:"entries"`   // accounted or held entries; replayed and released ones charge nothing
	Accounted *string `json:"accounted"` // the known charges
	Held      *string `json:"held"`      // beside them: interrupted, unmetered, unpriced or unreconciled charges at their worst case
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
	for _, st := range tables.ReviewStatuses {
		n := int64(0)
		for _, r := range s.Reviews {
			if r.Status == st {
				n++
			}
		}
		rb.Attempts = append(rb.Attempts, Count{Name: st, Count: n})
	}
	for _, r := range s.Reviews {
		rb.Executions += r.Executions
		if r.Executions > 1 {
			rb.Replaced += r.Executions - 1
		}
	}
	rb.Calls = ledgerByRole(s.Ledger)
	rb.Excluded = []ExcludedResult{}
	if c.Benchmark != nil {
		for _, e := range c.Benchmark.Excluded {
			rb.Excluded = append(rb.Excluded, ExcludedResult{ID: e.ID, Family: e.Family, Reason: e.Reason})
		}
	}
	for _, m := range s.ReviewMetrics {
		rb.Metrics = append(rb.Metrics, MetricResult{Split: m.Split, Profile: m.Profile, Model: m.Model, Metric: m.Metric,
			Numerator: m.Numerator, Denominator: m.Denominator, Exact: m.Exact, Value: m.Value})
	}
	if cm != nil {
		rb.Ledger = &LedgerResult{Basis: cm.Basis, Cap: microText(cm.Cap), Accounted: microText(cm.Accounted), Held: microText(cm.Held),
			Reserved: microText(cm.Reserved), Committed: microText(cm.Committed), Remaining: microText(cm.Remaining)}
		if len(c.Manifest.RateCards) > 0 {
			rb.Ledger.Currency = c.Manifest.RateCards[0].Currency
		}
	}
	return rb
}

// ledgerRoles is the order of the ledger's roles: the reviews first, then
// the auxiliary calls; a role of no list comes last, by name.
var ledgerRoles = append([]string{tables.RoleReview}, tables.AuxiliaryRoles...)

// ledgerByRole totals the ledger's accounted and held entries by role.
func ledgerByRole(ledger *spool.Spool[tables.LedgerEntry]) []LedgerRole {
	out := []LedgerRole{}
	if ledger == nil {
		return out
	}
	type sums struct {
		n               int64
		accounted, held *tables.Money
	}
	by := map[string]*sums{}
	var extra []string
	add := func(total, m *tables.Money) *tables.Money {
		if total == nil || m == nil {
			return nil
		}
		v := *total + *m
		if (v < *total) != (*m < 0) { // overflow: unknown, never wrapped
			return nil
		}
		return &v
	}
	for e := range ledger.All() {
		if e.Kind != tables.LedgerAccounted && e.Kind != tables.LedgerHeld {
			continue
		}
		s := by[e.Role]
		if s == nil {
			zero := tables.Money(0)
			s = &sums{accounted: &zero, held: &zero}
			by[e.Role] = s
			if !slices.Contains(ledgerRoles, e.Role) {
				extra = append(extra, e.Role)
			}
		}
		s.n++
		amount := add(e.ReferenceCost, e.ToolCharges) // as the commitment sums them (account.Summarize)
		if e.Kind == tables.LedgerAccounted {
			s.accounted = add(s.accounted, amount)
		} else {
			s.held = add(s.held, amount)
		}
	}
	slices.Sort(extra)
	for _, role := range append(slices.Clone(ledgerRoles), extra...) {
		if s := by[role]; s != nil {
			out = append(out, LedgerRole{Role: role, Entries: s.n, Accounted: microText(s.accounted), Held: microText(s.held)})
		}
	}
	return out
}

// microText is a ledger amount as the campaign ledger writes it: whole
// cents with two decimals (27.10, 150.00), other whole micro-units with
// six (0.246680); an amount finer than a micro-unit exactly as it is.
// nil stays nil (unknown).
func microText(m *tables.Money) *string {
	if m == nil {
		return nil
	}
	const cent, micro = tables.Money(10_000_000_000), tables.Money(1_000_000)
	s := m.String()
	if *m%cent != 0 && *m%micro == 0 {
		whole, frac, _ := strings.Cut(s, ".")
		s = whole + "." + (frac + "000000")[:6]
	}
	return &s
}
