package aggregate

import (
	"maps"
	"math/big"
	"slices"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// figures computes every number the reports show from all, the task
// summaries of every run (the same medians the gates read: summarize),
// over every split. The report formats them and computes nothing.
func figures(c *tables.Campaign, all []*taskArm, runs runSet, sessions *sessionFacts) tables.Figures {
	arms, tasks := armOrder(c, all), taskOrder(c, all)
	byArm := map[string]map[string]*taskArm{}
	for _, arm := range arms {
		byArm[arm] = map[string]*taskArm{}
	}
	for _, ta := range all {
		byArm[ta.arm][ta.spec.ID] = ta
	}
	f := tables.Figures{CostArms: []tables.ArmCostTime{}, CostRatios: []tables.ArmCostRatio{},
		EvidenceArms: []tables.SplitArmMacro{}, EvidenceTasks: []tables.TaskArmMedians{}}
	f.SessionReferenceCost, f.SessionActualCharge = sessions.referenceCost, sessions.actualCharge
	for i, arm := range arms {
		f.CostArms = append(f.CostArms, armCostTime(arm, runs.ofArm(arm), tasks, byArm[arm]))
		if i == 0 {
			f.Baseline = arm
			continue
		}
		treat, ref := byArm[arm], byArm[f.Baseline]
		f.CostRatios = append(f.CostRatios, tables.ArmCostRatio{
			Arm:        arm,
			Cost:       sumRatio(tasks, treat, ref, costMedian, false),
			ReviewCost: sumRatio(tasks, treat, ref, costMedian, true),
			Time:       sumRatio(tasks, treat, ref, timeMedian, false),
			ReviewTime: sumRatio(tasks, treat, ref, timeMedian, true),
		})
	}
	split := map[string]string{}
	for _, t := range c.Manifest.Design.Tasks {
		split[t.ID] = t.Split
	}
	for _, sp := range splitOrder(tasks, split) {
		for _, arm := range arms {
			if m, ok := splitMacro(sp, arm, tasks, split, byArm[arm], &f.EvidenceTasks); ok {
				f.EvidenceArms = append(f.EvidenceArms, m)
			}
		}
	}
	at := firstIndex(tasks)
	slices.SortStableFunc(f.EvidenceTasks, func(x, y tables.TaskArmMedians) int {
		return at(x.Task) - at(y.Task)
	})
	return f
}

// sumRatio is Σ median(treat) / Σ median(ref) over tasks: the aggregate
// cost and time ratio, for the gates and the reports alike.
func sumRatio(tasks []string, treat, ref map[string]*taskArm, median medianOf, review bool) *big.Rat {
	var num, den []*big.Rat
	for _, id := range tasks {
		num = append(num, median(treat[id], review))
		den = append(den, median(ref[id], review))
	}
	return stats.RatioOfSums(num, den)
}

// armCostTime sums one arm's runs and task medians; runs are the arm's.
// Its medians over every run of the arm hold four integers per run while
// it runs.
func armCostTime(arm string, runs runSet, tasks []string, tas map[string]*taskArm) tables.ArmCostTime {
	a := tables.ArmCostTime{Arm: arm}
	var cost, review amounts
	var ns, reviewNS []int64
	for r := range runs.All() {
		a.Runs++
		cost.add(r.WorkflowCost)
		review.add(r.ReviewCost)
		ns, reviewNS = append(ns, r.WorkflowNS), append(reviewNS, r.ReviewNS)
		a.TotalWorkflowNS += r.WorkflowNS
		a.TotalReviewNS += r.ReviewNS
	}
	a.TotalWorkflowCost, a.MedianWorkflowCost = cost.total(), cost.median()
	a.TotalReviewCost, a.MedianReviewCost = review.total(), review.median()
	a.MedianWorkflowNS, a.MedianReviewNS = stats.MedianInt64(ns), stats.MedianInt64(reviewNS)
	var tc, trc, tn, trn []*big.Rat
	for _, id := range tasks {
		ta := tas[id]
		if ta == nil {
			continue
		}
		tc, trc = append(tc, ta.medianCost), append(trc, ta.medianReviewCost)
		tn, trn = append(tn, ta.medianNS), append(trn, ta.medianReviewNS)
	}
	a.SumTaskMedianCost, a.SumTaskMedianReviewCost = stats.Sum(tc), stats.Sum(trc)
	a.SumTaskMedianNS, a.SumTaskMedianReviewNS = stats.Sum(tn), stats.Sum(trn)
	return a
}

// splitMacro is one arm's macro-averages over the tasks of one split; it
// appends each task's medians to rows. ok is false when the arm has no run
// in the split.
func splitMacro(sp, arm string, tasks []string, split map[string]string, tas map[string]*taskArm, rows *[]tables.TaskArmMedians) (m tables.SplitArmMacro, ok bool) {
	m = tables.SplitArmMacro{Arm: arm, Split: sp}
	var rs, us []*big.Rat
	for _, id := range tasks {
		ta := tas[id]
		if ta == nil || split[id] != sp {
			continue
		}
		*rows = append(*rows, tables.TaskArmMedians{Task: id, Split: sp, Arm: arm, Runs: ta.nRuns, ScoredRuns: ta.scored,
			MedianR: ta.medianR, MedianU: ta.uncertaintyMedian()})
		m.Tasks++
		rs = append(rs, ta.medianR)
		if ta.hasU {
			m.UncertaintyTasks++
			us = append(us, ta.medianU)
		}
	}
	m.MacroMedianR, m.MacroMedianU = stats.Mean(rs), stats.Mean(us)
	return m, m.Tasks > 0
}

// uncertaintyMedian is the task median of U, nil when the task has no
// unanswerable obligation.
func (ta *taskArm) uncertaintyMedian() *big.Rat {
	if !ta.hasU {
		return nil
	}
	return ta.medianU
}

// splitOrder lists the splits of tasks in first-seen order.
func splitOrder(tasks []string, split map[string]string) []string {
	var out []string
	for _, t := range tasks {
		if !slices.Contains(out, split[t]) {
			out = append(out, split[t])
		}
	}
	return out
}

// armOrder is the manifest's arm order (baseline first), then any other
// arm of the runs (of the task summaries all, one per task and arm of a
// run), sorted.
func armOrder(c *tables.Campaign, all []*taskArm) []string {
	var manifest []string
	for _, a := range c.Manifest.Design.Arms {
		manifest = append(manifest, a.ID)
	}
	seen := map[string]bool{}
	for _, ta := range all {
		seen[ta.arm] = true
	}
	return withExtras(manifest, seen)
}

// taskOrder is the manifest's task order, then any other task of the runs
// (of the task summaries all), sorted.
func taskOrder(c *tables.Campaign, all []*taskArm) []string {
	var manifest []string
	for _, t := range c.Manifest.Design.Tasks {
		manifest = append(manifest, t.ID)
	}
	seen := map[string]bool{}
	for _, ta := range all {
		seen[ta.spec.ID] = true
	}
	return withExtras(manifest, seen)
}

// withExtras returns first (deduplicated) followed by the sorted keys of
// seen not in first.
func withExtras(first []string, seen map[string]bool) []string {
	out := []string{}
	in := make(map[string]bool, len(first))
	for _, id := range first {
		if !in[id] {
			in[id] = true
			out = append(out, id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(seen)) {
		if !in[id] {
			in[id] = true
			out = append(out, id)
		}
	}
	return out
}

// firstIndex returns slices.Index of ids as a function, with the index of
// each ID looked up rather than searched for: -1 for an ID not in ids.
func firstIndex(ids []string) func(string) int {
	at := make(map[string]int, len(ids))
	for i, id := range ids {
		if _, ok := at[id]; !ok {
			at[id] = i
		}
	}
	return func(id string) int {
		if i, ok := at[id]; ok {
			return i
		}
		return -1
	}
}
