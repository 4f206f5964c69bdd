package rules

// GateUnit is what a gate's observed value and threshold measure, so a
// report prints them in that unit: a count of tasks, runs or sessions; a
// value (or difference) of R on [0, 1]; a ratio of cost or time; or an
// amount of money in the rate cards' currency.
type GateUnit string

const (
	GateUnitCount GateUnit = "count"
	GateUnitR     GateUnit = "r"
	GateUnitRatio GateUnit = "ratio"
	GateUnitMoney GateUnit = "money"
)

// Unit is the unit of the named gate's observation; "" for a name the
// registry does not know.
func (n GateName) Unit() GateUnit { return gateUnits[n] }

var gateUnits = map[GateName]GateUnit{
	GateCriticalSource: GateUnitCount,
	GateTaskFloor:      GateUnitR,
	GateMacroFloor:     GateUnitR,
	GateUncertainty:    GateUnitCount,
	GateMacroGain:      GateUnitR,
	GateImprovedTasks:  GateUnitCount,
	GateMaxTaskDrop:    GateUnitR,
	GateProtocol:       GateUnitCount,
	GateCostAggregate:  GateUnitRatio,
	GateTimeAggregate:  GateUnitRatio,
	GateCostTask:       GateUnitRatio,
	GateTimeTask:       GateUnitRatio,
	GateCostPair:       GateUnitRatio,
	GateTimePair:       GateUnitRatio,
	GateSessionLimits:  GateUnitCount,

	GateBaselineCostAggregate:   GateUnitRatio,
	GateBaselineTimeAggregate:   GateUnitRatio,
	GateBaselineCriticalLoss:    GateUnitCount,
	GateComparatorMacroLoss:     GateUnitR,
	GateComparatorCostAggregate: GateUnitRatio,
	GateComparatorTimeAggregate: GateUnitRatio,
	GateBaselineCostTask:        GateUnitRatio,
	GateBaselineTimeTask:        GateUnitRatio,
	GateComparatorCostTask:      GateUnitRatio,
	GateComparatorTimeTask:      GateUnitRatio,
	GateBaselineCostPair:        GateUnitRatio,
	GateBaselineTimePair:        GateUnitRatio,
	GateComparatorCostPair:      GateUnitRatio,
	GateComparatorTimePair:      GateUnitRatio,
	GateWorkflowLimits:          GateUnitCount,

	GateRbContract:           GateUnitCount,
	GateRbRegression:         GateUnitCount,
	GateRbLabelsSettled:      GateUnitCount,
	GateRbBlockingSelection:  GateUnitCount,
	GateRbDetectionSelection: GateUnitCount,
	GateRbBlockingFinal:      GateUnitCount,
	GateRbDetectionFinal:     GateUnitCount,
	GateRbDecidability:       GateUnitCount,
	GateRbExecutionErrors:    GateUnitCount,
	GateRbBudget:             GateUnitMoney,
}
