package report

import (
	"math"
	"testing"

	"github.com/evalgate/evalgate/stages/aggregate"
	"github.com/evalgate/evalgate/tables"
)

// money parses an exact decimal for fixtures.
func money(t testing.TB, s string) *tables.Money {
	t.Helper()
	m, err := tables.ParseMoney(s)
	if err != nil {
		t.Fatalf("ParseMoney(%q): %v", s, err)
	}
	return &m
}

func ptr[T any](v T) *T { return &v }

// fixtureCampaign is a paired-review campaign with baseline A and
// reconciliation arm B over tasks T1, T2.
func fixtureCampaign() *tables.Campaign {
	return &tables.Campaign{
		Name:           "fixture",
		ManifestSHA256: "ab00000000000000000000000000000000000000000000000000000000000000",
		Manifest: tables.Manifest{
			CampaignID: "camp-1",
			Kind:       tables.KindPairedReview,
			Synthetic:  true,
			Design: tables.Design{
				Arms:  []tables.Arm{{ID: "A"}, {ID: "B", Reconciliation: true}},
				Tasks: []tables.TaskSpec{{ID: "T1", Split: "evaluation"}, {ID: "T2", Split: "evaluation"}},
			},
		},
	}
}

// run builds one scored run.
func run(t testing.TB, task string, rep int64, arm string, rNum, rDen, uNum, uDen int64, cost, review string, ns, reviewNS int64) tables.Run {
	r := tables.Run{
		TaskID: task, Repository: "repo", Family: task, Repetition: rep, Arm: arm,
		Classification: "valid", Scored: true,
		RNum: rNum, RDen: rDen, R: ptr(float64(rNum) / float64(rDen)),
		UNum: uNum, UDen: uDen,
		WrongClaims: ptr(int64(0)), CriticalWrongClaims: ptr(int64(0)),
		UnsupportedClaims: ptr(int64(0)), FalseCompletenessClaims: ptr(int64(0)),
		SourceGate: true, ProtocolGate: true, StructuralPass: true, SemanticPass: ptr(true),
		WorkflowCost: money(t, cost), ReviewCost: money(t, review), WorkflowNS: ns, ReviewNS: reviewNS, TimeComplete: true,
	}
	if uDen > 0 {
		r.U = ptr(float64(uNum) / float64(uDen))
	}
	return r
}

// figuresOf runs the aggregate stage on the runs and tokens of s, as the
// pipeline does, for the figures the reports format. A nil campaign (not
// loaded) has none.
func figuresOf(c *tables.Campaign, s *tables.Set) tables.Figures {
	if c == nil || s == nil {
		return tables.Figures{}
	}
	return aggregate.Run(c, tables.Validated{Sessions: s.Sessions}, tables.Accounted{Tokens: s.Tokens}, tables.Scored{Runs: s.Runs}).Figures
}

// fixtureSet is the hand-computed set the scorecard tests check; the
// expected values are derived in scorecard_test.go comments.
func fixtureSet(t testing.TB) *tables.Set {
	runs := []tables.Run{
		run(t, "T1", 1, "A", 3, 4, 1, 1, "1.00", "0.40", 100, 40),
		run(t, "T1", 2, "A", 2, 4, 0, 1, "1.20", "0.60", 120, 60),
		run(t, "T1", 1, "B", 4, 4, 1, 1, "1.10", "0.50", 110, 50),
		run(t, "T1", 2, "B", 3, 4, 1, 1, "1.30", "0.70", 140, 80),
		run(t, "T2", 1, "A", 1, 3, 0, 0, "2.00", "1.00", 200, 100),
		run(t, "T2", 2, "A", 2, 3, 0, 0, "2.00", "1.00", 210, 110),
		run(t, "T2", 1, "B", 3, 3, 0, 0, "2.10", "1.10", 220, 120),
		run(t, "T2", 2, "B", 2, 3, 0, 0, "2.000000000001", "1.10", 230, 130),
	}
	runs[1].WrongClaims = nil    // unscorable
	runs[4].SourceGate = false   // A T2 r1
	runs[4].CriticalFailures = 2 // A T2 r1
	runs[4].CriticalCompletionFailed = true
	runs[5].SemanticPass = ptr(false)
	runs[6].SemanticPass = nil
	runs[7].CriticalWrongClaims = ptr(int64(3))
	task := func(id, arm, cost, review string, ns, reviewNS int64) tables.Task {
		return tables.Task{TaskID: id, Arm: arm, Runs: 2, ScoredRuns: 2,
			MedianCost: money(t, cost), MedianReviewCost: money(t, review), MedianNS: ns, MedianReviewNS: reviewNS}
	}
	return &tables.Set{
		Sessions: []tables.Session{
			{SessionID: "T1-r1-D", Status: "response", Classification: "valid", IdentityMatches: true, CitationFailures: 2},
			{SessionID: "T1-r1-A", Status: "response", Classification: "valid", IdentityMatches: true},
			{SessionID: "T1-r1-B", Status: "error", Classification: "invalid", IdentityMatches: false},
		},
		Tokens: []tables.Token{
			{SessionID: "T1-r1-A", ReferenceCost: money(t, "0.09"), ToolCharges: money(t, "0.01")},
			{SessionID: "T1-r1-D", ReferenceCost: money(t, "24.00"), ToolCharges: money(t, "0"), ActualCharge: money(t, "1.00")},
		},
		Runs: runs,
		Tasks: []tables.Task{
			task("T1", "A", "1.10", "0.50", 110, 50),
			task("T1", "B", "1.20", "0.60", 125, 65),
			task("T2", "A", "2.00", "1.00", 205, 105),
			task("T2", "B", "2.05", "1.05", 225, 125),
		},
		Gates: []tables.Gate{
			{Gate: "g1_safety_source", Arm: "B", Observed: "0", Threshold: "= 0", Pass: true},
			{Gate: "g2_quality", Arm: "B", Observed: "0.85", Threshold: ">= 0.90", Pass: false, Failing: "T1, T2", Detail: "macro"},
		},
		Decision: []tables.Decision{{Decision: "do_not_advance", Arm: "B", FailingGates: "g2_quality", Reason: "quality gate failed"}},
		Intervals: []tables.Interval{{
			Statistic: "macro_median_r", Arm: "B", Method: "percentile", Status: "ok",
			Estimate: ptr(0.5), Hi: ptr(math.NaN()), Level: 0.95, NFamilies: 2, Resamples: 10000,
			Seed: 1<<63 + 5, RNG: "pcg", AlgorithmVersion: "v1", Cluster: "family",
			Label: IntervalLabel, GateEffect: IntervalGateEffect,
		}},
		Rejections: []tables.Finding{
			{Code: "b_code", Severity: tables.Reject, File: "receipts.jsonl", Line: 2, Message: "bad"},
			{Code: "a_code", Severity: tables.Reject, File: "receipts.jsonl", Line: 1, Message: "bad"},
			{Code: "a_code", Severity: tables.Warn, File: "manifest.json", Pointer: "/x", Message: "odd"},
		},
	}
}
