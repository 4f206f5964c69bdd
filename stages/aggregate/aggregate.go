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
//   - Memory is bounded by the tasks and a fixed number of runs: every
//     reader iterates the score stage's runs (runSet, sorted by task,
//     repetition and arm), held decoded once up to maxHeldRuns of them
//     and read from their spool by every pass beyond that, a task's
//     values are held only while its runs pass, and only the medians over
//     all of an arm's runs hold a few integers per run while they are
//     computed.
package aggregate

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"

	"github.com/evalgate/evalgate/rules"
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
	runs         runSet              // score: every run, sorted (sortedRuns)

	judged runSet               // the runs the policy judges (set once the policy is resolved)
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
//
// Every decision row names the policy that judged (tables.Decision.Policy).
func Run(c *tables.Campaign, validated tables.Validated, accounted tables.Accounted, scored tables.Scored) Out {
	out := run(c, validated, accounted, scored)
	labelDecisions(out.Decision, &c.Manifest)
	return out
}

func run(c *tables.Campaign, validated tables.Validated, accounted tables.Accounted, scored tables.Scored) Out {
	in := &inputs{
		replacements: validated.Replacements, sessions: readSessions(accounted.Tokens), ceilings: accounted.Ceilings,
		runs: heldRuns(sortedRuns(scored.Runs)), // the score stage's are sorted: then not copied
	}
	var out Out
	all := summarize(c.Manifest.Design.Tasks, in.runs)
	complete := constructedComplete(c)
	for _, ta := range all {
		row := ta.row()
		row.PacketConstructedComplete = complete[row.TaskID]
		out.Tasks = append(out.Tasks, row)
	}
	out.Repositories = repositories(all)
	out.Figures = figures(c, all, in.runs, &in.sessions)
	out.Figures.Systems = systemFigures(c, all, in.runs)
	out.Figures.PromptOverheads = promptOverheads(c, in.runs, accounted.Tokens)

	pol, findings := resolvePolicy(&c.Manifest)
	if pol != nil && pol.name == rules.PresetReviewerBenchmark {
		findings = append(findings, rules.Finding{Code: rules.CodeGatePresetKind, Severity: rules.Reject, File: manifestFile, Pointer: "/gate_policy/preset",
			Message: fmt.Sprintf("gate preset %s judges only reviewer benchmarks, not a %s campaign", pol.name, c.Manifest.Kind)})
		pol = nil
	}
	var judged runSet // no run until the policy judges some
	var refused string
	if pol != nil && pol.lastRound {
		refused = round2Refusal(&c.Manifest.Design, pol.split)
	}
	switch {
	case refused != "":
		findings = append(findings, round2Finding(pol, refused))
	case pol != nil:
		judged = pol.judgedRuns(c.Manifest.Design.Tasks, in.runs)
		if judged.empty() {
			findings = append(findings, noTasksFinding(pol))
		}
	}
	findings = append(findings, round2Admission(c, in, pol, judged)...)
	findings.Sort()
	out.Findings = append(out.Findings, findings...)
	in.judged = judged
	out.Figures.JudgedSplit, out.Figures.SplitRatios = splitRatios(pol, c, in, all, judged)

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

// constructedComplete maps each task ID to whether its packet says it was
// intentionally constructed to be complete (packet.json constructed_complete): such
// a task cannot support a retrieval-quality claim, which the tasks table
// records for every report. It is c.Task(id)'s packet (the first task of
// the ID), looked up once per task rather than by a scan of the tasks per
// task-arm row; an ID without a task is absent (false).
func constructedComplete(c *tables.Campaign) map[string]bool {
	out := make(map[string]bool, len(c.Tasks))
	for i := range c.Tasks {
		t := &c.Tasks[i]
		if _, seen := out[t.Spec.ID]; !seen {
			out[t.Spec.ID] = t.Packet.ConstructedComplete
		}
	}
	return out
}

// taskArm is one task under one arm: its exact medians and sums over its
// runs. It holds no run: the values of a task's runs are held only until
// the task's last run has passed (taskValues).
type taskArm struct {
	spec tables.TaskSpec
	arm  string

	medianR, medianU                *big.Rat // nil when a run is unscored (or, for U, the task has no unanswerable obligation)
	medianCost, medianReviewCost    *big.Rat // nil when a run's cost is null
	medianNS, medianReviewNS        *big.Rat
	timeComplete                    bool
	hasU                            bool // some run has an unanswerable obligation
	scored, criticalFailures, nRuns int64
	cost, ns                        exactSum // Σ workflow cost (unknown once one is null) and Σ workflow time
	coldRuns                        int64    // runs carrying their system's cold setup
	answerable                      int64    // r_den of the task's last run

	values *taskValues // while the task's runs pass; nil once its medians are computed
}

// taskValues are the values of one task-arm's runs that its medians need.
type taskValues struct {
	rs, us             fractions
	costs, reviewCosts amounts
	ns, reviewNS       []int64
}

// summarize groups runs by (task, arm), sorted by task ID then arm, and
// computes their medians. Tasks without a design entry keep their ID.
// The runs of a task follow each other (runSet), so a task's medians are
// computed, and its values dropped, once its runs have passed.
func summarize(specs []tables.TaskSpec, runs runSet) []*taskArm {
	type key struct{ task, arm string }
	byKey := map[key]*taskArm{}
	specAt := specIndex(specs)
	var out, open []*taskArm // open: the current task's
	var spare []*taskValues  // values whose medians are computed, reused by the next task-arms
	for r := range runs.All() {
		if len(open) > 0 && open[0].spec.ID != r.TaskID {
			for _, ta := range open {
				spare = append(spare, ta.values)
				ta.computeMedians()
			}
			open = open[:0]
		}
		k := key{r.TaskID, r.Arm}
		ta := byKey[k]
		if ta == nil {
			ta = &taskArm{spec: specOf(specs, specAt, r), arm: r.Arm, timeComplete: true, values: reuseValues(&spare)}
			byKey[k] = ta
			out = append(out, ta)
			open = append(open, ta)
		}
		ta.add(r)
	}
	for _, ta := range open {
		ta.computeMedians()
	}
	slices.SortFunc(out, func(a, b *taskArm) int {
		return cmp.Or(cmp.Compare(a.spec.ID, b.spec.ID), cmp.Compare(a.arm, b.arm))
	})
	return out
}

// specOf is the first spec of r's task (at is specIndex(specs)), or one
// made of the run's own fields.
func specOf(specs []tables.TaskSpec, at map[string]int, r *tables.Run) tables.TaskSpec {
	if i, ok := at[r.TaskID]; ok {
		return specs[i]
	}
	return tables.TaskSpec{ID: r.TaskID, Repository: r.Repository, Family: r.Family}
}

// specIndex maps each task ID of specs to its first spec's index, so that
// a campaign of many tasks is not searched task by task for each.
func specIndex(specs []tables.TaskSpec) map[string]int {
	at := make(map[string]int, len(specs))
	for i, s := range specs {
		if _, ok := at[s.ID]; !ok {
			at[s.ID] = i
		}
	}
	return at
}

// add counts one run of the task-arm and keeps the values its medians need.
func (ta *taskArm) add(r *tables.Run) {
	v := ta.values
	ta.nRuns++
	ta.criticalFailures += r.CriticalFailures
	if r.Scored {
		ta.scored++
	}
	v.rs.add(r.RNum, r.RDen, r.Scored) // unknown when unscored
	v.us.add(r.UNum, r.UDen, r.Scored)
	v.costs.add(r.WorkflowCost)
	v.reviewCosts.add(r.ReviewCost)
	v.ns, v.reviewNS = append(v.ns, r.WorkflowNS), append(v.reviewNS, r.ReviewNS)
	ta.timeComplete = ta.timeComplete && r.TimeComplete
	ta.hasU = ta.hasU || r.UDen > 0 || r.U != nil
	ta.cost.add(r.WorkflowCost)
	ta.ns.addInt(r.WorkflowNS)
	if r.Cold {
		ta.coldRuns++
	}
	ta.answerable = r.RDen
}

// computeMedians computes the medians of the values added and drops them.
// It sorts the values in place: no median refers to them, so summarize
// hands them to a later task-arm (reuseValues).
func (ta *taskArm) computeMedians() {
	v := ta.values
	ta.medianR, ta.medianU = v.rs.median(), v.us.median()
	ta.medianCost, ta.medianReviewCost = v.costs.sortedMedian(), v.reviewCosts.sortedMedian()
	slices.Sort(v.ns)
	slices.Sort(v.reviewNS)
	ta.medianNS, ta.medianReviewNS = stats.MedianSortedInt64(v.ns), stats.MedianSortedInt64(v.reviewNS)
	ta.values = nil
}

// reuseValues is empty taskValues: the last of spare, emptied with its
// slices' room kept, or new ones.
func reuseValues(spare *[]*taskValues) *taskValues {
	n := len(*spare)
	if n == 0 {
		return &taskValues{}
	}
	v := (*spare)[n-1]
	*spare = (*spare)[:n-1]
	*v = taskValues{
		rs: fractions{xs: v.rs.xs[:0]}, us: fractions{xs: v.us.xs[:0]},
		costs: amounts{xs: v.costs.xs[:0]}, reviewCosts: amounts{xs: v.reviewCosts.xs[:0]},
		ns: v.ns[:0], reviewNS: v.reviewNS[:0],
	}
	return v
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
	rNum, rDen := tables.FractionColumns(ta.medianR)
	uNum, uDen := tables.FractionColumns(ta.medianU)
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
		MedianRNum:       rNum,
		MedianRDen:       rDen,
		MedianU:          stats.Float(ta.medianU),
		MedianUExact:     exactText(ta.medianU),
		MedianUNum:       uNum,
		MedianUDen:       uDen,
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
	costs := map[key]*exactSum{} // Σ workflow cost of every run
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
		costs[k].merge(&ta.cost)
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
