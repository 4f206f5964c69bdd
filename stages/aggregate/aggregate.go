// Package aggregate is the fifth stage: task medians, macro-averages,
// repository summaries, conjunctive gates, the decision (rules G1–G7) and
// every figure the reports show (figures.go), from the same medians.
//
// Invariants:
//
//   - Every run stays in its denominator: a task median over a set with an
//     unscored run (or a null cost) is null, never the median of the rest.
//   - Medians of an even count are the mean of the two middle values.
//     Medians, macro-averages, gains and ratios are exact rationals
//     ([math/big.Rat]); every gate compares rationals against thresholds
//     parsed exactly from decimal text. Float columns are for display.
//   - Aggregate cost and time ratios are Σ task-median(treatment) /
//     Σ task-median(baseline), never a mean of per-task ratios.
//   - Gates are conjunctive: the decision is advance only when every gate
//     passes; no gate can be passed through another (C21).
//   - The decision is no_verdict whenever the execution is invalid or a run
//     is unrated, whatever the gates say.
//   - Rows are sorted by their keys; no map order reaches the output. The
//     package knows nothing of intervals: an interval never moves a gate.
package aggregate

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// Out is what the stage produces (see [tables.Aggregated]).
type Out = tables.Aggregated

// inputs are what the stage reads from the earlier stages.
type inputs struct {
	replacements tables.Replacements // validate: the infrastructure-replacement rule's outcome
	sessions     sessionFacts        // account: per-session stop conditions, costs and inputs, read once from its token rows
	ceilings     []tables.Ceiling    // account: campaign ceilings
	runs         []tables.Run        // score

	judged []tables.Run         // the runs the policy judges (set once the policy is resolved)
	judges map[[2]string]*judge // (baseline, arm) → its judge over judged, built once
}

// judgeOf returns the judge of arm against base over the judged runs,
// built on first use: the split figures and the gates read the same one.
func (in *inputs) judgeOf(pol *policy, c *tables.Campaign, base, arm string) *judge {
	k := [2]string{base, arm}
	if j := in.judges[k]; j != nil {
		return j
	}
	if in.judges == nil {
		in.judges = map[[2]string]*judge{}
	}
	j := newJudge(pol, c, in, in.judged, base, arm)
	in.judges[k] = j
	return j
}

// Run summarizes the scored runs per task and repository and judges every
// treatment arm: gate rows and one decision row per arm. The first arm of
// the design is the baseline; every other arm gets its own gate rows and
// decision row (one of each in the usual two-arm design).
func Run(c *tables.Campaign, validated tables.Validated, accounted tables.Accounted, scored tables.Scored) Out {
	in := &inputs{
		replacements: validated.Replacements, sessions: readSessions(accounted.Tokens), ceilings: accounted.Ceilings, runs: scored.Runs,
	}
	var out Out
	all := summarize(c.Manifest.Design.Tasks, in.runs)
	for _, ta := range all {
		row := ta.row()
		row.PacketConstructedComplete = constructedComplete(c, row.TaskID)
		out.Tasks = append(out.Tasks, row)
	}
	out.Repositories = repositories(all)
	out.Figures = figures(c, all, in.runs, &in.sessions)
	out.Figures.Systems = systemFigures(c, all, in.runs)
	out.Figures.PromptOverheads = promptOverheads(c, in.runs, in.sessions.dispatched)

	// Sorted so that failing lists never depend on input order; the score
	// stage's runs already are, and are then not copied.
	byRun := func(a, b tables.Run) int {
		return cmp.Or(cmp.Compare(a.TaskID, b.TaskID), cmp.Compare(a.Repetition, b.Repetition), cmp.Compare(a.Arm, b.Arm))
	}
	runs := in.runs
	if !slices.IsSortedFunc(runs, byRun) {
		runs = slices.Clone(runs)
		slices.SortStableFunc(runs, byRun)
	}
	pol, findings := resolvePolicy(c.Manifest.GatePolicy)
	if pol != nil && pol.name == tables.PresetReviewerBenchmark {
		findings = append(findings, tables.Finding{Code: tables.CodeGatePresetKind, Severity: tables.Reject, File: manifestFile, Pointer: "/gate_policy/preset",
			Message: fmt.Sprintf("gate preset %s judges only reviewer benchmarks, not a %s campaign", pol.name, c.Manifest.Kind)})
		pol = nil
	}
	var judged []tables.Run
	var refused string
	if pol != nil && pol.lastRound {
		refused = round2Refusal(&c.Manifest.Design, pol.split)
	}
	switch {
	case refused != "":
		findings = append(findings, round2Finding(pol, refused))
	case pol != nil:
		judged = pol.judgedRuns(c.Manifest.Design.Tasks, runs)
		if len(judged) == 0 {
			findings = append(findings, noTasksFinding(pol))
		}
	}
	findings.Sort()
	out.Findings = append(out.Findings, findings...)
	in.judged = judged
	out.Figures.JudgedSplit, out.Figures.SplitRatios = splitRatios(pol, c, in, runs, judged)

	v := validity(in, judged)
	if judgeSystems(c, in, &out, pol, judged, v) {
		return out
	}
	arms := c.Manifest.Design.Arms
	if len(arms) < 2 {
		v.reasons = append(v.reasons, "the design has no treatment arm to judge against the baseline")
		out.Decision = append(out.Decision, decide(pol, nil, "", v))
		return out
	}
	base := arms[0].ID
	for _, arm := range arms[1:] {
		var gates []tables.Gate
		if pol != nil {
			gates = evaluate(pol, c, in, base, arm.ID)
		}
		out.Gates = append(out.Gates, gates...)
		out.Decision = append(out.Decision, decide(pol, gates, arm.ID, v))
	}
	return out
}

