package rules

import "slices"

// GateName names one gate. Names are stable: they appear in the gates
// table, in decisions and in manifests' threshold overrides.
type GateName string

// Gates of the paired-review presets (rule G2, A8); g1, g2, g4 and
// g5_session_limits are shared by the system-comparison preset.
const (
	GateCriticalSource GateName = "g1_critical_source"
	GateTaskFloor      GateName = "g2_task_floor"
	GateMacroFloor     GateName = "g2_macro_floor"
	GateUncertainty    GateName = "g2_uncertainty"
	GateMacroGain      GateName = "g3_macro_gain"
	GateImprovedTasks  GateName = "g3_improved_tasks"
	GateMaxTaskDrop    GateName = "g3_max_task_drop"
	GateProtocol       GateName = "g4_protocol"
	GateCostAggregate  GateName = "g5_cost_aggregate"
	GateTimeAggregate  GateName = "g5_time_aggregate"
	GateCostTask       GateName = "g5_cost_task"
	GateTimeTask       GateName = "g5_time_task"
	GateCostPair       GateName = "g5_cost_pair"
	GateTimePair       GateName = "g5_time_pair"
	GateSessionLimits  GateName = "g5_session_limits"
)

// Gates of the system-comparison preset (rule G5). "baseline" and
// "comparator" name the systems' roles, so the names are stable whatever
// the systems are called.
const (
	GateBaselineCostAggregate   GateName = "sc_baseline_cost_aggregate"
	GateBaselineTimeAggregate   GateName = "sc_baseline_time_aggregate"
	GateBaselineCriticalLoss    GateName = "sc_baseline_critical_loss"
	GateComparatorMacroLoss     GateName = "sc_comparator_macro_loss"
	GateComparatorCostAggregate GateName = "sc_comparator_cost_aggregate"
	GateComparatorTimeAggregate GateName = "sc_comparator_time_aggregate"
	GateBaselineCostTask        GateName = "sc_baseline_cost_task"
	GateBaselineTimeTask        GateName = "sc_baseline_time_task"
	GateComparatorCostTask      GateName = "sc_comparator_cost_task"
	GateComparatorTimeTask      GateName = "sc_comparator_time_task"
	GateBaselineCostPair        GateName = "sc_baseline_cost_pair"
	GateBaselineTimePair        GateName = "sc_baseline_time_pair"
	GateComparatorCostPair      GateName = "sc_comparator_cost_pair"
	GateComparatorTimePair      GateName = "sc_comparator_time_pair"
	GateWorkflowLimits          GateName = "sc_workflow_limits"
)

// Gates of the reviewer-benchmark preset (rule G6): the candidate profile
// against the baseline. Both profiles review every case the same number
// of times, so their eligible attempts are equal and counts compare
// exactly as rates do.
const (
	GateRbContract           GateName = "rb_contract"
	GateRbRegression         GateName = "rb_regression"
	GateRbLabelsSettled      GateName = "rb_labels_settled"
	GateRbBlockingSelection  GateName = "rb_blocking_selection"
	GateRbDetectionSelection GateName = "rb_detection_selection"
	GateRbBlockingFinal      GateName = "rb_blocking_final"
	GateRbDetectionFinal     GateName = "rb_detection_final"
	GateRbDecidability       GateName = "rb_decidability"
	GateRbExecutionErrors    GateName = "rb_execution_errors"
	GateRbBudget             GateName = "rb_budget"
)

// Comparison is how a gate's observation meets its threshold; thresholds
// are inclusive (rule G7).
type Comparison string

const (
	AtLeast Comparison = ">="
	AtMost  Comparison = "<="
)

// GateDoc documents one gate: how it compares, the rule it enforces and
// what it observes.
type GateDoc struct {
	Name     GateName
	Compare  Comparison
	Rule     RuleID
	Observed string // one line: the observation compared with the threshold
}

