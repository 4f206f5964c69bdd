// Package markdown renders report.md from the scorecard and the tables.
// It formats; every number comes from the scorecard (stages/report/scorecard).
// Every string taken from the inputs is escaped (escape.go).
package markdown

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// File is report.md's file name in an output directory.
const File = "report.md"

// Render renders report.md from the scorecard and the tables:
// SYNTHETIC banner, decision first, completion, gates, the three
// scorecards, runs per task, findings, then the exploratory intervals.
// Every string taken from the tables is escaped.
func Render(sc scorecard.Scorecard, s *tables.Set) []byte {
	var out bytes.Buffer
	_ = Write(&out, sc, s) // a bytes.Buffer does not fail
	return out.Bytes()
}

// Write writes [Render]'s report to w as it is built (the runs table row
// by row), never holding it whole; the error is w's.
func Write(w io.Writer, sc scorecard.Scorecard, s *tables.Set) error {
	b := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(b, "# evalgate report: %s\n\n", escapeMarkdown(sc.CampaignID))
	if sc.Synthetic {
		b.WriteString("> **SYNTHETIC CAMPAIGN.** The manifest marks this campaign as synthetic: " +
			"no number below is evidence about a real model or workflow.\n\n")
	}
	fmt.Fprintf(b, "- Kind: %s\n- Manifest sha256: %s\n- Tool version: %s\n- Scorecard: %s\n\n",
		escapeMarkdown(sc.Kind), escapeMarkdown(sc.ManifestSHA256), escapeMarkdown(sc.ToolVersion), sc.ScorecardVersion)
	writeDecision(b, sc.Decision, sc.CostAndTime.Currency)
	if sc.ReviewerBenchmark != nil { // its own counts and ledger (rbench.go)
		writeBenchmarkPage(b, &sc, s)
		return b.Flush()
	}
	writeCompletion(b, sc.Completion)
	writeGates(b, sc.Gates, sc.CostAndTime.Currency)
	writePromptVersions(b, sc.PromptVersions)
	writeSourceProtocol(b, sc.SourceAndProtocol)
	writeEvidencePlan(b, sc.EvidenceAndPlan)
	writeCostTime(b, sc.CostAndTime)
	writeCeilings(b, sc.Ceilings, sc.CostAndTime.Currency)
	writeSystemComparison(b, sc.SystemComparison, s.Tokens, sc.CostAndTime.Currency)
	writeRuns(b, s.Runs, sc.CostAndTime.Currency)
	writeFindings(b, s.Rejections)
	writeIntervals(b, sc.Intervals)
	return b.Flush()
}

// writeDecision writes the decision, its reason, then each failing gate
// on its own line: observed against threshold and what failed it.
func writeDecision(b *bufio.Writer, d scorecard.DecisionResult, currency string) {
	fmt.Fprintf(b, "## Decision\n\n**%s**", escapeMarkdown(string(d.Decision)))
	if d.Arm != "" {
		fmt.Fprintf(b, " for arm %s", escapeMarkdown(d.Arm))
	}
	b.WriteString(".\n\n")
	if d.Policy != "" {
		fmt.Fprintf(b, "Policy: %s.\n\n", escapeMarkdown(d.Policy))
	}
	fmt.Fprintf(b, "Reason: %s.\n\n", escapeMarkdown(strings.TrimSuffix(d.Reason, ".")))
	if len(d.FailingGates) == 0 {
		b.WriteString("Failing gates: none.\n\n")
		return
	}
	fmt.Fprintf(b, "Failing gates (%d):\n\n", len(d.FailingGates))
	listed := map[string]bool{}
	for _, g := range d.FailingGateDetails {
		listed[g.Gate] = true
		fmt.Fprintf(b, "- %s\n", escapeMarkdown(scorecard.FailingGateLine(g, currency)))
	}
	for _, name := range d.FailingGates {
		if !listed[name] {
			fmt.Fprintf(b, "- %s: no row in the gates table\n", escapeMarkdown(name))
		}
	}
	b.WriteString("\n")
}

