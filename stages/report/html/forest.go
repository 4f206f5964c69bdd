package html

import (
	"html/template"
	"math"
	"strconv"

	"github.com/evalgate/evalgate/stages/report/scorecard"
)

// forestPlots draws the exploratory intervals whose status is ok as a
// forest: one point (the estimate) and bar (lo to hi) per row, one plot
// per unit (fraction, difference, ratio) so that each has its own axis.
// There is no threshold line and no pass or fail mark: intervals never
// gate.
func forestPlots(rows []scorecard.IntervalResult) []template.HTML {
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
		return []template.HTML{emptyPlot("No interval with status ok to plot.")}
	}
	out := make([]template.HTML, 0, len(units))
	for _, u := range units {
		out = append(out, forestPlot(u, groups[u]))
	}
	return out
}

func forestPlot(unit string, rows []scorecard.IntervalResult) template.HTML {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		lo = math.Min(lo, math.Min(*r.Lo, *r.Estimate))
		hi = math.Max(hi, math.Max(*r.Hi, *r.Estimate))
	}
	pad := (hi - lo) * 0.05
	if pad == 0 {
		pad = 0.05
	}
	lo, hi = lo-pad, hi+pad
	const labelW, plotW = 330.0, 340.0
	bottom := plotTop + rowHeight*float64(len(rows))
	label := "Exploratory intervals, unit " + unit
	p := newSVG("forest-"+unit, int(labelW+plotW+230), int(bottom+30), label)
	p.text(4, 14, "start", svgText(label, 60))
	x := func(v float64) float64 { return labelW + (v-lo)/(hi-lo)*plotW }
	for i := 0; i <= 4; i++ {
		v := lo + (hi-lo)*float64(i)/4
		p.line(x(v), plotTop-6, x(v), bottom, "grid")
		p.text(x(v), bottom+16, "middle", strconv.FormatFloat(v, 'f', 3, 64))
	}
	for i, r := range rows {
		cy := plotTop + rowHeight*(float64(i)+0.5)
		name := r.Statistic + " " + r.Contrast + " · " + r.Method
		p.text(labelW-8, cy+4, "end", svgText(name, 52))
		p.line(x(*r.Lo), cy, x(*r.Hi), cy, "ci")
		summary := f4(*r.Estimate) + " [" + f4(*r.Lo) + ", " + f4(*r.Hi) + "]"
		p.circle(x(*r.Estimate), cy, 4, "est", name+": "+summary)
		p.text(labelW+plotW+12, cy+4, "start", svgText(summary, 40))
	}
	return p.html()
}
