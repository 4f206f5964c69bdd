package aggregate

import (
	"fmt"
	"math/big"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// Gate policy presets. Threshold values are exact decimal text; the
// manifest's gate_policy.thresholds may override any of them by name.
const (
	PresetEvaluation        = "paired-review-evaluation-v1"
	PresetDevelopmentRound2 = "development-round2-v1"
)

// Gate names, stable: they appear in the gates table and in decisions.
const (
	GateCriticalSource  = "g1_critical_source"
	GateTaskFloor       = "g2_task_floor"
	GateMacroFloor      = "g2_macro_floor"
	GateUncertainty     = "g2_uncertainty"
	GateMacroGain       = "g3_macro_gain"
	GateImprovedTasks   = "g3_improved_tasks"
	GateMaxTaskDrop     = "g3_max_task_drop"
	GateProtocol        = "g4_protocol"
	GateCostAggregate   = "g5_cost_aggregate"
	GateTimeAggregate   = "g5_time_aggregate"
	GateCostTask        = "g5_cost_task"
	GateTimeTask        = "g5_time_task"
	GateCostPair        = "g5_cost_pair"
	GateTimePair        = "g5_time_pair"
	GateSessionLimits   = "g5_session_limits"
	manifestFile        = "manifest.json"
	atLeast, atMost     = ">=", "<="
	improvedEvaluation  = "4"
	improvedDevelopment = "2"
)

// threshold is one named bound of a preset: observed op value.
type threshold struct {
	name  string
	op    string // ">=" or "<="
	text  string // the decimal as written, e.g. "0.80"
	value *big.Rat
}

// policy is a resolved preset: which runs it judges and its thresholds,
// in gate order.
type policy struct {
	name       string
	split      string // tasks of this split are judged
	lastRound  bool   // judge only each task's last repetition (development round 2)
	thresholds []threshold
}

// presetThresholds lists every gate of seed 000 §4 with its default bound.
// Count gates (g1, g2_uncertainty, g4, g5_session_limits) bound the number
// of failing reviews or sessions.
func presetThresholds(improved string) []threshold {
	return []threshold{
		{name: GateCriticalSource, op: atMost, text: "0"},
		{name: GateTaskFloor, op: atLeast, text: "0.80"},
		{name: GateMacroFloor, op: atLeast, text: "0.90"},
		{name: GateUncertainty, op: atMost, text: "0"},
		{name: GateMacroGain, op: atLeast, text: "0.10"},
		{name: GateImprovedTasks, op: atLeast, text: improved},
		{name: GateMaxTaskDrop, op: atMost, text: "0.05"},
		{name: GateProtocol, op: atMost, text: "0"},
		{name: GateCostAggregate, op: atMost, text: "1.10"},
		{name: GateTimeAggregate, op: atMost, text: "1.10"},
		{name: GateCostTask, op: atMost, text: "1.15"},
		{name: GateTimeTask, op: atMost, text: "1.15"},
		{name: GateCostPair, op: atMost, text: "1.25"},
		{name: GateTimePair, op: atMost, text: "1.25"},
		{name: GateSessionLimits, op: atMost, text: "0"},
	}
}

func newPreset(name string) *policy {
	switch name {
	case PresetEvaluation:
		return &policy{name: name, split: "evaluation", thresholds: presetThresholds(improvedEvaluation)}
	case PresetDevelopmentRound2:
		return &policy{name: name, split: "development", lastRound: true, thresholds: presetThresholds(improvedDevelopment)}
	case PresetSystemComparison:
		return &policy{name: name, split: "evaluation", thresholds: systemThresholds()}
	}
	return nil
}

// resolvePolicy builds the manifest's policy. An unknown preset gives a nil
// policy; unknown, repeated or malformed overrides are reported and ignored
// (the decision is then no_verdict, since the frozen policy is not what
// the manifest says).
func resolvePolicy(gp tables.GatePolicy) (*policy, tables.Findings) {
	var out tables.Findings
	add := func(code tables.Code, ptr, format string, args ...any) {
		out = append(out, tables.Finding{Code: code, Severity: tables.Reject, File: manifestFile, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
	}
	pol := newPreset(gp.Preset)
	if pol == nil {
		add(tables.CodeGatePresetUnknown, "/gate_policy/preset", "gate policy preset %q is not %s or %s", gp.Preset, PresetEvaluation, PresetDevelopmentRound2)
		return nil, out
	}
	seen := map[string]bool{}
	for i, o := range gp.Thresholds {
		ptr := fmt.Sprintf("/gate_policy/thresholds/%d", i)
		t := pol.find(o.Name)
		switch {
		case t == nil:
			add(tables.CodeGateThresholdUnknown, ptr+"/name", "preset %s has no threshold named %q", pol.name, o.Name)
			continue
		case seen[o.Name]:
			add(tables.CodeGateThresholdRepeat, ptr+"/name", "threshold %s is overridden more than once", o.Name)
			continue
		}
		seen[o.Name] = true
		if _, err := stats.ParseDecimal(o.Value); err != nil {
			add(tables.CodeGateThresholdInvalid, ptr+"/value", "threshold %s value %q is not a plain non-negative decimal", o.Name, o.Value)
			continue
		}
		t.text = o.Value
	}
	for i := range pol.thresholds {
		pol.thresholds[i].value, _ = stats.ParseDecimal(pol.thresholds[i].text)
	}
	return pol, out
}

func (p *policy) find(name string) *threshold {
	for i := range p.thresholds {
		if p.thresholds[i].name == name {
			return &p.thresholds[i]
		}
	}
	return nil
}

// judgedRuns returns the runs the policy judges: those of tasks in its
// split, and for development round 2 only each task's last repetition
// (one round-2 observation per task).
func (p *policy) judgedRuns(specs []tables.TaskSpec, runs []tables.Run) []tables.Run {
	split := map[string]string{}
	for _, s := range specs {
		split[s.ID] = s.Split
	}
	last := map[string]int64{}
	for _, r := range runs {
		last[r.TaskID] = max(last[r.TaskID], r.Repetition)
	}
	var out []tables.Run
	for _, r := range runs {
		if split[r.TaskID] != p.split || (p.lastRound && r.Repetition != last[r.TaskID]) {
			continue
		}
		out = append(out, r)
	}
	return out
}

func noTasksFinding(p *policy) tables.Finding {
	return tables.Finding{
		Code: tables.CodeGateNoTasks, Severity: tables.Reject, File: manifestFile, Pointer: "/gate_policy/preset",
		Message: fmt.Sprintf("preset %s judges %s tasks, but the campaign has no run of such a task", p.name, p.split),
	}
}

// pass compares an observed value with the threshold; an unknown (nil)
// observation never passes.
func (t threshold) pass(observed *big.Rat) bool {
	if observed == nil {
		return false
	}
	c := observed.Cmp(t.value)
	if t.op == atLeast {
		return c >= 0
	}
	return c <= 0
}

// String is the threshold column, e.g. ">= 0.90".
func (t threshold) String() string { return t.op + " " + t.text }