// constructedComplete reports whether the task's packet says it was
// intentionally constructed to be complete (packet.json constructed_complete): such
// a task cannot support a retrieval-quality claim, which the tasks table
// records for every report.
func constructedComplete(c *tables.Campaign, task string) bool {
	t := c.Task(task)
	return t != nil && t.Packet.ConstructedComplete
}

// taskArm is one task under one arm: its runs and their exact medians.
type taskArm struct {
	spec tables.TaskSpec
	arm  string
	runs []*tables.Run // into the score stage's runs: not copied

	medianR, medianU                *big.Rat // nil when a run is unscored (or, for U, the task has no unanswerable obligation)
	medianCost, medianReviewCost    *big.Rat // nil when a run's cost is null
	medianNS, medianReviewNS        *big.Rat
	timeComplete                    bool
	hasU                            bool // some run has an unanswerable obligation
	scored, criticalFailures, nRuns int64
}

// summarize groups runs by (task, arm), sorted by task ID then arm, and
// computes their medians. Tasks without a design entry keep their ID.
func summarize(specs []tables.TaskSpec, runs []tables.Run) []*taskArm {
	type key struct{ task, arm string }
	byKey := map[key]*taskArm{}
	var out []*taskArm
	for i := range runs {
		r := &runs[i]
		k := key{r.TaskID, r.Arm}
		ta := byKey[k]
		if ta == nil {
			ta = &taskArm{spec: specOf(specs, *r), arm: r.Arm}
			byKey[k] = ta
			out = append(out, ta)
		}
		ta.runs = append(ta.runs, r)
	}
	slices.SortFunc(out, func(a, b *taskArm) int {
		return cmp.Or(cmp.Compare(a.spec.ID, b.spec.ID), cmp.Compare(a.arm, b.arm))
	})
	for _, ta := range out {
		ta.computeMedians()
	}
	return out
}

func specOf(specs []tables.TaskSpec, r tables.Run) tables.TaskSpec {
	for _, s := range specs {
		if s.ID == r.TaskID {
			return s
		}
	}
	return tables.TaskSpec{ID: r.TaskID, Repository: r.Repository, Family: r.Family}
}

