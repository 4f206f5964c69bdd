package scorecard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Readable forms of a gate's observation (units and rounding: human.go).
// A gate's observed text is exact: an integer, a decimal, or a fraction
// followed by its approximation ("753517/643266 (≈1.171393)"). It prints
// in its gate's unit (rules.GateName.Unit); a text that is not a number
// (an unknown value, the budget gate's ledger sum) prints as it is.

// observedExact is the exact part of an observed text: the fraction
// before its approximation, or the whole text.
func observedExact(observed string) string {
	exact, _, _ := strings.Cut(observed, " (≈")
	return strings.TrimSpace(exact)
}

// GateObserved prints a gate's observed value in its unit, rounded:
// "×1.171 (+17.1%)" for a ratio, "0.9438 (151/160)" for R, "2" for a
// count, "USD 128.6491" for money. report.html shows it with
// [GateObservedExact] in a hover title.
func GateObserved(g GateResult, currency string) string {
	return gateObserved(g, currency, false)
}

// GateObservedWithExact is [GateObserved] with a ratio's exact fraction in
// the parenthesis, for report.md and the terminal, where no hover can
// carry it.
func GateObservedWithExact(g GateResult, currency string) string {
	return gateObserved(g, currency, true)
}

// GateObservedExact is the exact observed value ("753517/643266").
func GateObservedExact(g GateResult) string { return observedExact(g.Observed) }

func gateObserved(g GateResult, currency string, exact bool) string {
	text := observedExact(g.Observed)
	x, ok := ParseExact(text)
	if !ok {
		return g.Observed
	}
	switch rules.GateName(g.Gate).Unit() {
	case rules.GateUnitRatio:
		r := &Ratio{Exact: x.RatString()}
		if exact {
			return TimesExact(r)
		}
		return Times(r)
	case rules.GateUnitR:
		return Shown(&Ratio{Exact: text})
	case rules.GateUnitMoney:
		return Amount(currency, &text)
	}
	if x.IsInt() {
		return x.Num().String()
	}
	return Shown(&Ratio{Exact: text})
}

// FailingGateLine is one failing gate on one line, as the decision block
// of report.md, report.html and the terminal list it: "g5_cost_task:
// observed ×1.333 (+33.3%; exactly 172397/129310), needs <= 1.15;
// failing: T2, T4". A gate whose observed text describes counts
// ("baseline 3/10, candidate 1/10 audited clean attempts blocked") also
// shows the number it compared ("; compared 2"), or says that nothing
// was (no eligible attempt, a retired split, unpaired attempts). At most [FailingShown] failing tasks are named; the
// rest are counted ("… and 946 more"), so that a gate failing on a large
// campaign is still one readable line. Every failing task stays in
// scorecard.json and gates.parquet.
func FailingGateLine(g GateResult, currency string) string {
	observed := GateObservedWithExact(g, currency)
	if describesCounts(g) {
		if g.ObservedNum == nil {
			observed += "; nothing compared"
		} else {
			observed += "; compared " + BenchmarkGateCompared(g, currency)
		}
	}
	s := fmt.Sprintf("%s: observed %s, needs %s", g.Gate, observed, g.Threshold)
	if n := len(g.Failing); n > FailingShown {
		s += "; failing: " + strings.Join(g.Failing[:FailingShown], ", ") + fmt.Sprintf(" and %d more (all in scorecard.json and gates.parquet)", n-FailingShown)
	} else if n > 0 {
		s += "; failing: " + strings.Join(g.Failing, ", ")
	}
	return s
}

// describesCounts reports whether a gate's observed text describes
// counts (a reviewer benchmark's two profiles: "baseline 3/10, candidate
// 1/10 …") rather than being the number held against the threshold,
// which is then their compared difference. An unknown value ("unknown",
// "null") is no description.
func describesCounts(g GateResult) bool {
	if g.Observed == "unknown" || g.Observed == "null" {
		return false
	}
	_, ok := ParseExact(observedExact(g.Observed))
	return !ok
}

// FailingShown is how many failing tasks a failing gate's line names.
const FailingShown = 10

// failingGates are the gates the decision names as failing, in the
// gates' order, for the decision's failing_gate_details.
func failingGates(d DecisionResult, gates []GateResult) []GateResult {
	out := []GateResult{}
	for _, g := range gates {
		if !g.Pass && (d.Arm == "" || g.Arm == d.Arm) && slices.Contains(d.FailingGates, g.Gate) {
			out = append(out, g)
		}
	}
	return out
}

// MetricValue prints a reviewer-benchmark sum metric in its unit: cost as
// money with its currency, median latency as a duration (never a count of
// nanoseconds), token sums as they are; "unavailable" for an unknown value.
// Rate metrics print as numerator/denominator.
func MetricValue(m MetricResult, currency string) string {
	exact := m.Exact
	if exact == nil || *exact == "" {
		return "unavailable"
	}
	switch m.Metric {
	case tables.MetricCost:
		return Amount(currency, exact)
	case tables.MetricLatency:
		return Duration(exact)
	case tables.MetricInputTokens, tables.MetricOutputTokens:
		return *exact
	}
	return fmt.Sprintf("%d/%d", m.Numerator, m.Denominator)
}
