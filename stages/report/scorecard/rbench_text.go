package scorecard

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The reviewer-benchmark section's text, shared by report.md and
// report.html (each escapes it its own way).

// benchmarkRates are the metrics shown as numerator/denominator, in order.
var benchmarkRates = []string{
	tables.MetricDetection, tables.MetricDetectionProvisional, tables.MetricBlockingOnClean, tables.MetricBlockingProvisional,
	tables.MetricDecisionCoverage, tables.MetricAttempted, tables.MetricCompleted, tables.MetricAdjudicatedReviews,
	tables.MetricPrecision, tables.MetricUnadjudicated, tables.MetricDisputed,
	tables.MetricAbstentions, tables.MetricExecutionErrors, tables.MetricSchemaViolations, tables.MetricContractViolations,
}

// BenchmarkMetricsNote says how to read the metrics table.
const BenchmarkMetricsNote = "Each cell is numerator/denominator; a rate with denominator 0 is undefined, not zero. " +
	"Detection counts only a grounded blocking finding at the planted category and overlapping lines (a wrong location is a miss); " +
	"blocking counts audited clean attempts, provisional clean labels apart; precision is upheld over adjudicated findings, " +
	"the unadjudicated and disputed ones counted apart. Cost is what the ledger accounts for the attempts' executions (replaced ones included), " +
	"each charge rounded up to the micro-unit; cost_held is what it holds beside that (interrupted, unmetered or unpriced calls at their reservation): known costs and holds apart; " +
	"latency is the median session duration (of an even count, the mean of the two middle values)."

