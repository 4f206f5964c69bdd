package html

import (
	"html/template"
	"math"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/report/scorecard"
)

// forestPlots draws the exploratory intervals whose status is ok as a
// forest: one point (the estimate) and bar (lo to hi) per row, one plot
// per unit (fraction, difference, ratio) so that each has its own axis.
// A difference has its zero line and a ratio its parity line (1 = no
// change). Where a gate reads the same statistic's point value for the
// same arm, its threshold is marked on the row as a reference; the
// interval still has no pass or fail mark: intervals never gate.
func forestPlots(rows []scorecard.IntervalResult, gates []scorecard.GateResult) []template.HTML {
	var units []string
	groups := map[string][]scorecard.IntervalResult{}
	for _, r := range rows {
		if r.Status != "ok" || r.Estimate == nil || r.Lo == nil || r.Hi == nil {
			continue
		}
		if _, ok := groups[r.Unit]; !ok {
			units = append(units, r.Unit)
		}
		groups[r.Unit] = append(groups[r.Unit], r)
	}
	if len(units) == 0 {
		return nil // no interval with status ok: no plot
	}
	out := make([]template.HTML, 0, len(units))
	for _, u := range units {
		out = append(out, forestPlot(u, groups[u], gates))
	}
	return out
}

// intervalGates names, per interval statistic, the gate that compares
// the same statistic's point value with a threshold (the names are the
// intervals stage's; a test pins them).
var intervalGates = map[string]rules.GateName{
	"r.macro_task_median":                 rules.GateMacroFloor,
	"r.macro_task_median.diff":            rules.GateMacroGain,
	"cost.workflow.ratio_of_task_medians": rules.GateCostAggregate,
	"time.workflow.ratio_of_task_medians": rules.GateTimeAggregate,
}

// gateReference is the threshold a gate applies to an interval row's
// statistic for its arm, if one does.
type gateReference struct {
	gate, threshold string
	value           float64
}

func referenceOf(r scorecard.IntervalResult, gates []scorecard.GateResult) (gateReference, bool) {
	name, ok := intervalGates[r.Statistic]
	if !ok {
		return gateReference{}, false
	}
	for _, g := range gates {
		if g.Gate == string(name) && g.Arm == r.Arm {
			if _, v, ok := gateNumber(g.Threshold); ok {
				return gateReference{g.Gate, g.Threshold, v}, true
			}
		}
	}
	return gateReference{}, false
}

// unitOrigin is the value of no effect for a unit: 0 for a difference, 1
// for a ratio; a fraction has none.
func unitOrigin(unit string) (float64, string, bool) {
	switch unit {
	case "difference":
		return 0, "0 (no difference)", true
	case "ratio":
		return 1, "1 (parity)", true
	}
	return 0, "", false
}

const (
	forestLabelW    = 300.0
	forestPlotW     = 360.0
	forestSummaryW  = 210.0
	forestLabelRune = 46 // runes per label line in forestLabelW at 11 px
)

func forestPlot(unit string, rows []scorecard.IntervalResult, gates []scorecard.GateResult) template.HTML {
	lo, hi := math.Inf(1), math.Inf(-1)
	refs := make([]*gateReference, len(rows))
	labels := make([][]string, len(rows))
	for i, r := range rows {
		lo = math.Min(lo, math.Min(*r.Lo, *r.Estimate))
		hi = math.Max(hi, math.Max(*r.Hi, *r.Estimate))
		if ref, ok := referenceOf(r, gates); ok {
			refs[i] = &ref
			lo, hi = math.Min(lo, ref.value), math.Max(hi, ref.value)
		}
		// The statistic and contrast on one line, the method on the next.
		labels[i] = append(wrapLabel(r.ScopedStatistic()+" "+r.Contrast, forestLabelRune), wrapLabel(r.Method, forestLabelRune)...)
	}
	origin, originLabel, hasOrigin := unitOrigin(unit)
	if hasOrigin {
		lo, hi = math.Min(lo, origin), math.Max(hi, origin)
	}
	ax := niceAxis(lo, hi, 5)
	x := func(v float64) float64 { return ax.pos(v, forestLabelW, forestLabelW+forestPlotW) }

	heights := make([]float64, len(rows))
	bottom := plotTop
	for i := range rows {
		heights[i] = math.Max(rowHeight, lineHeight*float64(len(labels[i]))+11)
		bottom += heights[i]
	}
	title := "Exploratory intervals, unit " + unit
	p := newSVG("forest-"+unit, int(forestLabelW+forestPlotW+forestSummaryW), int(bottom+84), title)
	p.axisTitle(forestLabelW+forestPlotW/2, bottom+34, "middle", "estimate and interval ("+unit+")", false)
	p.text(4, 14, "start", svgText(title, 60))
	for _, v := range ax.ticks() {
		p.line(x(v), plotTop-6, x(v), bottom, "grid")
		p.text(x(v), bottom+16, "middle", ax.label(v))
	}
	if hasOrigin {
		p.line(x(origin), plotTop-6, x(origin), bottom, "zero")
	}
	y := plotTop
	anyRef, anyClipped := false, false
	for i, r := range rows {
		cy := y + heights[i]/2
		p.textLines(forestLabelW-8, cy+4-lineHeight*float64(len(labels[i])-1)/2, "end", labels[i])
		if ref := refs[i]; ref != nil {
			anyRef = true
			p.titledLine(x(ref.value), cy-9, x(ref.value), cy+9, "gate-ref",
				"gate "+ref.gate+" threshold "+ref.threshold+" (the gate reads the point value)")
		}
		p.line(x(*r.Lo), cy, x(*r.Hi), cy, "ci")
		name := r.ScopedStatistic() + " " + r.Contrast + " · " + r.Method
		summary := scorecard.Bound(r.Estimate) + " [" + scorecard.Bound(r.Lo) + ", " + scorecard.Bound(r.Hi) + "]"
		p.circle(x(*r.Estimate), cy, 4, "est", name+": "+summary)
		if r.Clipped {
			anyClipped = true
			summary += " clipped*"
		}
		p.text(forestLabelW+forestPlotW+12, cy+4, "start", svgText(summary, 60))
		y += heights[i]
	}
	legend := "● estimate, bar: interval."
	if hasOrigin {
		legend += " Grey line: " + originLabel + "."
	}
	if anyRef {
		legend += " Red tick: the threshold of the gate that reads this statistic's point value."
	}
	p.text(4, bottom+56, "start", svgText(legend, 200))
	if anyClipped {
		p.text(4, bottom+72, "start", "*clipped: a bound fell outside the statistic’s range (a fraction’s is [0, 1]) and was moved onto it.")
	}
	return p.html()
}
