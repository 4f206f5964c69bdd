package aggregate

import (
	"fmt"
	"math/big"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

const (
	manifestFile    = "manifest.json"
	atLeast, atMost = string(rules.AtLeast), string(rules.AtMost)
)

// threshold is one named bound of a preset: observed op value.
type threshold struct {
	name  rules.GateName
	op    string // ">=" or "<="
	text  string // the decimal as written, e.g. "0.80"
	value *big.Rat
}

// policy is a resolved preset: which runs it judges and its thresholds,
// in gate order.
type policy struct {
	name       rules.PresetName
	split      string // tasks of this split are judged
	lastRound  bool   // judge only each task's last repetition (development round 2)
	thresholds []threshold
}

// newPreset resolves a preset of the gate registry (rules.Presets):
// which runs it judges and its gates with their default thresholds.
func newPreset(name rules.PresetName) *policy {
	p, ok := rules.FindPreset(name)
	if !ok {
		return nil
	}
	pol := &policy{name: p.Name, split: p.Split, lastRound: p.LastRound}
	for _, g := range p.Gates {
		doc, _ := rules.FindGate(g.Gate)
		pol.thresholds = append(pol.thresholds, threshold{name: g.Gate, op: string(doc.Compare), text: g.Threshold})
	}
	return pol
}

// resolvePolicy builds the manifest's policy. An unknown preset gives a nil
// policy; unknown, repeated or malformed overrides are reported and ignored
// (the decision is then no_verdict, since the frozen policy is not what
// the manifest says).
func resolvePolicy(gp tables.GatePolicy) (*policy, rules.Findings) {
	var out rules.Findings
	add := func(code rules.Code, ptr, format string, args ...any) {
		out = append(out, rules.Finding{Code: code, Severity: rules.Reject, File: manifestFile, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
	}
	pol := newPreset(rules.PresetName(gp.Preset))
	if pol == nil {
		add(rules.CodeGatePresetUnknown, "/gate_policy/preset", "gate policy preset %q is not %s or %s", gp.Preset, rules.PresetEvaluation, rules.PresetDevelopmentRound2)
		return nil, out
	}
	seen := map[string]bool{}
	for i, o := range gp.Thresholds {
		ptr := fmt.Sprintf("/gate_policy/thresholds/%d", i)
		t := pol.find(rules.GateName(o.Name))
		switch {
		case t == nil:
			add(rules.CodeGateThresholdUnknown, ptr+"/name", "preset %s has no threshold named %q", pol.name, o.Name)
			continue
		case seen[o.Name]:
			add(rules.CodeGateThresholdRepeat, ptr+"/name", "threshold %s is overridden more than once", o.Name)
			continue
		}
		seen[o.Name] = true
		if _, err := stats.ParseDecimal(o.Value); err != nil {
			add(rules.CodeGateThresholdInvalid, ptr+"/value", "threshold %s value %q is not a plain non-negative decimal", o.Name, o.Value)
			continue
		}
		t.text = o.Value
	}
	for i := range pol.thresholds {
		pol.thresholds[i].value, _ = stats.ParseDecimal(pol.thresholds[i].text)
	}
	return pol, out
}

func (p *policy) find(name rules.GateName) *threshold {
	for i := range p.thresholds {
		if p.thresholds[i].name == name {
			return &p.thresholds[i]
		}
	}
	return nil
}

// judgedRuns returns the runs the policy judges: those of tasks in its
// split, and for development round 2 only repetition 2, the round-2
// triplet (one round-2 observation per task; round2Refusal has checked
// that every development task has exactly two rounds).
func (p *policy) judgedRuns(specs []tables.TaskSpec, runs runSet) runSet {
	split := map[string]string{}
	for _, s := range specs {
		split[s.ID] = s.Split
	}
	return runs.where(func(r *tables.Run) bool {
		return split[r.TaskID] == p.split && (!p.lastRound || r.Repetition == round2Rounds)
	})
}

func noTasksFinding(p *policy) rules.Finding {
	return rules.Finding{
		Code: rules.CodeGateNoTasks, Severity: rules.Reject, File: manifestFile, Pointer: "/gate_policy/preset",
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
