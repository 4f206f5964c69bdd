package aggregate

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// judge evaluates one treatment arm against the baseline over the runs a
// policy judges.
type judge struct {
	pol        *policy
	arm, base  string
	tasks      []string // judged task IDs, sorted
	treat, ref map[string]*taskArm
	runs       runSet   // the judged runs of both arms
	treatRuns  runSet   // the judged runs of the treatment arm
	overLimits []string // sessions not shown within their absolute limits
	// costBlockers are the sessions whose cost cannot be shown within a
	// hard spend bound, with the reason; any makes every cost gate fail.
	costBlockers []costBlocker
}

// evaluate returns the policy's gate rows for arm over the judged runs, in
// policy order.
func evaluate(pol *policy, c *tables.Campaign, in *inputs, base, arm string) []tables.Gate {
	j := in.judgeOf(pol, c, base, arm)
	checks := map[rules.GateName]func(threshold) tables.Gate{
		rules.GateCriticalSource: j.criticalSource,
		rules.GateTaskFloor:      j.taskFloor,
		rules.GateMacroFloor:     j.macroFloor,
		rules.GateUncertainty:    j.uncertainty,
		rules.GateMacroGain:      j.macroGain,
		rules.GateImprovedTasks:  j.improvedTasks,
		rules.GateMaxTaskDrop:    j.maxTaskDrop,
		rules.GateProtocol:       j.protocol,
		rules.GateCostAggregate:  func(t threshold) tables.Gate { return j.blockCost(j.aggregateRatio(t, costMedian, "cost")) },
		rules.GateTimeAggregate:  func(t threshold) tables.Gate { return j.aggregateRatio(t, timeMedian, "time") },
		rules.GateCostTask:       func(t threshold) tables.Gate { return j.blockCost(j.taskRatio(t, costMedian)) },
		rules.GateTimeTask:       func(t threshold) tables.Gate { return j.taskRatio(t, timeMedian) },
		rules.GateCostPair:       func(t threshold) tables.Gate { return j.blockCost(j.pairRatio(t, runCost)) },
		rules.GateTimePair:       func(t threshold) tables.Gate { return j.pairRatio(t, runTime) },
		rules.GateSessionLimits:  j.sessionLimits,
	}
	gates := make([]tables.Gate, 0, len(pol.thresholds))
	for _, t := range pol.thresholds {
		gates = append(gates, checks[t.name](t))
	}
	return gates
}

func newJudge(pol *policy, c *tables.Campaign, in *inputs, judged runSet, base, arm string) *judge {
	j := &judge{pol: pol, arm: arm, base: base, treat: map[string]*taskArm{}, ref: map[string]*taskArm{},
		runs: judged.where(func(r *tables.Run) bool { return r.Arm == arm || r.Arm == base }), treatRuns: judged.ofArm(arm)}
	listed := map[string]bool{}
	for _, ta := range summarize(c.Manifest.Design.Tasks, j.runs) {
		switch ta.arm {
		case arm:
			j.treat[ta.spec.ID] = ta
		case base:
			j.ref[ta.spec.ID] = ta
		default:
			continue
		}
		if !listed[ta.spec.ID] {
			listed[ta.spec.ID] = true
			j.tasks = append(j.tasks, ta.spec.ID)
		}
	}
	slices.Sort(j.tasks)
	j.overLimits = in.sessions.overLimits
	j.costBlockers = in.sessions.costBlockers
	return j
}

// gate fills a row. A gate passes when its observation meets the
// threshold and nothing is listed as failing.
func (j *judge) gate(t threshold, observed *big.Rat, failing []string, detail string) tables.Gate {
	g := tables.Gate{
		Gate:      t.name,
		Arm:       j.arm,
		Observed:  stats.FormatRat(observed),
		Threshold: t.String(),
		Pass:      t.pass(observed) && len(failing) == 0,
		Failing:   failing,
		Detail:    detail,
	}
	g.SetNumbers(observed, rules.Comparison(t.op), t.value)
	return g
}

// countGate bounds the number of failing items.
func (j *judge) countGate(t threshold, failing []string, detail string) tables.Gate {
	g := j.gate(t, big.NewRat(int64(len(failing)), 1), nil, detail)
	g.Failing = failing
	return g
}

func runName(r *tables.Run) string { return fmt.Sprintf("%s/r%d", r.TaskID, r.Repetition) }

// criticalSource is gate (1): zero critical failures in every treatment
// review and every source gate passes. An unscored run cannot show either.
func (j *judge) criticalSource(t threshold) tables.Gate {
	var failing []string
	var critical, source, n int64
	for r := range j.treatRuns.All() {
		n++
		critical += r.CriticalFailures
		if !r.SourceGate {
			source++
		}
		if !r.Scored || r.CriticalCompletionFailed || r.CriticalFailures > 0 || !r.SourceGate {
			failing = append(failing, runName(r))
		}
	}
	return j.countGate(t, failing, fmt.Sprintf("%d critical failures and %d source-gate failures in %d %s reviews", critical, source, n, j.arm))
}

