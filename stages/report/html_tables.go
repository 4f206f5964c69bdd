package report

import (
	"cmp"
	"fmt"

	"github.com/evalgate/evalgate/tables"
)

// The tables of report.html. They carry the same columns as report.md;
// cells hold plain text that html/template escapes.

func gatesTable(gates []GateResult) htmlTable {
	t := htmlTable{
		Caption: "Conjunctive gates of the frozen policy",
		Header:  []string{"gate", "arm", "observed", "threshold", "result", "failing", "detail"},
	}
	for _, g := range gates {
		row := cells(g.Gate, g.Arm, g.Observed, g.Threshold)
		row = append(row, passCell(g.Pass))
		row = append(row, cells(joinPlain(g.Failing), g.Detail)...)
		t.Rows = append(t.Rows, row)
	}
	return t
}

func sourceTable(sp SourceAndProtocol) htmlTable {
	t := htmlTable{
		Caption: fmt.Sprintf("Identity mismatches: %d. Citation failures: %d.", sp.IdentityMismatches, sp.CitationFailures),
		Header: []string{"arm", "runs", "scored", "critical failures", "critical completion failed",
			"source gate pass", "protocol gate pass", "structural pass", "semantic pass / fail / unrated",
			"wrong claims", "critical wrong claims", "unsupported claims", "false completeness claims"},
	}
	for _, a := range sp.Arms {
		t.Rows = append(t.Rows, cells(a.Arm, itoa(a.Runs), itoa(a.ScoredRuns), itoa(a.CriticalFailures),
			itoa(a.CriticalCompletionFailed), itoa(a.SourceGatePass), itoa(a.ProtocolGatePass),
			itoa(a.StructuralPass), fmt.Sprintf("%d / %d / %d", a.SemanticPass, a.SemanticFail, a.SemanticUnrated),
			claims(a.WrongClaims), claims(a.CriticalWrongClaims), claims(a.UnsupportedClaims), claims(a.FalseCompletenessClaims)))
	}
	return t
}

func evidenceArmsTable(ep EvidenceAndPlan) htmlTable {
	t := htmlTable{
		Caption: "Macro-averages of task medians per arm",
		Header:  []string{"arm", "split", "tasks", "macro-average task-median R", "uncertainty tasks", "macro-average task-median U"},
	}
	for _, a := range ep.Arms {
		t.Rows = append(t.Rows, cells(a.Arm, a.Split, itoa(a.Tasks), ratioText(a.MacroMedianR), itoa(a.UncertaintyTasks), ratioText(a.MacroMedianU)))
	}
	return t
}

func evidenceTaskTable(ep EvidenceAndPlan) htmlTable {
	t := htmlTable{
		Caption: "Task medians over repetitions",
		Header:  []string{"task", "arm", "runs", "scored", "median R", "median U"},
	}
	for _, k := range ep.Tasks {
		t.Rows = append(t.Rows, cells(k.Task, k.Arm, itoa(k.Runs), itoa(k.ScoredRuns), ratioText(k.MedianR), ratioText(k.MedianU)))
	}
	return t
}

func costArmsTable(ct CostAndTime) htmlTable {
	t := htmlTable{
		Caption: "Allocated complete workflow per arm (reference basis)",
		Header: []string{"arm", "runs", "total workflow cost", "median workflow cost", "median review cost",
			"median workflow ns", "median review ns", "Σ task-median cost", "Σ task-median ns"},
	}
	for _, a := range ct.Arms {
		t.Rows = append(t.Rows, cells(a.Arm, itoa(a.Runs), strOr(a.TotalWorkflowCost), strOr(a.MedianWorkflowCost),
			strOr(a.MedianReviewCost), strOr(a.MedianWorkflowNS), strOr(a.MedianReviewNS),
			strOr(a.SumTaskMedianCost), strOr(a.SumTaskMedianNSExact)))
	}
	return t
}

func costRatiosTable(ct CostAndTime) htmlTable {
	t := htmlTable{
		Caption: "Ratios Σ task-median(arm) / Σ task-median(" + plainText(ct.Baseline) + ")",
		Header:  []string{"arm", "cost", "review-only cost", "time", "review-only time"},
	}
	for _, r := range ct.Ratios {
		t.Rows = append(t.Rows, cells(r.Arm, changeText(r.Cost), changeText(r.ReviewCost), changeText(r.Time), changeText(r.ReviewTime)))
	}
	return t
}

func runsTable(runs []tables.Run) htmlTable {
	t := htmlTable{
		Caption: "Every planned run; none leaves its denominator",
		Header: []string{"task", "rep", "arm", "classification", "scored", "R", "U", "critical failures",
			"source gate", "protocol gate", "workflow cost", "workflow ns"},
	}
	for _, r := range runs {
		t.Rows = append(t.Rows, cells(r.TaskID, itoa(r.Repetition), r.Arm, string(r.Classification),
			yesNo(r.Scored), fraction(r.R != nil, r.RNum, r.RDen), fraction(r.U != nil, r.UNum, r.UDen),
			itoa(r.CriticalFailures), yesNo(r.SourceGate), yesNo(r.ProtocolGate),
			moneyText(r.WorkflowCost), itoa(r.WorkflowNS)))
	}
	return t
}

// intervalTable lists every interval row, whatever its status, without a
// result column: intervals never pass or fail.
func intervalTable(rows []IntervalResult) htmlTable {
	t := htmlTable{
		Caption: "Every interval row (status other than ok is shown but not plotted)",
		Header: []string{"statistic", "contrast", "method", "status", "estimate", "lo", "hi", "level",
			"families", "small-G flag", "resamples", "seed"},
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, cells(r.Statistic, cmp.Or(r.Contrast, r.Arm), r.Method, r.Status,
			floatText(r.Estimate), floatText(r.Lo), floatText(r.Hi), floatText(r.Level),
			itoa(r.NFamilies), r.SmallGFlag, itoa(r.Resamples), r.Seed))
	}
	return t
}