func (ta *taskArm) computeMedians() {
	var rs, us fractions
	var costs, reviewCosts amounts
	var ns, reviewNS []int64
	ta.timeComplete = true
	for _, r := range ta.runs {
		ta.nRuns++
		ta.criticalFailures += r.CriticalFailures
		if r.Scored {
			ta.scored++
		}
		rs.add(r.RNum, r.RDen, r.Scored) // unknown when unscored
		us.add(r.UNum, r.UDen, r.Scored)
		costs.add(r.WorkflowCost)
		reviewCosts.add(r.ReviewCost)
		ns, reviewNS = append(ns, r.WorkflowNS), append(reviewNS, r.ReviewNS)
		ta.timeComplete = ta.timeComplete && r.TimeComplete
		ta.hasU = ta.hasU || r.UDen > 0 || r.U != nil
	}
	ta.medianR, ta.medianU = rs.median(), us.median()
	ta.medianCost, ta.medianReviewCost = costs.median(), reviewCosts.median()
	ta.medianNS, ta.medianReviewNS = stats.MedianInt64(ns), stats.MedianInt64(reviewNS)
}

func moneyRat(m *tables.Money) *big.Rat {
	if m == nil {
		return nil
	}
	return new(big.Rat).SetInt64(int64(*m))
}

// row is the Task table row. Integer columns round a half unit of an
// even-count median half to even; the gates use the exact values.
func (ta *taskArm) row() tables.Task {
	return tables.Task{
		TaskID:           ta.spec.ID,
		Repository:       ta.spec.Repository,
		Family:           ta.spec.Family,
		Category:         ta.spec.Category,
		Arm:              ta.arm,
		Runs:             ta.nRuns,
		ScoredRuns:       ta.scored,
		MedianR:          stats.Float(ta.medianR),
		MedianRExact:     exactText(ta.medianR),
		MedianU:          stats.Float(ta.medianU),
		MedianUExact:     exactText(ta.medianU),
		MedianCost:       roundMoney(ta.medianCost),
		MedianReviewCost: roundMoney(ta.medianReviewCost),
		MedianNS:         roundInt(ta.medianNS),
		MedianReviewNS:   roundInt(ta.medianReviewNS),
		TimeComplete:     ta.timeComplete,
		CriticalFailures: ta.criticalFailures,
	}
}

func roundMoney(r *big.Rat) *tables.Money {
	v, ok := stats.RoundHalfEven(r)
	if !ok {
		return nil
	}
	m := tables.Money(v)
	return &m
}

func roundInt(r *big.Rat) int64 {
	v, _ := stats.RoundHalfEven(r)
	return v
}

// repositories summarizes (repository, arm) over every task and run.
func repositories(tas []*taskArm) []tables.Repository {
	type key struct{ repo, arm string }
	byKey := map[key]*tables.Repository{}
	medians := map[key][]*big.Rat{}
	costs := map[key]*exactSum{}
	var keys []key
	for _, ta := range tas {
		k := key{ta.spec.Repository, ta.arm}
		row := byKey[k]
		if row == nil {
			row = &tables.Repository{Repository: k.repo, Arm: k.arm}
			byKey[k] = row
			keys = append(keys, k)
			costs[k] = &exactSum{}
		}
		row.Tasks++
		row.Runs += ta.nRuns
		row.CriticalFailures += ta.criticalFailures
		medians[k] = append(medians[k], ta.medianR)
		for _, r := range ta.runs {
			costs[k].add(r.WorkflowCost)
		}
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.repo, b.repo), cmp.Compare(a.arm, b.arm)) })
	out := make([]tables.Repository, 0, len(keys))
	for _, k := range keys {
		row := byKey[k]
		row.MeanMedianR = stats.Float(stats.Mean(medians[k]))
		row.TotalCost = roundMoney(costs[k].total())
		out = append(out, *row)
	}
	return out
}

// exactText is the exact text of r (stats.FormatRat), or nil when r is
// unknown: a nullable column holds a real null, never the text "null".
func exactText(r *big.Rat) *string {
	if r == nil {
		return nil
	}
	return textPtr(stats.FormatRat(r))
}

func textPtr(s string) *string { return &s }
