package html

import (
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/report/scorecard"
)

// The three plots of report.html (rule R1): paired task R with the task
// floor, cost/time ratios against their thresholds, and the forest of
// exploratory intervals.

const (
	plotLeft   = 50.0
	plotTop    = 24.0
	plotHeight = 220.0
	rowHeight  = 24.0
)

// emptyPlot is what a plot with nothing to draw is: nothing, so that its
// section is left out (a section that does not apply is not shown).
func emptyPlot(string) template.HTML { return "" }

// taskRPlot draws, per task, each arm's task-median R (baseline hollow,
// other arms filled, joined by a slope line) on [0, 1] with the floor.
func taskRPlot(sc scorecard.Scorecard) template.HTML {
	ep := sc.EvidenceAndPlan
	var tasks, arms []string
	values := map[taskArm]*scorecard.Ratio{}
	for _, t := range ep.Tasks {
		if !contains(tasks, t.Task) {
			tasks = append(tasks, t.Task)
		}
		if !contains(arms, t.Arm) {
			arms = append(arms, t.Arm)
		}
		values[taskArm{t.Task, t.Arm}] = t.MedianR
	}
	if len(tasks) == 0 {
		return emptyPlot("No task medians to plot.")
	}
	arms = baselineFirst(arms, ep.Arms)
	floorText, floor := taskFloor(sc.Gates)
	slot := math.Max(40, math.Min(90, 640/float64(len(tasks))))
	labelRunes := int(slot / 6.5)
	maxLines := 1
	for _, task := range tasks {
		maxLines = max(maxLines, len(wrapLabel(task, labelRunes)))
	}
	width := plotLeft + slot*float64(len(tasks)) + 90
	p := newSVG("task-r", int(width), int(plotTop+plotHeight+62+lineHeight*float64(maxLines)+legendRow*float64(len(arms))), "Task-median R per task and arm with the floor "+floorText)
	p.axisTitle(12, plotTop+plotHeight/2, "middle", "task-median R", true)
	p.axisTitle(plotLeft+slot*float64(len(tasks))/2, plotTop+plotHeight+20+lineHeight*float64(maxLines), "middle", "task", false)
	y := func(v float64) float64 { return plotTop + (1-v)*plotHeight }
	for _, g := range []float64{0, 0.2, 0.4, 0.6, 0.8, 1} {
		p.line(plotLeft, y(g), width-90, y(g), "grid")
		p.text(plotLeft-6, y(g)+4, "end", strconv.FormatFloat(g, 'f', 1, 64))
	}
	p.line(plotLeft, y(floor), width-90, y(floor), "floor")
	p.text(width-86, y(floor)+4, "start", "floor "+svgText(floorText, 40))
	step := math.Min(16, slot/float64(len(arms)+1))
	for i, task := range tasks {
		cx := plotLeft + (float64(i)+0.5)*slot
		xs := make([]float64, len(arms))
		for k := range arms {
			xs[k] = cx + (float64(k)-float64(len(arms)-1)/2)*step
		}
		drawTaskArms(p, task, arms, xs, values, y)
		p.textLines(cx, plotTop+plotHeight+16, "middle", wrapLabel(task, labelRunes))
	}
	drawArmLegend(p, arms, plotTop+plotHeight+48+lineHeight*float64(maxLines))
	return p.html()
}

// drawTaskArms draws one task's dots and the slope lines from the
// baseline (arms[0]) to every other arm; an unavailable median is "n/a".
// taskArm keys a task median by task and arm.
type taskArm struct{ task, arm string }

func drawTaskArms(p *svg, task string, arms []string, xs []float64, values map[taskArm]*scorecard.Ratio, y func(float64) float64) {
	base, baseOK := ratioValue(values[taskArm{task, arms[0]}])
	for k := 1; k < len(arms); k++ {
		if v, ok := ratioValue(values[taskArm{task, arms[k]}]); ok && baseOK {
			p.line(xs[0], y(base), xs[k], y(v), "slope")
		}
	}
	for k, arm := range arms {
		r := values[taskArm{task, arm}]
		v, ok := ratioValue(r)
		if !ok {
			p.text(xs[k], plotTop+plotHeight-4, "middle", "n/a")
			continue
		}
		p.armCircle(xs[k], y(v), 4.5, k, arm, task+" "+arm+": median R "+r.Exact)
	}
}

