package aggregate

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Round 2 before held-out execution (rule G8, contract #741 §5): "round 2
// is the only development admission check … If round 2 fails any
// condition, stop before held-out execution." A campaign that holds its
// development flow and its evaluation sessions is judged by the
// evaluation preset; its round 2 is judged here by the round-2 preset, on
// the same runs and the same judges, and evaluation sessions after a
// failed (or unjudgeable) round 2 are a defect of the record: the
// evaluation should never have run, so the campaign gets no verdict.
func round2Admission(c *tables.Campaign, in *inputs, pol *policy, judged runSet) rules.Findings {
	d := &c.Manifest.Design
	if pol == nil || pol.lastRound || d.Development == nil || judged.empty() || len(d.Arms) < 2 {
		return nil
	}
	dev, _ := resolvePolicy(&tables.Manifest{GatePolicy: tables.GatePolicy{Preset: string(rules.PresetDevelopmentRound2)}}) // the preset's own thresholds
	finding := func(why string) rules.Findings {
		return rules.Findings{{Code: rules.CodeEvaluationAfterFailedRound2, Severity: rules.Reject, File: manifestFile, Pointer: "/design/development",
			Message: fmt.Sprintf("the campaign ran evaluation sessions although round 2 %s under preset %s: held-out execution stops after a failed round 2", why, dev.name)}}
	}
	if why := round2Refusal(d, dev.split); why != "" {
		return finding("cannot be judged (" + why + ")")
	}
	round2 := *in
	round2.judged, round2.judges = dev.judgedRuns(d.Tasks, in.runs), nil
	if round2.judged.empty() {
		return finding("has no runs")
	}
	var failing []string
	for _, arm := range d.Arms[1:] {
		for _, g := range evaluate(dev, c, &round2, d.Arms[0].ID, arm.ID) {
			if !g.Pass {
				failing = append(failing, fmt.Sprintf("%s (arm %s)", g.Gate, arm.ID))
			}
		}
	}
	if len(failing) == 0 {
		return nil
	}
	return finding("failed " + strings.Join(failing, ", "))
}
