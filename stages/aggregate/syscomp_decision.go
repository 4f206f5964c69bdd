package aggregate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// judgeSystems writes the gates and the decision of a system comparison,
// or of a campaign whose kind and preset do not fit each other, and
// reports whether it did. Anything else is left to the paired-review path.
func judgeSystems(c *tables.Campaign, in *inputs, out *Out, pol *policy, judged runSet, v validityReport) bool {
	isSys := c.Manifest.Kind == rules.KindSystemComparison
	sysPreset := pol != nil && pol.name == rules.PresetSystemComparison
	if !isSys && !sysPreset {
		return false
	}
	d := &c.Manifest.Design
	if pol != nil && isSys != sysPreset {
		f := rules.Finding{Code: rules.CodeGatePresetKind, Severity: rules.Reject, File: manifestFile, Pointer: "/gate_policy/preset",
			Message: fmt.Sprintf("gate preset %s cannot judge a %s campaign", pol.name, c.Manifest.Kind)}
		out.Findings = append(out.Findings, f)
		v.reasons = append(v.reasons, f.Message)
		for _, arm := range armsToJudge(d, isSys) {
			out.Decision = append(out.Decision, systemDecision(pol, nil, arm, v))
		}
		return true
	}
	cand, base, cmpArm := systemRoles(d)
	if cand == "" || base == "" {
		v.reasons = append(v.reasons, "the design names no candidate or no baseline system")
		out.Decision = append(out.Decision, systemDecision(pol, nil, cand, v))
		return true
	}
	var gates []tables.Gate
	if pol != nil {
		gates = evaluateSystems(pol, c, in, judged, base, cand, cmpArm)
	}
	if pol != nil && len(gates) == 0 {
		out.Findings = append(out.Findings, rules.Finding{Code: rules.CodeGateNoneEvaluated, Severity: rules.Reject, File: manifestFile, Pointer: "/gate_policy",
			Message: fmt.Sprintf("gate preset %s evaluated no gate for candidate %s, so nothing can judge it", pol.name, cand)})
	}
	out.Gates = append(out.Gates, gates...)
	out.Decision = append(out.Decision, systemDecision(pol, gates, cand, v))
	return true
}

// armsToJudge are the arms a mismatched campaign gets a no_verdict row for.
func armsToJudge(d *tables.Design, isSys bool) []string {
	if isSys {
		cand, _, _ := systemRoles(d)
		return []string{cand}
	}
	var out []string
	for _, a := range d.Arms[min(1, len(d.Arms)):] {
		out = append(out, a.ID)
	}
	return out
}

// systemRoles returns the IDs of the candidate, the baseline (the first
// arm, which stages/load requires to have the baseline role) and the
// comparator, "" when absent.
func systemRoles(d *tables.Design) (cand, base, cmpArm string) {
	if a := d.ArmWithRole(tables.ComparatorCandidate); a != nil {
		cand = a.ID
	}
	if a := d.ArmWithRole(tables.ComparatorBaseline); a != nil {
		base = a.ID
	}
	if a := d.ArmWithRole(tables.ComparatorComparator); a != nil {
		cmpArm = a.ID
	}
	return cand, base, cmpArm
}

// systemDecision is decide for G5: no_verdict when the execution is
// invalid or the policy unknown; stop_no_gain when the candidate does not
// improve cost or time over the baseline by the margin (no demonstrated
// advantage); advance only when every gate passes; otherwise
// do_not_advance naming every failing gate. Conjunctive only.
func systemDecision(pol *policy, gates []tables.Gate, cand string, v validityReport) tables.Decision {
	var failing, noGain []string
	for _, g := range gates {
		if g.Pass {
			continue
		}
		failing = append(failing, string(g.Gate))
		if slices.Contains(gainGates, g.Gate) {
			noGain = append(noGain, fmt.Sprintf("%s observed %s, needs %s", g.Gate, g.Observed, g.Threshold))
		}
	}
	d := tables.Decision{Arm: cand, FailingGates: failing}
	switch {
	case pol == nil:
		d.Decision, d.Reason = tables.DecisionNoVerdict, "the gate policy preset is unknown, so no frozen policy can judge the campaign"
	case len(v.reasons) > 0:
		d.Decision, d.Reason = tables.DecisionNoVerdict, "execution invalid: "+strings.Join(v.reasons, "; ")
	case len(gates) == 0:
		d.Decision, d.Reason = tables.DecisionNoVerdict, "no gate was evaluated"
	case len(noGain) > 0:
		d.Decision = tables.DecisionStopNoGain
		d.Reason = "no demonstrated cost and time advantage of the candidate over the baseline: " + strings.Join(noGain, "; ")
	case len(failing) == 0:
		d.Decision, d.Reason = tables.DecisionAdvance, pol.advanceReason()
	default:
		d.Decision = tables.DecisionDoNotAdvance
		d.Reason = "the candidate improves on the baseline but " + failedCount(failing, gates)
	}
	return d
}