// Gates returns every gate, paired-review gates first, in preset order.
func Gates() []GateDoc { return slices.Clone(gateDocs) }

// FindGate returns the documentation of the named gate.
func FindGate(name GateName) (GateDoc, bool) {
	for _, g := range gateDocs {
		if g.Name == name {
			return g, true
		}
	}
	return GateDoc{}, false
}

var gateDocs = []GateDoc{
	{GateCriticalSource, AtMost, "G2", "treatment reviews with a critical failure or a failing source gate (an unscored run counts)"},
	{GateTaskFloor, AtLeast, "G2", "the lowest task-median R of the treatment; every task is listed that falls below"},
	{GateMacroFloor, AtLeast, "G2", "the treatment's macro-average of task-median R"},
	{GateUncertainty, AtMost, "G2", "uncertainty cases (runs of tasks with unanswerable obligations) not fully credited"},
	{GateMacroGain, AtLeast, "G2", "macro-average of task-median R, treatment minus baseline"},
	{GateImprovedTasks, AtLeast, "G7", "tasks whose treatment median R is strictly greater than the baseline's"},
	{GateMaxTaskDrop, AtMost, "G7", "the largest task-median R drop from baseline to treatment"},
	{GateProtocol, AtMost, "G2", "treatment reviews whose protocol gate (dispositions and cross-references) fails"},
	{GateCostAggregate, AtMost, "A8", "Σ task-median cost (treatment) / Σ task-median cost (baseline)"},
	{GateTimeAggregate, AtMost, "A8", "Σ task-median time (treatment) / Σ task-median time (baseline)"},
	{GateCostTask, AtMost, "A8", "the largest task-median cost ratio"},
	{GateTimeTask, AtMost, "A8", "the largest task-median time ratio"},
	{GateCostPair, AtMost, "A8", "the largest paired complete-workflow cost ratio"},
	{GateTimePair, AtMost, "A8", "the largest paired complete-workflow time ratio"},
	{GateSessionLimits, AtMost, "A6", "sessions (or the campaign) beyond an absolute limit"},
	{GateBaselineCostAggregate, AtMost, "G5", "Σ task-median cost (candidate) / Σ task-median cost (baseline)"},
	{GateBaselineTimeAggregate, AtMost, "G5", "Σ task-median time (candidate) / Σ task-median time (baseline)"},
	{GateBaselineCriticalLoss, AtMost, "G5", "tasks where the candidate has more critical failures than the baseline"},
	{GateComparatorMacroLoss, AtMost, "G5", "macro-average of task-median R_sys, comparator minus candidate"},
	{GateComparatorCostAggregate, AtMost, "G5", "Σ task-median cost (candidate) / Σ task-median cost (comparator)"},
	{GateComparatorTimeAggregate, AtMost, "G5", "Σ task-median time (candidate) / Σ task-median time (comparator)"},
	{GateBaselineCostTask, AtMost, "G5", "the largest task-median cost ratio against the baseline"},
	{GateBaselineTimeTask, AtMost, "G5", "the largest task-median time ratio against the baseline"},
	{GateComparatorCostTask, AtMost, "G5", "the largest task-median cost ratio against the comparator"},
	{GateComparatorTimeTask, AtMost, "G5", "the largest task-median time ratio against the comparator"},
	{GateBaselineCostPair, AtMost, "G5", "the largest paired workflow cost ratio against the baseline"},
	{GateBaselineTimePair, AtMost, "G5", "the largest paired workflow time ratio against the baseline"},
	{GateComparatorCostPair, AtMost, "G5", "the largest paired workflow cost ratio against the comparator"},
	{GateComparatorTimePair, AtMost, "G5", "the largest paired workflow time ratio against the comparator"},
	{GateWorkflowLimits, AtMost, "G5", "workflows of any system beyond a workflow limit (12 min incl. cold setup, 8 min investigation, 4 min review, 60 operations)"},
	{GateRbContract, AtMost, "G6", "the candidate's reviews that are not valid review documents (schema violations) or break the finding contract (contract violations: a finding ID used twice, an inconsistent rating)"},
	{GateRbRegression, AtMost, "G6", "the candidate's attempts on known regression cases that miss the planted defect or do not pass the clean case"},
	{GateRbLabelsSettled, AtMost, "G6", "label-adjudication queue entries of the selection and final splits: grounded blocking findings on audited cases, not the planted defect, that no adjudication rejected (a blocked clean case is not a proven false alarm until its label is settled)"},
	{GateRbBlockingSelection, AtLeast, "G6", "audited clean selection attempts the baseline blocks minus those the candidate blocks, the least over the model strata"},
	{GateRbDetectionSelection, AtLeast, "G6", "planted selection defects the candidate detects minus those the baseline detects, the least over the model strata"},
	{GateRbBlockingFinal, AtLeast, "G6", "audited clean final attempts the baseline blocks minus those the candidate blocks, the least over the model strata; a retired final split cannot pass"},
	{GateRbDetectionFinal, AtLeast, "G6", "planted final defects the candidate detects minus those the baseline detects, the least over the model strata; a retired final split cannot pass"},
	{GateRbDecidability, AtLeast, "G6", "decidable selection and final attempts of the candidate minus the baseline's, the least over the model strata: decidability must not worsen on either model"},
	{GateRbExecutionErrors, AtLeast, "G6", "selection and final execution errors of the baseline minus the candidate's, the least over the model strata: execution errors must not worsen on either model"},
	{GateRbBudget, AtLeast, "G6", "the ledger's remaining allowance: the reference-cost cap minus accounted, held and reserved charges"},
}