// drawArmLegend writes one legend row per arm, the first at baseline y.
func drawArmLegend(p *svg, arms []string, y float64) {
	for k, arm := range arms {
		label := arm
		if k == 0 {
			label = arm + " (baseline)"
		}
		p.armCircle(plotLeft, y-4, 4.5, k, arm, label)
		p.textLines(plotLeft+8, y, "start", wrapLabel(label, 80))
		y += legendRow
	}
}

// legendRow is the height of one arm's legend row, in px.
const legendRow = 20.0

// ratioPlot draws each cost or time ratio gate's observed value (a dot,
// coloured by the gate's result) against its threshold (a red tick), on a
// round axis from 0 with parity 1 (no change) dashed.
func ratioPlot(gates []scorecard.GateResult, currency string) template.HTML {
	type row struct {
		g        scorecard.GateResult
		obs, thr float64
		label    []string
	}
	var rows []row
	xmax := 1.0
	for _, g := range gates {
		if rules.GateName(g.Gate).Unit() != rules.GateUnitRatio {
			continue
		}
		_, obs, ok1 := gateNumber(g.Observed)
		_, thr, ok2 := gateNumber(g.Threshold)
		if !ok1 || !ok2 {
			continue
		}
		rows = append(rows, row{g, obs, thr, wrapLabel(g.Gate+" "+g.Arm, ratioLabelRunes)})
		xmax = math.Max(xmax, math.Max(obs, thr))
	}
	if len(rows) == 0 {
		return emptyPlot("No cost or time ratio gate was evaluated.")
	}
	ax := niceAxis(0, xmax, 5)
	const labelW, plotW = 200.0, 360.0
	heights := make([]float64, len(rows))
	bottom := plotTop
	for i, r := range rows {
		heights[i] = math.Max(rowHeight, lineHeight*float64(len(r.label))+11)
		bottom += heights[i]
	}
	p := newSVG("ratios", int(labelW+plotW+300), int(bottom+70), "Cost and time ratio gates: observed value against threshold")
	p.axisTitle(labelW+plotW/2, bottom+34, "middle", "ratio of the candidate to the baseline (1 = no change)", false)
	x := func(v float64) float64 { return ax.pos(v, labelW, labelW+plotW) }
	for _, v := range ax.ticks() {
		p.line(x(v), plotTop-6, x(v), bottom, "grid")
		p.text(x(v), bottom+16, "middle", ax.label(v))
	}
	p.line(x(1), plotTop-6, x(1), bottom, "parity")
	y := plotTop
	for i, r := range rows {
		cy := y + heights[i]/2
		p.textLines(labelW-8, cy+4-lineHeight*float64(len(r.label)-1)/2, "end", r.label)
		p.titledLine(x(r.thr), cy-8, x(r.thr), cy+8, "thr", r.g.Gate+" threshold "+r.g.Threshold)
		class, result := "obs-fail", "FAIL"
		if r.g.Pass {
			class, result = "obs-pass", "pass"
		}
		observed := scorecard.GateObserved(r.g, currency)
		p.circle(x(r.obs), cy, 5, class, r.g.Gate+" observed "+observed+" = "+scorecard.GateObservedExact(r.g)+", needs "+r.g.Threshold)
		p.text(labelW+plotW+12, cy+4, "start", svgText(observed+" vs "+r.g.Threshold+": "+result, 80))
		y += heights[i]
	}
	p.text(4, bottom+54, "start", "● observed (green pass, red FAIL), red tick: threshold, dashed: 1 (parity).")
	return p.html()
}

// ratioLabelRunes is how many runes of a gate label fit one line of the
// ratio plot's 200 px label column.
const ratioLabelRunes = 30

func taskFloor(gates []scorecard.GateResult) (string, float64) {
	for _, g := range gates {
		if g.Gate != "g2_task_floor" {
			continue
		}
		if _, v, ok := gateNumber(g.Threshold); ok {
			return strings.TrimSpace(strings.TrimLeft(g.Threshold, "<>= ")), v
		}
	}
	v, _ := ratFloat(defaultTaskFloor)
	return defaultTaskFloor, v
}

func ratioValue(r *scorecard.Ratio) (float64, bool) {
	if r == nil {
		return 0, false
	}
	v, ok := ratFloat(r.Exact)
	return math.Max(0, math.Min(1, v)), ok
}

// baselineFirst orders arms as the scorecard's arms (baseline first), then
// any other arm in order of appearance.
func baselineFirst(seen []string, order []scorecard.EvidencePlanArm) []string {
	var out []string
	for _, a := range order {
		if contains(seen, a.Arm) && !contains(out, a.Arm) {
			out = append(out, a.Arm)
		}
	}
	for _, a := range seen {
		if !contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
