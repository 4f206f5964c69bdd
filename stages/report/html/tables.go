package html

import (
	"cmp"
	"fmt"

	"github.com/evalgate/evalgate/stages/report/scorecard"
)

// The tables of report.html. They carry the same columns as report.md;
// cells hold plain text that htmlTable.HTML escapes.

// gatesTable shows each observation in its gate's unit, its exact value
// on hover.
func gatesTable(gates []scorecard.GateResult, currency string) htmlTable {
	t := htmlTable{
		Caption: "Conjunctive gates of the frozen policy",
		Header:  []string{"gate", "arm", "observed", "threshold", "result", "failing", "detail"},
	}
	for _, g := range gates {
		row := cells(g.Gate, g.Arm)
		row = append(row, htmlCell{Text: plainText(scorecard.GateObserved(g, currency)), Title: plainText(scorecard.GateObservedExact(g))})
		row = append(row, cells(g.Threshold)...)
		row = append(row, passCell(g.Pass))
		row = append(row, cells(joinPlain(g.Failing), g.Detail)...)
		t.Rows = append(t.Rows, row)
	}
	return t
}

func sourceTable(sp scorecard.SourceAndProtocol) htmlTable {
	t := htmlTable{
		Caption: fmt.Sprintf("Identity mismatches: %d. Citation failures: %d.", sp.IdentityMismatches, sp.CitationFailures),
		Header: []string{"arm", "runs", "scored", "critical failures", "critical completion failed",
			"source gate pass", "protocol gate pass", "structural pass", "semantic pass / fail / unrated",
			"wrong claims", "critical wrong claims", "unsupported claims", "false completeness claims"},
	}
	for _, a := range sp.Arms {
		t.Rows = append(t.Rows, cells(a.Arm, scorecard.Int(a.Runs), scorecard.Int(a.ScoredRuns), scorecard.Int(a.CriticalFailures),
			scorecard.Int(a.CriticalCompletionFailed), scorecard.Int(a.SourceGatePass), scorecard.Int(a.ProtocolGatePass),
			scorecard.Int(a.StructuralPass), fmt.Sprintf("%d / %d / %d", a.SemanticPass, a.SemanticFail, a.SemanticUnrated),
			scorecard.Claims(a.WrongClaims), scorecard.Claims(a.CriticalWrongClaims), scorecard.Claims(a.UnsupportedClaims), scorecard.Claims(a.FalseCompletenessClaims)))
	}
	return t
}

func evidenceArmsTable(ep scorecard.EvidenceAndPlan) htmlTable {
	t := htmlTable{
		Caption: "Macro-averages of task medians per arm",
		Header:  []string{"arm", "split", "tasks", "macro-average task-median R", "uncertainty tasks", "macro-average task-median U"},
	}
	for _, a := range ep.Arms {
		t.Rows = append(t.Rows, cells(a.Arm, a.Split, scorecard.Int(a.Tasks), scorecard.Shown(a.MacroMedianR), scorecard.Int(a.UncertaintyTasks), scorecard.Shown(a.MacroMedianU)))
	}
	return t
}

func evidenceTaskTable(ep scorecard.EvidenceAndPlan) htmlTable {
	t := htmlTable{
		Caption: "Task medians over repetitions",
		Header:  []string{"task", "arm", "runs", "scored", "median R", "median U"},
	}
	for _, k := range ep.Tasks {
		t.Rows = append(t.Rows, cells(k.Task, k.Arm, scorecard.Int(k.Runs), scorecard.Int(k.ScoredRuns), scorecard.Shown(k.MedianR), scorecard.Shown(k.MedianU)))
	}
	return t
}

func costArmsTable(ct scorecard.CostAndTime) htmlTable {
	t := htmlTable{
		Caption: "Allocated complete workflow per arm (reference basis)",
		Header: []string{"arm", "runs", "total workflow cost", "median workflow cost", "median review cost",
			"median workflow time", "median review time", "Σ task-median cost", "Σ task-median time"},
	}
	for _, a := range ct.Arms {
		t.Rows = append(t.Rows, cells(a.Arm, scorecard.Int(a.Runs), scorecard.Amount(ct.Currency, a.TotalWorkflowCost), scorecard.Amount(ct.Currency, a.MedianWorkflowCost),
			scorecard.Amount(ct.Currency, a.MedianReviewCost), scorecard.Duration(a.MedianWorkflowNS), scorecard.Duration(a.MedianReviewNS),
			scorecard.Amount(ct.Currency, a.SumTaskMedianCost), scorecard.Duration(a.SumTaskMedianNSExact)))
	}
	return t
}

func costRatiosTable(ct scorecard.CostAndTime) htmlTable {
	t := htmlTable{
		Caption: "Ratios Σ task-median(arm) / Σ task-median(" + plainText(ct.Baseline) + ")",
		Header:  []string{"arm", "cost", "review-only cost", "time", "review-only time"},
	}
	for _, r := range ct.Ratios {
		t.Rows = append(t.Rows, cells(r.Arm, scorecard.TimesChange(r.Cost), scorecard.TimesChange(r.ReviewCost), scorecard.TimesChange(r.Time), scorecard.TimesChange(r.ReviewTime)))
	}
	return t
}

// intervalTable lists every interval row, whatever its status, without a
// result column: intervals never pass or fail.
func intervalTable(rows []scorecard.IntervalResult) htmlTable {
	t := htmlTable{
		Caption: "Every interval row (status other than ok is shown but not plotted)",
		Header: []string{"statistic", "contrast", "method", "primary", "status", "estimate", "lo", "hi", "clipped", "level",
			"families", "small-G flag", "resamples", "seed"},
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, cells(r.ScopedStatistic(), cmp.Or(r.Contrast, r.Arm), r.Method, scorecard.YesNo(r.Primary), r.Status,
			scorecard.Bound(r.Estimate), scorecard.Bound(r.Lo), scorecard.Bound(r.Hi), scorecard.YesNo(r.Clipped), scorecard.Bound(r.Level),
			scorecard.Int(r.NFamilies), r.SmallGFlag, scorecard.Int(r.Resamples), r.Seed))
	}
	return t
}