func writeCompletion(b *bufio.Writer, c scorecard.Completion) {
	b.WriteString("## Completion\n\nA complete run is not a success: the decision above is the verdict.\n\n")
	fmt.Fprintf(b, "- Sessions: %d (%s); by status: %s\n", c.Sessions, counts(c.SessionsByClassification), counts(c.SessionsByStatus))
	fmt.Fprintf(b, "- Runs: %d planned, %d scored, %d unscored (%s)\n", c.Runs, c.RunsScored, c.RunsUnscored, counts(c.RunsByClassification))
	fmt.Fprintf(b, "- Findings: %d (%s)\n\n", c.Findings, counts(c.FindingsBySeverity))
}

func writeGates(b *bufio.Writer, gates []scorecard.GateResult, currency string) {
	b.WriteString("## Gates\n\n")
	if len(gates) == 0 {
		b.WriteString("No gate was evaluated.\n\n")
		return
	}
	table(b, []string{"gate", "arm", "observed", "threshold", "result", "failing", "detail"})
	for _, g := range gates {
		result := "FAIL"
		if g.Pass {
			result = "pass"
		}
		row(b, escapeMarkdown(g.Gate), escapeMarkdown(g.Arm), escapeMarkdown(scorecard.GateObservedWithExact(g, currency)),
			escapeMarkdown(g.Threshold), result, escList(g.Failing), escapeMarkdown(g.Detail))
	}
	b.WriteString("\n")
}

func writeSourceProtocol(b *bufio.Writer, sp scorecard.SourceAndProtocol) {
	b.WriteString("## Scorecards\n\n### Source and protocol correctness\n\n")
	fmt.Fprintf(b, "Identity mismatches: %d. Citation failures: %d.\n\n", sp.IdentityMismatches, sp.CitationFailures)
	table(b, []string{"arm", "runs", "scored", "critical failures", "critical completion failed",
		"source gate pass", "protocol gate pass", "structural pass", "semantic pass / fail / unrated",
		"wrong claims", "critical wrong claims", "unsupported claims", "false completeness claims"})
	for _, a := range sp.Arms {
		row(b, escapeMarkdown(a.Arm), scorecard.Int(a.Runs), scorecard.Int(a.ScoredRuns), scorecard.Int(a.CriticalFailures),
			scorecard.Int(a.CriticalCompletionFailed), scorecard.Int(a.SourceGatePass), scorecard.Int(a.ProtocolGatePass),
			scorecard.Int(a.StructuralPass), fmt.Sprintf("%d / %d / %d", a.SemanticPass, a.SemanticFail, a.SemanticUnrated),
			scorecard.Claims(a.WrongClaims), scorecard.Claims(a.CriticalWrongClaims), scorecard.Claims(a.UnsupportedClaims), scorecard.Claims(a.FalseCompletenessClaims))
	}
	b.WriteString("\n")
}

func writeEvidencePlan(b *bufio.Writer, ep scorecard.EvidenceAndPlan) {
	b.WriteString("### Final evidence and plan correctness\n\n")
	table(b, []string{"arm", "split", "tasks", "macro-average task-median R", "uncertainty tasks", "macro-average task-median U"})
	for _, a := range ep.Arms {
		row(b, escapeMarkdown(a.Arm), escapeMarkdown(a.Split), scorecard.Int(a.Tasks), scorecard.Shown(a.MacroMedianR), scorecard.Int(a.UncertaintyTasks), scorecard.Shown(a.MacroMedianU))
	}
	b.WriteString("\n")
	if len(ep.ConstructedCompletePackets) > 0 {
		fmt.Fprintf(b, "> **Packet constructed to be complete:** %s. Each of these packets was intentionally constructed to be complete, "+
			"not retrieved, so these tasks' results cannot support a retrieval-quality claim.\n\n", escList(ep.ConstructedCompletePackets))
	}
	table(b, []string{"task", "arm", "runs", "scored", "median R", "median U", "packet constructed complete"})
	for _, t := range ep.Tasks {
		row(b, escapeMarkdown(t.Task), escapeMarkdown(t.Arm), scorecard.Int(t.Runs), scorecard.Int(t.ScoredRuns), scorecard.Shown(t.MedianR), scorecard.Shown(t.MedianU),
			scorecard.YesNo(t.PacketConstructedComplete))
	}
	b.WriteString("\n" + scorecard.MedianRule + "\n\n")
}

