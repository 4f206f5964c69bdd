package aggregate

import (
	"fmt"
	"math/big"
	"strings"

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

// policy is a resolved gate policy: which runs it judges and its
// thresholds, in gate order. Under a preset they are the preset's own,
// whatever the manifest says (a differing override is the validate stage's
// finding, rule F1); a custom policy applies its overrides.
type policy struct {
	name       rules.PresetName // the preset whose gates and runs it judges
	applied    tables.AppliedPolicy
	split      string // tasks of this split are judged
	lastRound  bool   // judge only each task's last repetition (development round 2)
	thresholds []threshold
}

// resolvePolicy builds the manifest's policy (tables.ResolvePolicy). An
// unknown preset gives a nil policy; unknown, repeated or malformed
// overrides are reported and never applied (the decision is then
// no_verdict, since the frozen policy is not what the manifest says).
func resolvePolicy(m *tables.Manifest) (*policy, rules.Findings) {
	var out rules.Findings
	add := func(code rules.Code, ptr, format string, args ...any) {
		out = append(out, rules.Finding{Code: code, Severity: rules.Reject, File: manifestFile, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
	}
	gp := m.GatePolicy
	a := tables.ResolvePolicy(m)
	if a.Preset == nil {
		add(rules.CodeGatePresetUnknown, "/gate_policy/preset", "gate policy preset %q is not one of %s", gp.Preset, presetNames())
		return nil, out
	}
	pol := &policy{name: a.Preset.Name, applied: a, split: a.Preset.Split, lastRound: a.Preset.LastRound}
	for _, n := range a.Numbers {
		if n.Kind == rules.NumberThreshold {
			pol.thresholds = append(pol.thresholds, threshold{name: rules.GateName(n.Name), op: n.Comparison, text: *n.Value})
		}
	}
	seen := map[string]bool{}
	for i, o := range gp.Thresholds {
		ptr := fmt.Sprintf("/gate_policy/thresholds/%d", i)
		switch {
		case pol.find(rules.GateName(o.Name)) == nil:
			add(rules.CodeGateThresholdUnknown, ptr+"/name", "preset %s has no threshold named %q", pol.name, o.Name)
		case seen[o.Name]:
			add(rules.CodeGateThresholdRepeat, ptr+"/name", "threshold %s is overridden more than once", o.Name)
		default:
			seen[o.Name] = true
			if _, err := stats.ParseDecimal(o.Value); err != nil {
				add(rules.CodeGateThresholdInvalid, ptr+"/value", "threshold %s value %q is not a plain non-negative decimal", o.Name, o.Value)
			}
		}
	}
	for i := range pol.thresholds {
		t := &pol.thresholds[i]
		v, err := stats.ParseDecimal(t.text)
		if err != nil { // an invalid custom override, reported above: the preset's bound stands
			t.text = a.Preset.Gates[i].Threshold
			v, _ = stats.ParseDecimal(t.text)
		}
		t.value = v
	}
	return pol, out
}

// presetNames lists the presets for a message.
func presetNames() string {
	var names []string
	for _, p := range rules.Presets() {
		names = append(names, string(p.Name))
	}
	return strings.Join(names, ", ")
}

// label is how the decision names the policy (tables.AppliedPolicy.Label).
func (p *policy) label() string { return p.applied.Label() }

// advanceReason is the reason of an advance: which policy's every gate
// passed and what that supports (the preset's qualifier). A custom
// policy's reason names its ID, says it is not the frozen rules and never
// names a preset.
func (p *policy) advanceReason() string {
	if p.applied.Custom {
		return p.label() + ": every gate passes; " + p.applied.Preset.Qualifier
	}
	return fmt.Sprintf("every gate of %s passes: %s", p.name, p.applied.Preset.Qualifier)
}

// benchReason is a reviewer benchmark's advance reason with the preset's
// qualifier, or a custom policy's label.
func (p *policy) benchReason(reason string) string {
	if p.applied.Custom {
		return p.label() + ": " + reason + "; " + p.applied.Preset.Qualifier
	}
	return reason + ": " + p.applied.Preset.Qualifier
}

// labelDecisions sets the policy column of every decision row.
func labelDecisions(ds []tables.Decision, m *tables.Manifest) {
	label := tables.ResolvePolicy(m).Label()
	for i := range ds {
		ds[i].Policy = label
	}
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
	c := stats.Cmp(observed, t.value)
	if t.op == atLeast {
		return c >= 0
	}
	return c <= 0
}

// String is the threshold column, e.g. ">= 0.90".
func (t threshold) String() string { return t.op + " " + t.text }