// BenchmarkMetricTable is the metrics table: one row per split, profile
// and model stratum, rates as numerator/denominator, then tokens, cost
// with its currency and the median latency as a duration.
func (rb *ReviewerBenchmark) BenchmarkMetricTable() (header []string, rows [][]string) {
	header = append([]string{"split", "profile", "model"}, benchmarkRates...)
	header = append(header, tables.MetricInputTokens, tables.MetricOutputTokens, tables.MetricCost, tables.MetricCostHeld, "median_latency")
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
		if byKey[k][tables.MetricScheduled].Numerator == 0 {
			continue // a stratum with no scheduled attempt: BenchmarkSummary names it
		}
		cells := []string{k.split, k.profile, k.model}
		for _, name := range benchmarkRates {
			m := byKey[k][name]
			cells = append(cells, fmt.Sprintf("%d/%d", m.Numerator, m.Denominator))
		}
		for _, name := range []string{tables.MetricInputTokens, tables.MetricOutputTokens, tables.MetricCost, tables.MetricCostHeld, tables.MetricLatency} {
			v := "unknown"
			if e := byKey[k][name].Exact; e != nil {
				v = *e
				switch {
				case name == tables.MetricCost || name == tables.MetricCostHeld:
					if m, err := tables.ParseMoney(v); err == nil {
						v = *microText(&m)
					}
					v = withCurrency(currency, v)
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

// BenchmarkSummary is the section's first line, and the splits with no
// scheduled attempt, whose rows the metrics table leaves out.
func (rb *ReviewerBenchmark) BenchmarkSummary() string {
	line := fmt.Sprintf("%d cases, %d scheduled review attempts; every attempt stays in every denominator.", rb.Cases, rb.Scheduled)
	var empty []string
	for _, split := range tables.BenchmarkSplits {
		n := int64(0)
		for _, m := range rb.Metrics {
			if m.Split == split && m.Metric == tables.MetricScheduled {
				n += m.Numerator
			}
		}
		if n == 0 {
			empty = append(empty, split)
		}
	}
	if len(empty) > 0 {
		line += fmt.Sprintf(" No attempt is scheduled in the %s split(s): every rate there is undefined, not zero, and the metrics table has no row for them.", strings.Join(empty, " and "))
	}
	return line
}

// BenchmarkExcluded is the register of excluded cases as one line: how
// many proposed cases the label audit left out of the scored corpus, and
// each with its reason.
func (rb *ReviewerBenchmark) BenchmarkExcluded() string {
	if len(rb.Excluded) == 0 {
		return "Excluded from the scored corpus: none (the register of excluded cases is empty)."
	}
	parts := make([]string, len(rb.Excluded))
	for i, e := range rb.Excluded {
		parts[i] = fmt.Sprintf("%s (family %s): %s", e.ID, e.Family, strings.TrimSuffix(e.Reason, "."))
	}
	return fmt.Sprintf("Excluded from the scored corpus: %d proposed case(s), retained with their reasons (they reduce the achieved corpus size): %s.",
		len(rb.Excluded), strings.Join(parts, "; "))
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

// BenchmarkCompletion is the completion section of a reviewer benchmark:
// its own counts (scheduled attempts, their executions, the ledger's
// entries by role) in place of the sessions and runs of the other kinds.
func (rb *ReviewerBenchmark) BenchmarkCompletion() []string {
	parts := make([]string, len(rb.Attempts))
	for i, c := range rb.Attempts {
		parts[i] = fmt.Sprintf("%s %d", c.Name, c.Count)
	}
	lines := []string{
		fmt.Sprintf("Attempts: %d scheduled (%d cases); by status: %s", rb.Scheduled, rb.Cases, strings.Join(parts, ", ")),
		fmt.Sprintf("Executions: %d receipts of scheduled attempts, %d replaced within the infrastructure-replacement allowance (retained and charged)", rb.Executions, rb.Replaced),
	}
	if len(rb.Calls) > 0 {
		calls := make([]string, len(rb.Calls))
		for i, c := range rb.Calls {
			calls[i] = fmt.Sprintf("%s %d", c.Role, c.Entries)
		}
		lines = append(lines, "Ledger entries by role: "+strings.Join(calls, ", "))
	}
	return lines
}

// BenchmarkLedgerTable is the ledger by role: its entries, what is
// accounted and what is held beside it, then the commitment's total row.
func (rb *ReviewerBenchmark) BenchmarkLedgerTable() (header []string, rows [][]string) {
	header = []string{"role", "entries", "accounted", "held"}
	amount := rb.amount
	total := int64(0)
	for _, c := range rb.Calls {
		rows = append(rows, []string{c.Role, fmt.Sprint(c.Entries), amount(c.Accounted), amount(c.Held)})
		total += c.Entries
	}
	if l := rb.Ledger; l != nil {
		rows = append(rows, []string{"all", fmt.Sprint(total), amount(l.Accounted), amount(l.Held)})
	}
	return header, rows
}

// amount is a ledger amount with its currency; "unknown" when null.
func (rb *ReviewerBenchmark) amount(s *string) string {
	switch {
	case s == nil:
		return "unknown"
	case rb.Ledger == nil || rb.Ledger.Currency == "":
		return *s
	}
	return rb.Ledger.Currency + " " + *s
}

// BenchmarkLedgerLine is the terminal's one line of the ledger: accounted
// + held + reserved = committed of the cap, and what remains.
func (rb *ReviewerBenchmark) BenchmarkLedgerLine() string {
	l := rb.Ledger
	if l == nil {
		return "ledger: not computed"
	}
	return fmt.Sprintf("ledger: %s accounted + %s held + %s reserved = %s committed of %s; remaining %s",
		rb.amount(l.Accounted), rb.amount(l.Held), rb.amount(l.Reserved), rb.amount(l.Committed), rb.amount(l.Cap), rb.amount(l.Remaining))
}

// BenchmarkGateCompared is the number a reviewer-benchmark gate holds
// against its threshold, exact: the gates describe both profiles' counts
// in their observed text, and compare their difference (the least over
// the model strata), or the remaining allowance of the budget; "unknown"
// when it could not be computed.
func BenchmarkGateCompared(g GateResult, currency string) string {
	if g.ObservedNum == nil || g.ObservedDen == nil || *g.ObservedDen == 0 {
		return "unknown"
	}
	compared := new(big.Rat).SetFrac64(*g.ObservedNum, *g.ObservedDen)
	if rules.GateName(g.Gate).Unit() == rules.GateUnitMoney {
		return withCurrency(currency, moneyRat(compared)) // exact, never rounded for display
	}
	return compared.RatString()
}

// BenchmarkGateTable is the gates table of a reviewer benchmark: each
// gate's observed counts, the compared difference beside its threshold,
// the result, what failed it and what it checks.
func BenchmarkGateTable(gates []GateResult, currency string) (header []string, rows [][]string) {
	header = []string{"gate", "arm", "observed", "compared", "threshold", "result", "failing", "detail"}
	for _, g := range gates {
		result := "FAIL"
		if g.Pass {
			result = "pass"
		}
		failing := "none"
		if len(g.Failing) > 0 {
			failing = strings.Join(g.Failing, ", ")
		}
		rows = append(rows, []string{g.Gate, g.Arm, GateObservedWithExact(g, currency), BenchmarkGateCompared(g, currency),
			g.Threshold, result, failing, g.Detail})
	}
	return header, rows
}

// moneyRat is an exact amount of at most 12 decimals as decimal text.
func moneyRat(r *big.Rat) string {
	if m, err := tables.ParseMoney(strings.TrimPrefix(r.FloatString(tables.MoneyScale), "-")); err == nil {
		if r.Sign() < 0 {
			return "-" + m.String()
		}
		return m.String()
	}
	return r.RatString()
}