func writeCostTime(b *bufio.Writer, ct scorecard.CostAndTime) {
	b.WriteString("### Complete cost and time\n\n")
	fmt.Fprintf(b, "Physical campaign billing (every session once): reference %s, actual %s.\n\n",
		scorecard.Amount(ct.Currency, ct.SessionReferenceCost), scorecard.Amount(ct.Currency, ct.SessionActualCharge))
	table(b, []string{"arm", "runs", "total workflow cost", "median workflow cost", "median review cost",
		"median workflow time", "median review time", "Σ task-median cost", "Σ task-median time"})
	for _, a := range ct.Arms {
		row(b, escapeMarkdown(a.Arm), scorecard.Int(a.Runs), scorecard.Amount(ct.Currency, a.TotalWorkflowCost), scorecard.Amount(ct.Currency, a.MedianWorkflowCost),
			scorecard.Amount(ct.Currency, a.MedianReviewCost), scorecard.Duration(a.MedianWorkflowNS), scorecard.Duration(a.MedianReviewNS),
			scorecard.Amount(ct.Currency, a.SumTaskMedianCost), scorecard.Duration(a.SumTaskMedianNSExact))
	}
	b.WriteString("\n")
	for _, o := range ct.PromptOverhead {
		b.WriteString(o.Text() + "\n\n") // arm and prompt IDs are identifiers: nothing to escape
	}
	if len(ct.Ratios) == 0 {
		return
	}
	fmt.Fprintf(b, "Ratios Σ task-median(arm) / Σ task-median(%s), every split, then each split "+
		"(the judged split over exactly the runs its gates judge):\n\n", escapeMarkdown(ct.Baseline))
	table(b, []string{"arm", "split", "cost", "review-only cost", "time", "review-only time"})
	ratioRow := func(r scorecard.CostTimeRatio, split string) {
		row(b, escapeMarkdown(r.Arm), split, scorecard.TimesChangeExact(r.Cost), scorecard.TimesChangeExact(r.ReviewCost),
			scorecard.TimesChangeExact(r.Time), scorecard.TimesChangeExact(r.ReviewTime))
	}
	for _, r := range ct.Ratios {
		ratioRow(r, "all splits")
	}
	for _, split := range slices.Sorted(maps.Keys(ct.RatiosBySplit)) {
		label := escapeMarkdown(split)
		if split == ct.JudgedSplit {
			label += " (judged)"
		}
		for _, r := range ct.RatiosBySplit[split] {
			ratioRow(r, label)
		}
	}
	b.WriteString("\n")
}

// writeCeilings writes campaign wall time beside its ceiling, then every
// campaign ceiling with its use and limit.
func writeCeilings(b *bufio.Writer, cs []scorecard.CeilingResult, currency string) {
	if len(cs) == 0 {
		return
	}
	b.WriteString("### Campaign ceilings\n\n")
	for _, c := range cs {
		if c.Ceiling == scorecard.CeilingWallTime {
			fmt.Fprintf(b, "Campaign wall time (first session start to last session end, waiting and queues included): %s; ceiling %s; held: %s.\n\n",
				escapeMarkdown(scorecard.CeilingUse(c, currency)), escapeMarkdown(scorecard.CeilingLimit(c, currency)), scorecard.CeilingHeld(c))
		}
	}
	table(b, []string{"ceiling", "used", "limit", "held"})
	for _, c := range cs {
		row(b, escapeMarkdown(c.Ceiling), escapeMarkdown(scorecard.CeilingUse(c, currency)), escapeMarkdown(scorecard.CeilingLimit(c, currency)), scorecard.CeilingHeld(c))
	}
	b.WriteString("\n")
}

