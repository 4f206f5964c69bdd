package aggregate

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// gainGates are the gates whose failure means the candidate shows no
// advantage over the baseline at all: the decision is then stop_no_gain.
var gainGates = []rules.GateName{rules.GateBaselineCostAggregate, rules.GateBaselineTimeAggregate}

// systemJudges holds the candidate judged against each other system; vsCmp
// is nil when the design names no comparator.
type systemJudges struct {
	vsBase, vsCmp *judge
	judged        runSet // every system's judged runs
}

// evaluateSystems returns the G5 gate rows for the candidate, in policy
// order.
func evaluateSystems(pol *policy, c *tables.Campaign, in *inputs, judged runSet, base, cand, cmpArm string) []tables.Gate {
	sj := systemJudges{vsBase: in.judgeOf(pol, c, base, cand), judged: judged}
	if cmpArm != "" {
		sj.vsCmp = in.judgeOf(pol, c, cmpArm, cand)
	}
	gates := make([]tables.Gate, 0, len(pol.thresholds))
	for _, t := range pol.thresholds {
		gates = append(gates, sj.check(t))
	}
	return gates
}

// check evaluates one threshold of the G5 preset.
func (sj systemJudges) check(t threshold) tables.Gate {
	b := sj.vsBase
	switch t.name {
	case rules.GateCriticalSource:
		return b.criticalSource(t)
	case rules.GateTaskFloor:
		return b.taskFloor(t)
	case rules.GateMacroFloor:
		return b.macroFloor(t)
	case rules.GateUncertainty:
		return b.uncertainty(t)
	case rules.GateProtocol:
		return b.protocol(t)
	case rules.GateSessionLimits:
		return b.sessionLimits(t)
	case rules.GateBaselineCriticalLoss:
		return b.criticalLoss(t)
	case rules.GateWorkflowLimits:
		return workflowLimits(b, t, sj.judged)
	}
	j := b
	if strings.HasPrefix(string(t.name), "sc_comparator_") {
		if sj.vsCmp == nil {
			return b.gate(t, nil, nil, "the design names no comparator system")
		}
		j = sj.vsCmp
	}
	return j.systemRatio(t)
}

// systemRatio evaluates a cost, time or macro-loss gate of one judge.
func (j *judge) systemRatio(t threshold) tables.Gate {
	switch {
	case strings.HasSuffix(string(t.name), "_macro_loss"):
		return j.macroLoss(t)
	case strings.HasSuffix(string(t.name), "_cost_aggregate"):
		return j.blockCost(j.aggregateRatio(t, costMedian, "cost"))
	case strings.HasSuffix(string(t.name), "_time_aggregate"):
		return j.aggregateRatio(t, timeMedian, "time")
	case strings.HasSuffix(string(t.name), "_cost_task"):
		return j.blockCost(j.taskRatio(t, costMedian))
	case strings.HasSuffix(string(t.name), "_time_task"):
		return j.taskRatio(t, timeMedian)
	case strings.HasSuffix(string(t.name), "_cost_pair"):
		return j.blockCost(j.pairRatio(t, runCost))
	case strings.HasSuffix(string(t.name), "_time_pair"):
		return j.pairRatio(t, runTime)
	}
	return j.gate(t, nil, nil, "unknown gate") // unreachable: thresholds come from systemThresholds
}

// macroLoss is macro(other system) − macro(candidate) of task-median
// R_sys; a gain is a negative loss.
func (j *judge) macroLoss(t threshold) tables.Gate {
	cand, other := j.macro(j.treat), j.macro(j.ref)
	var loss *big.Rat
	if cand != nil && other != nil {
		loss = new(big.Rat).Sub(other, cand)
	}
	return j.gate(t, loss, nil, fmt.Sprintf("macro-average task-median R_sys %s %s vs %s %s", j.arm, stats.FormatRat(cand), j.base, stats.FormatRat(other)))
}

// criticalLoss counts the tasks where the candidate has more critical
// failures (critical obligations not met, critical wrong claims,
// completion failures) over its repetitions than the baseline: "no
// critical quality loss" against Native.
func (j *judge) criticalLoss(t threshold) tables.Gate {
	var failing []string
	for _, id := range j.tasks {
		cand, base := j.treat[id], j.ref[id]
		if cand == nil || base == nil || cand.criticalFailures > base.criticalFailures {
			failing = append(failing, id)
		}
	}
	return j.countGate(t, failing, fmt.Sprintf("%d of %d tasks where %s has more critical failures than %s", len(failing), len(j.tasks), j.arm, j.base))
}