// taskFloor is gate (2a): every task-median R of the treatment meets the floor.
func (j *judge) taskFloor(t threshold) tables.Gate {
	var failing []string
	var ms []*big.Rat
	for _, id := range j.tasks {
		m := medianR(j.treat[id])
		if !t.pass(m) {
			failing = append(failing, id)
		}
		ms = append(ms, m)
	}
	return j.gate(t, smallest(ms), failing, "lowest task-median R of "+j.arm)
}

func medianR(ta *taskArm) *big.Rat {
	if ta == nil {
		return nil
	}
	return ta.medianR
}

// macro is the macro-average of task-median R over the judged tasks; nil
// when any task median is unknown.
func (j *judge) macro(tas map[string]*taskArm) *big.Rat {
	ms := make([]*big.Rat, 0, len(j.tasks))
	for _, id := range j.tasks {
		ms = append(ms, medianR(tas[id]))
	}
	return stats.Mean(ms)
}

// macroFloor is gate (2b).
func (j *judge) macroFloor(t threshold) tables.Gate {
	return j.gate(t, j.macro(j.treat), nil, fmt.Sprintf("macro-average task-median R of %s over %d tasks", j.arm, len(j.tasks)))
}

// uncertainty is gate (2c). Reading: an uncertainty case is a treatment
// run of a task with unanswerable obligations; it passes when every
// unanswerable obligation is unknown_credited (U = 1).
func (j *judge) uncertainty(t threshold) tables.Gate {
	var failing []string
	var cases int
	for r := range j.treatRuns.All() {
		if r.UDen == 0 {
			continue
		}
		cases++
		if !r.Scored || r.UNum != r.UDen {
			failing = append(failing, runName(r))
		}
	}
	return j.countGate(t, failing, fmt.Sprintf("%d of %d uncertainty cases of %s fail (U below 1)", len(failing), cases, j.arm))
}

// macroGain is gate (3a): macro(treatment) − macro(baseline).
func (j *judge) macroGain(t threshold) tables.Gate {
	treat, ref := j.macro(j.treat), j.macro(j.ref)
	var gain *big.Rat
	if treat != nil && ref != nil {
		gain = new(big.Rat).Sub(treat, ref)
	}
	return j.gate(t, gain, nil, fmt.Sprintf("macro-average task-median R %s %s vs %s %s", j.arm, stats.FormatRat(treat), j.base, stats.FormatRat(ref)))
}

// improvedTasks is gate (3b): tasks whose treatment median is strictly
// greater than the baseline's. Failing lists the tasks not improved.
func (j *judge) improvedTasks(t threshold) tables.Gate {
	var improved int64
	var notImproved []string
	for _, id := range j.tasks {
		b, a := medianR(j.treat[id]), medianR(j.ref[id])
		if a != nil && b != nil && stats.Cmp(b, a) > 0 {
			improved++
		} else {
			notImproved = append(notImproved, id)
		}
	}
	g := j.gate(t, big.NewRat(improved, 1), nil, fmt.Sprintf("%d of %d tasks improved (strictly greater task-median R)", improved, len(j.tasks)))
	g.Failing = notImproved
	return g
}

// maxTaskDrop is gate (3c): no task-median R drop above the bound.
func (j *judge) maxTaskDrop(t threshold) tables.Gate {
	var failing []string
	var worst *big.Rat
	known := true
	for _, id := range j.tasks {
		b, a := medianR(j.treat[id]), medianR(j.ref[id])
		if a == nil || b == nil {
			failing, known = append(failing, id), false
			continue
		}
		drop := new(big.Rat).Sub(a, b)
		if !t.pass(drop) {
			failing = append(failing, id)
		}
		if worst == nil || stats.Cmp(drop, worst) > 0 {
			worst = drop
		}
	}
	if !known {
		worst = nil
	}
	return j.gate(t, worst, failing, "largest task-median R drop of "+j.arm+" below "+j.base)
}

// protocol is gate (4): the protocol gate passes in every treatment review.
func (j *judge) protocol(t threshold) tables.Gate {
	var failing []string
	var n int
	for r := range j.treatRuns.All() {
		n++
		if !r.ProtocolGate {
			failing = append(failing, runName(r))
		}
	}
	return j.countGate(t, failing, fmt.Sprintf("%d of %d %s reviews fail the disposition and cross-reference checks", len(failing), n, j.arm))
}

// sessionLimits is the absolute per-session limit gate.
func (j *judge) sessionLimits(t threshold) tables.Gate {
	return j.countGate(t, j.overLimits, fmt.Sprintf("%d sessions beyond an absolute limit", len(j.overLimits)))
}