func writeRuns(b *bufio.Writer, runs *spool.Spool[tables.Run], currency string) {
	b.WriteString("## Runs per task\n\n")
	if runs.Len() == 0 {
		b.WriteString("No run was planned or recorded.\n\n")
		return
	}
	table(b, []string{"task", "rep", "arm", "classification", "scored", "R", "U", "critical failures",
		"source gate", "protocol gate", "workflow cost", "workflow time"})
	for r := range runs.All() {
		row(b, escapeMarkdown(r.TaskID), scorecard.Int(r.Repetition), escapeMarkdown(r.Arm), escapeMarkdown(string(r.Classification)),
			scorecard.YesNo(r.Scored), scorecard.Fraction(r.R != nil, r.RNum, r.RDen), scorecard.Fraction(r.U != nil, r.UNum, r.UDen),
			scorecard.Int(r.CriticalFailures), scorecard.YesNo(r.SourceGate), scorecard.YesNo(r.ProtocolGate),
			scorecard.MoneyAmount(currency, r.WorkflowCost), scorecard.DurationNS(r.WorkflowNS))
	}
	b.WriteString("\n")
}

func writeFindings(b *bufio.Writer, fs []rules.Finding) {
	b.WriteString("## Findings\n\n")
	if len(fs) == 0 {
		b.WriteString("None.\n\n")
		return
	}
	sorted := append(rules.Findings(nil), fs...)
	sorted.Sort()
	listed := 0
	for _, g := range rules.Collapse(sorted) {
		if listed >= scorecard.MaxListedFindings {
			fmt.Fprintf(b, "- … %d more in campaign_findings.parquet\n", len(sorted)-listed)
			break
		}
		listed += g.Count()
		fmt.Fprintf(b, "- %s: %s\n", escapeMarkdown(string(g.First.Severity)), escapeMarkdown(g.Error()))
	}
	b.WriteString("\n")
}

func writeIntervals(b *bufio.Writer, iv scorecard.Intervals) {
	b.WriteString("## Exploratory intervals (do not gate)\n\n")
	fmt.Fprintf(b, "Label: %s. Gate effect: %s. These intervals never change a gate or the decision.\n\n", iv.Label, iv.GateEffect)
	if len(iv.Rows) == 0 {
		b.WriteString("No interval was computed.\n")
		return
	}
	b.WriteString("The primary interval is the cluster t interval below 6 families and the expanded percentile from 6 on. " +
		"Bounds are clipped to the statistic's range (a fraction to [0, 1], a difference to [−1, 1], a ratio to ≥ 0); the clipped column says where.\n\n")
	table(b, []string{"statistic", "contrast", "method", "primary", "status", "estimate", "lo", "hi", "clipped", "level",
		"families", "small-G flag", "resamples", "seed"})
	for _, r := range iv.Rows {
		row(b, escapeMarkdown(r.Statistic), escapeMarkdown(cmp.Or(r.Contrast, r.Arm)), escapeMarkdown(r.Method), scorecard.YesNo(r.Primary),
			escapeMarkdown(r.Status), scorecard.Bound(r.Estimate), scorecard.Bound(r.Lo), scorecard.Bound(r.Hi), scorecard.YesNo(r.Clipped), scorecard.Bound(r.Level),
			scorecard.Int(r.NFamilies), escapeMarkdown(r.SmallGFlag), scorecard.Int(r.Resamples), r.Seed)
	}
}

// table writes a Markdown table header.
func table(b *bufio.Writer, header []string) {
	row(b, header...)
	b.WriteString("|" + strings.Repeat("---|", len(header)) + "\n")
}

// row writes one table row of already escaped cells.
func row(b *bufio.Writer, cells ...string) {
	// "| " + strings.Join(cells, " | ") + " |\n", written piece by piece.
	b.WriteString("| ")
	for i, c := range cells {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(c)
	}
	b.WriteString(" |\n")
}

func escList(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = escapeMarkdown(s)
	}
	return strings.Join(out, ", ")
}

func counts(cs []scorecard.Count) string {
	if len(cs) == 0 {
		return "none"
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = fmt.Sprintf("%s %d", escapeMarkdown(c.Name), c.Count)
	}
	return strings.Join(out, ", ")
}