// PresetName names a gate policy preset, as a manifest's
// gate_policy.preset spells it.
type PresetName string

const (
	PresetEvaluation        PresetName = "paired-review-evaluation-v1"
	PresetDevelopmentRound2 PresetName = "development-round2-v1"
	PresetSystemComparison  PresetName = "system-comparison-v1"
	PresetReviewerBenchmark PresetName = "reviewer-benchmark-v1"
)

// Preset is one frozen gate policy (rule F1): the runs it judges, its gates
// in order, each with its threshold (exact decimal text), and every other
// number it fixes (Numbers: ceilings, the replacement allowance, pins). A
// preset is the only source of these numbers; a manifest naming it cannot
// change one (tables/policy.go).
type Preset struct {
	Name      PresetName
	Kind      string // the campaign kind it judges
	Rule      RuleID
	Split     string // tasks of this split are judged
	LastRound bool   // judge only round 2 (repetition 2) of four two-round tasks
	Gates     []PresetGate
	Numbers   []PresetNumber
	// Source is the document whose frozen rules the preset states, e.g.
	// "contract #741"; Sections where, for the docs.
	Source, Sections string
	// Qualifier is what an advance under the preset supports, and what it
	// does not: the advance reason carries it.
	Qualifier string
}

// PresetGate is one gate of a preset with its frozen threshold.
type PresetGate struct {
	Gate      GateName
	Threshold string
}

// Presets returns every preset.
func Presets() []Preset {
	out := slices.Clone(presets)
	for i := range out {
		out[i].Gates = slices.Clone(out[i].Gates)
		out[i].Numbers = slices.Clone(out[i].Numbers)
	}
	return out
}

