package aggregate

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// PresetSystemComparison is the G5 preset (seed 000 §6): the candidate
// system (comparator_role candidate) is judged against the baseline (the
// first system, Native) and the comparator (Serena) over R_sys, the
// repository-answerable coverage computed by stages/score.
const PresetSystemComparison = "system-comparison-v1"

// Gate names of the system-comparison preset beyond the shared g1, g2, g4
// and g5_session_limits gates. "baseline" and "comparator" name the
// systems' roles, so the names are stable whatever the systems are called.
const (
	GateBaselineCostAggregate   = "sc_baseline_cost_aggregate"
	GateBaselineTimeAggregate   = "sc_baseline_time_aggregate"
	GateBaselineCriticalLoss    = "sc_baseline_critical_loss"
	GateComparatorMacroLoss     = "sc_comparator_macro_loss"
	GateComparatorCostAggregate = "sc_comparator_cost_aggregate"
	GateComparatorTimeAggregate = "sc_comparator_time_aggregate"
	GateBaselineCostTask        = "sc_baseline_cost_task"
	GateBaselineTimeTask        = "sc_baseline_time_task"
	GateComparatorCostTask      = "sc_comparator_cost_task"
	GateComparatorTimeTask      = "sc_comparator_time_task"
	GateBaselineCostPair        = "sc_baseline_cost_pair"
	GateBaselineTimePair        = "sc_baseline_time_pair"
	GateComparatorCostPair      = "sc_comparator_cost_pair"
	GateComparatorTimePair      = "sc_comparator_time_pair"
)

// systemThresholds lists every gate of the G5 preset with its default
// bound, in gate order. Ratios are Σ task-median(candidate) /
// Σ task-median(other system); "improve by at least 15%" is a ratio of at
// most 0.85, "regress at most 5%" a ratio of at most 1.05.
func systemThresholds() []threshold {
	return []threshold{
		{name: GateCriticalSource, op: atMost, text: "0"},
		{name: GateTaskFloor, op: atLeast, text: "0.80"},
		{name: GateMacroFloor, op: atLeast, text: "0.90"},
		{name: GateUncertainty, op: atMost, text: "0"},
		{name: GateProtocol, op: atMost, text: "0"},
		{name: GateBaselineCostAggregate, op: atMost, text: "0.85"},
		{name: GateBaselineTimeAggregate, op: atMost, text: "0.85"},
		{name: GateBaselineCriticalLoss, op: atMost, text: "0"},
		{name: GateComparatorMacroLoss, op: atMost, text: "0.05"},
		{name: GateComparatorCostAggregate, op: atMost, text: "1.05"},
		{name: GateComparatorTimeAggregate, op: atMost, text: "1.05"},
		{name: GateBaselineCostTask, op: atMost, text: "1.15"},
		{name: GateBaselineTimeTask, op: atMost, text: "1.15"},
		{name: GateComparatorCostTask, op: atMost, text: "1.15"},
		{name: GateComparatorTimeTask, op: atMost, text: "1.15"},
		{name: GateBaselineCostPair, op: atMost, text: "1.25"},
		{name: GateBaselineTimePair, op: atMost, text: "1.25"},
		{name: GateComparatorCostPair, op: atMost, text: "1.25"},
		{name: GateComparatorTimePair, op: atMost, text: "1.25"},
		{name: GateSessionLimits, op: atMost, text: "0"},
	}
}

// gainGates are the gates whose failure means the candidate shows no
// advantage over the baseline at all: the decision is then stop_no_gain.
var gainGates = []string{GateBaselineCostAggregate, GateBaselineTimeAggregate}

// systemJudges holds the candidate judged against each other system; vsCmp
// is nil when the design names no comparator.
type systemJudges struct {
	vsBase, vsCmp *judge
}

// evaluateSystems returns the G5 gate rows for the candidate, in policy
// order.
func evaluateSystems(pol *policy, c *tables.Campaign, in *inputs, judged []tables.Run, base, cand, cmpArm string) []tables.Gate {
	sj := systemJudges{vsBase: newJudge(pol, c, in, judged, base, cand)}
	if cmpArm != "" {
		sj.vsCmp = newJudge(pol, c, in, judged, cmpArm, cand)
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
	case GateCriticalSource:
		return b.criticalSource(t)
	case GateTaskFloor:
		return b.taskFloor(t)
	case GateMacroFloor:
		return b.macroFloor(t)
	case GateUncertainty:
		return b.uncertainty(t)
	case GateProtocol:
		return b.protocol(t)
	case GateSessionLimits:
		return b.sessionLimits(t)
	case GateBaselineCriticalLoss:
		return b.criticalLoss(t)
	}
	j := b
	if strings.HasPrefix(t.name, "sc_comparator_") {
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
	case strings.HasSuffix(t.name, "_macro_loss"):
		return j.macroLoss(t)
	case strings.HasSuffix(t.name, "_cost_aggregate"):
		return j.aggregateRatio(t, costMedian, "cost")
	case strings.HasSuffix(t.name, "_time_aggregate"):
		return j.aggregateRatio(t, timeMedian, "time")
	case strings.HasSuffix(t.name, "_cost_task"):
		return j.taskRatio(t, costMedian)
	case strings.HasSuffix(t.name, "_time_task"):
		return j.taskRatio(t, timeMedian)
	case strings.HasSuffix(t.name, "_cost_pair"):
		return j.pairRatio(t, runCost)
	case strings.HasSuffix(t.name, "_time_pair"):
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
