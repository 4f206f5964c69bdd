package aggregate

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// validityReport lists why the execution cannot support a verdict; it is
// empty when it can.
type validityReport struct{ reasons []string }

// validity checks the prerequisites of a verdict (G3, G7) from the facts
// the earlier stages wrote: every campaign ceiling held, at most the
// allowed number of infrastructure-invalid triplets, and every judged run
// scored (an unrated run, a missing session or a defective oracle leaves a
// run unscored). Rejecting findings give no verdict whatever this says
// (tables.ApplyRejections, applied once by stages.Run).
func validity(in *inputs, judged runSet) validityReport {
	var v validityReport
	v.reasons = append(v.reasons, ceilingsExceeded(in.ceilings)...)
	if r := in.replacements; r.Exceeded {
		v.reasons = append(v.reasons, fmt.Sprintf("%d infrastructure-invalid %s, at most %d may be replaced", r.Invalid, r.Unit, r.Allowed))
	}
	byClass := map[string][]string{}
	for r := range judged.All() {
		if r.Scored {
			continue
		}
		k := string(r.Classification)
		if k != "missing" && k != string(tables.ClassInvalid) {
			k = "unscored"
		}
		byClass[k] = append(byClass[k], fmt.Sprintf("%s/r%d/%s", r.TaskID, r.Repetition, r.Arm))
	}
	labels := map[string]string{"missing": "runs with a missing session", "invalid": "runs with an invalid execution", "unscored": "unrated or unscoreable runs"}
	for _, k := range []string{"missing", "invalid", "unscored"} {
		if runs := byClass[k]; len(runs) > 0 {
			v.reasons = append(v.reasons, fmt.Sprintf("%d %s: %s", len(runs), labels[k], strings.Join(runs, ",")))
		}
	}
	return v
}

// decide turns gates into the decision for one treatment arm: no_verdict
// when the execution is invalid or the policy unknown; stop_no_gain when
// the macro gain gate fails; advance only when every gate passes;
// otherwise do_not_advance naming every failing gate. Conjunctive only.
func decide(pol *policy, gates []tables.Gate, arm string, v validityReport) tables.Decision {
	var failing []string
	var gain *tables.Gate
	for i, g := range gates {
		if !g.Pass {
			failing = append(failing, string(g.Gate))
		}
		if g.Gate == rules.GateMacroGain {
			gain = &gates[i]
		}
	}
	d := tables.Decision{Arm: arm, FailingGates: failing}
	switch {
	case pol == nil:
		d.Decision, d.Reason = tables.DecisionNoVerdict, "the gate policy preset is unknown, so no frozen policy can judge the campaign"
		if len(v.reasons) > 0 {
			d.Reason += "; " + strings.Join(v.reasons, "; ")
		}
	case len(v.reasons) > 0:
		d.Decision, d.Reason = tables.DecisionNoVerdict, "execution invalid: "+strings.Join(v.reasons, "; ")
	case gain == nil || !gain.Pass:
		d.Decision, d.Reason = tables.DecisionStopNoGain, stopReason(gain)
	case len(failing) == 0:
		d.Decision, d.Reason = tables.DecisionAdvance, pol.advanceReason()
	default:
		d.Decision = tables.DecisionDoNotAdvance
		d.Reason = "quality gain observed but " + failedCount(failing, gates)
	}
	return d
}

func stopReason(gain *tables.Gate) string {
	if gain == nil {
		return "the policy has no macro gain gate"
	}
	return fmt.Sprintf("macro gain %s is not %s (%s): no demonstrated need for the mechanism", gain.Observed, gain.Threshold, gain.Detail)
}

// failedCount says how many gates failed, "3 of 15 gates failed": each
// failing gate's observed value and threshold is its own row of the gates
// table (and its own line in the reports), not part of one sentence.
func failedCount(failing []string, gates []tables.Gate) string {
	return fmt.Sprintf("%d of %d gates failed", len(failing), len(gates))
}
