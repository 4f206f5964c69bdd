package html

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// TestReviewerBenchmarkSection: a reviewer benchmark's report.html shows
// the promotion outcome, the failing gate's line, the attempts, a metric
// row with numerator/denominator and the ledger exactly (the reviewer-benchmark protocol's
// figures: 70.868357 + 27.10 = 97.968357 of 150, 52.031643 left); another
// kind has no such section.
func TestReviewerBenchmarkSection(t *testing.T) {
	str := func(s string) *string { return &s }
	sc := scorecard.Scorecard{Kind: rules.KindReviewerBenchmark,
		Decision: scorecard.DecisionResult{Decision: tables.DecisionInconclusive, Arm: "candidate", Reason: "no demonstrated improvement on rb_blocking_final",
			FailingGates:       []string{"rb_blocking_final"},
			FailingGateDetails: []scorecard.GateResult{{Gate: "rb_blocking_final", Arm: "candidate", Observed: "baseline 2/10, candidate 2/10 audited clean attempts blocked", Threshold: ">= 1"}}},
		ReviewerBenchmark: &scorecard.ReviewerBenchmark{Cases: 60, Scheduled: 240, FinalRetired: true,
			Attempts: []scorecard.Count{{Name: "completed", Count: 238}, {Name: "missing", Count: 2}},
			Metrics: []scorecard.MetricResult{{Split: "final", Profile: "candidate", Model: "m<1>", Metric: tables.MetricScheduled, Numerator: 40, Exact: str("40")},
				{Split: "final", Profile: "candidate", Model: "m<1>", Metric: tables.MetricDetection, Numerator: 17, Denominator: 20, Exact: str("17/20")}},
			Ledger: &scorecard.LedgerResult{Basis: "reference", Currency: "USD", Cap: str("150.00"), Accounted: str("70.868357"), Held: str("27.10"),
				Reserved: str("0.00"), Committed: str("97.968357"), Remaining: str("52.031643")}}}
	page, err := Render(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<h2 id="reviewer-benchmark">Reviewer benchmark</h2>`,
		"Promotion of candidate: inconclusive: no demonstrated improvement on rb_blocking_final.",
		"The final split is retired",
		"rb_blocking_final: observed",
		"Attempts by status: completed 238, missing 2.",
		"<td>final</td><td>candidate</td><td>m&lt;1&gt;</td><td>17/20</td>",
		"accounted USD 70.868357 &#43; held USD 27.10 &#43; reserved USD 0.00 = committed USD 97.968357 against the cap USD 150.00; remaining USD 52.031643.",
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	sc.ReviewerBenchmark = nil
	page, _ = Render(sc, nil)
	if strings.Contains(string(page), `id="reviewer-benchmark"`) {
		t.Error("a report without a reviewer benchmark has its section")
	}
}