// FindPreset returns the named preset (its gates a copy).
func FindPreset(name PresetName) (Preset, bool) {
	for _, p := range Presets() {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// pairedGates lists the paired-review gates; improved is the
// g3_improved_tasks bound. Count gates (g1, g2_uncertainty, g4,
// g5_session_limits) bound the number of failing reviews or sessions.
func pairedGates(improved string) []PresetGate {
	return []PresetGate{
		{GateCriticalSource, "0"},
		{GateTaskFloor, "0.80"},
		{GateMacroFloor, "0.90"},
		{GateUncertainty, "0"},
		{GateMacroGain, "0.10"},
		{GateImprovedTasks, improved},
		{GateMaxTaskDrop, "0.05"},
		{GateProtocol, "0"},
		{GateCostAggregate, "1.10"},
		{GateTimeAggregate, "1.10"},
		{GateCostTask, "1.15"},
		{GateTimeTask, "1.15"},
		{GateCostPair, "1.25"},
		{GateTimePair, "1.25"},
		{GateSessionLimits, "0"},
	}
}

// The system-comparison ratios are Σ task-median(candidate) /
// Σ task-median(other system): "improve by at least 15%" is a ratio of at
// most 0.85, "regress at most 5%" a ratio of at most 1.05.
var presets = []Preset{
	{Name: PresetEvaluation, Kind: KindPairedReview, Rule: "G2", Split: "evaluation", Gates: pairedGates("4"), Numbers: pairedNumbers(),
		Source: "contract #741", Sections: "§4 gates 1–4 and cost/time bounds, §5 ceilings and pins",
		Qualifier: "evidence for one downstream-review mechanism on this sample only; it supports retaining it as a provider-independent candidate technique for the separately specified system comparison and does not show that a provider (Madar) wins"},
	{Name: PresetDevelopmentRound2, Kind: KindPairedReview, Rule: "G4", Split: "development", LastRound: true, Gates: pairedGates("2"), Numbers: pairedNumbers(),
		Source: "contract #741", Sections: "§5 round-2 admission, §5 ceilings and pins",
		Qualifier: "the development admission check passes on round 2; freeze the chosen review prompt for held-out evaluation; this is not an evaluation result"},
	{Name: PresetSystemComparison, Kind: KindSystemComparison, Rule: "G5", Split: "evaluation", Numbers: systemNumbers(),
		Source: "contract #741", Sections: "§6 system comparison and its campaign limits",
		Qualifier: "evidence for the candidate system on this sample only, for these tasks, repositories and frozen configurations, not for every profile of a provider",
		Gates: []PresetGate{
			{GateCriticalSource, "0"},
			{GateTaskFloor, "0.80"},
			{GateMacroFloor, "0.90"},
			{GateUncertainty, "0"},
			{GateProtocol, "0"},
			{GateBaselineCostAggregate, "0.85"},
			{GateBaselineTimeAggregate, "0.85"},
			{GateBaselineCriticalLoss, "0"},
			{GateComparatorMacroLoss, "0.05"},
			{GateComparatorCostAggregate, "1.05"},
			{GateComparatorTimeAggregate, "1.05"},
			{GateBaselineCostTask, "1.15"},
			{GateBaselineTimeTask, "1.15"},
			{GateComparatorCostTask, "1.15"},
			{GateComparatorTimeTask, "1.15"},
			{GateBaselineCostPair, "1.25"},
			{GateBaselineTimePair, "1.25"},
			{GateComparatorCostPair, "1.25"},
			{GateComparatorTimePair, "1.25"},
			{GateSessionLimits, "0"},
			{GateWorkflowLimits, "0"},
		}},
	{Name: PresetReviewerBenchmark, Kind: KindReviewerBenchmark, Rule: "G6", Numbers: reviewerBenchmarkNumbers(),
		Source: "the reviewer-benchmark pilot plan", Sections: "metrics and promotion; LLM use and budget",
		Qualifier: "a pilot signal on these families: it does not translate into a universal accuracy guarantee",
		Gates: []PresetGate{
			{GateRbContract, "0"},
			{GateRbRegression, "0"},
			{GateRbLabelsSettled, "0"},
			{GateRbBlockingSelection, "1"},
			{GateRbDetectionSelection, "0"},
			{GateRbBlockingFinal, "1"},
			{GateRbDetectionFinal, "0"},
			{GateRbDecidability, "0"},
			{GateRbExecutionErrors, "0"},
			{GateRbBudget, "0"},
		}},
}
