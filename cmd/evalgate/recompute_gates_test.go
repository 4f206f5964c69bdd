package main

// Gates and the decision of the independent recomputation, from rules
// G2, A8 and G7 alone (see recompute_test.go).

import (
	"math/big"
	"slices"
	"testing"
)

// rcMedian is the median of xs; of an even count, the mean of the two
// middle values.
func rcMedian(xs []*big.Rat) *big.Rat {
	s := slices.Clone(xs)
	slices.SortFunc(s, func(a, b *big.Rat) int { return a.Cmp(b) })
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	m := new(big.Rat).Add(s[n/2-1], s[n/2])
	return m.Quo(m, big.NewRat(2, 1))
}

// rcGate is one recomputed gate.
type rcGate struct {
	name     string
	observed *big.Rat
	pass     bool
	failing  []string
}

// rcResult is the recomputation's outcome for the treatment arm.
type rcResult struct {
	runs               []rcRun
	macro              map[string]*big.Rat // arm → macro-average task-median R over the judged tasks
	gates              []rcGate
	decision           string
	failingGates       []string
	costRatio, nsRatio *big.Rat
}

// rcThresholds are the bounds of rule G2 (and A8) in gate order, written out here.
var rcThresholds = []struct{ name, value string }{
	{"g1_critical_source", "0"}, {"g2_task_floor", "0.80"}, {"g2_macro_floor", "0.90"},
	{"g2_uncertainty", "0"}, {"g3_macro_gain", "0.10"}, {"g3_improved_tasks", "4"},
	{"g3_max_task_drop", "0.05"}, {"g4_protocol", "0"}, {"g5_cost_aggregate", "1.10"},
	{"g5_time_aggregate", "1.10"}, {"g5_cost_task", "1.15"}, {"g5_time_task", "1.15"},
	{"g5_cost_pair", "1.25"}, {"g5_time_pair", "1.25"}, {"g5_session_limits", "0"},
}

// recompute scores the campaign in dir and judges its second arm against
// its first with rule G2's thresholds (overridden by the manifest's
// gate_policy.thresholds), over the tasks of the evaluation split.
func recompute(t *testing.T, dir string) rcResult {
	t.Helper()
	c := rcDecode(t, dir)
	res := rcResult{runs: c.recomputeRuns(t), macro: map[string]*big.Rat{}}
	thr := map[string]*big.Rat{}
	for _, d := range rcThresholds {
		thr[d.name] = rcRat(t, d.value)
	}
	for _, o := range c.m.GatePolicy.Thresholds {
		if c.m.GatePolicy.Custom != "" { // a preset's thresholds are its own whatever the manifest says (rule F1)
			thr[o.Name] = rcRat(t, o.Value)
		}
	}
	base, treat := c.m.Design.Arms[0].ID, c.m.Design.Arms[1].ID
	var tasks []string
	for _, task := range c.m.Design.Tasks {
		if task.Split == "evaluation" {
			tasks = append(tasks, task.ID)
		}
	}
	slices.Sort(tasks)
	j := newRCJudge(res.runs, tasks, base, treat, thr)
	res.macro[base], res.macro[treat] = j.macro(base), j.macro(treat)
	res.gates = j.gates(c)
	res.costRatio, res.nsRatio = j.ratioOfSums(rcCostOf), j.ratioOfSums(rcNSOf)
	res.decision, res.failingGates = rcDecide(res.runs, tasks, res.gates)
	return res
}

// rcJudge holds the judged runs grouped by task and arm.
type rcJudge struct {
	tasks       []string
	base, treat string
	thr         map[string]*big.Rat
	byTaskArm   map[string][]rcRun // task/arm → runs in repetition order
	treatRuns   []rcRun
	pairs       [][2]rcRun // base, treatment; sorted by task then repetition
}

func newRCJudge(runs []rcRun, tasks []string, base, treat string, thr map[string]*big.Rat) *rcJudge {
	j := &rcJudge{tasks: tasks, base: base, treat: treat, thr: thr, byTaskArm: map[string][]rcRun{}}
	for _, r := range runs {
		if !slices.Contains(tasks, r.task) {
			continue
		}
		j.byTaskArm[r.task+"/"+r.arm] = append(j.byTaskArm[r.task+"/"+r.arm], r)
		if r.arm == treat {
			j.treatRuns = append(j.treatRuns, r)
		}
	}
	for _, r := range j.treatRuns {
		for _, b := range j.byTaskArm[r.task+"/"+base] {
			if b.rep == r.rep {
				j.pairs = append(j.pairs, [2]rcRun{b, r})
			}
		}
	}
	return j
}

func rcCostOf(r rcRun) *big.Rat { return r.cost }
func rcNSOf(r rcRun) *big.Rat   { return r.ns }
func rcROf(r rcRun) *big.Rat    { return big.NewRat(r.rNum, r.rDen) }

// median is a task's median of value over its repetitions under arm.
func (j *rcJudge) median(task, arm string, value func(rcRun) *big.Rat) *big.Rat {
	var xs []*big.Rat
	for _, r := range j.byTaskArm[task+"/"+arm] {
		xs = append(xs, value(r))
	}
	return rcMedian(xs)
}

func (j *rcJudge) macro(arm string) *big.Rat {
	sum := new(big.Rat)
	for _, task := range j.tasks {
		sum.Add(sum, j.median(task, arm, rcROf))
	}
	return sum.Quo(sum, big.NewRat(int64(len(j.tasks)), 1))
}

// ratioOfSums is Σ task-median(treatment) / Σ task-median(baseline).
func (j *rcJudge) ratioOfSums(value func(rcRun) *big.Rat) *big.Rat {
	num, den := new(big.Rat), new(big.Rat)
	for _, task := range j.tasks {
		num.Add(num, j.median(task, j.treat, value))
		den.Add(den, j.median(task, j.base, value))
	}
	return num.Quo(num, den)
}

func rcCount(n int) *big.Rat { return big.NewRat(int64(n), 1) }

// gates evaluates every gate of rule G2 in order. A bound gate passes
// when its observation meets the threshold and no item fails it.
func (j *rcJudge) gates(c *rcCampaign) []rcGate {
	atMost := func(name string, x *big.Rat) bool { return x.Cmp(j.thr[name]) <= 0 }
	atLeast := func(name string, x *big.Rat) bool { return x.Cmp(j.thr[name]) >= 0 }
	countGate := func(name string, failing []string) rcGate {
		return rcGate{name, rcCount(len(failing)), atMost(name, rcCount(len(failing))), failing}
	}
	var g1, g2u, g4 []string
	for _, r := range j.treatRuns {
		if !r.scored || r.completionFailed || r.critical > 0 || !r.sourceGate {
			g1 = append(g1, r.name())
		}
		if r.uDen > 0 && (!r.scored || r.uNum != r.uDen) {
			g2u = append(g2u, r.name())
		}
		if !r.protocolGate {
			g4 = append(g4, r.name())
		}
	}
	// Per-task observations: treatment median R, drop below baseline,
	// not-improved tasks.
	var floorFail, dropFail, notImproved []string
	var lowest, worstDrop *big.Rat
	for _, task := range j.tasks {
		b, a := j.median(task, j.treat, rcROf), j.median(task, j.base, rcROf)
		if !atLeast("g2_task_floor", b) {
			floorFail = append(floorFail, task)
		}
		drop := new(big.Rat).Sub(a, b)
		if !atMost("g3_max_task_drop", drop) {
			dropFail = append(dropFail, task)
		}
		if b.Cmp(a) <= 0 {
			notImproved = append(notImproved, task)
		}
		lowest, worstDrop = rcMin(lowest, b), rcMax(worstDrop, drop)
	}
	macroB := j.macro(j.treat)
	gain := new(big.Rat).Sub(macroB, j.macro(j.base))
	improved := rcCount(len(j.tasks) - len(notImproved))
	gates := []rcGate{
		countGate("g1_critical_source", g1),
		{"g2_task_floor", lowest, len(floorFail) == 0, floorFail},
		{"g2_macro_floor", macroB, atLeast("g2_macro_floor", macroB), nil},
		countGate("g2_uncertainty", g2u),
		{"g3_macro_gain", gain, atLeast("g3_macro_gain", gain), nil},
		{"g3_improved_tasks", improved, atLeast("g3_improved_tasks", improved), notImproved},
		{"g3_max_task_drop", worstDrop, len(dropFail) == 0, dropFail},
		countGate("g4_protocol", g4),
	}
	for _, what := range []struct {
		name  string
		value func(rcRun) *big.Rat
	}{{"cost", rcCostOf}, {"time", rcNSOf}} {
		agg := j.ratioOfSums(what.value)
		gates = append(gates, rcGate{"g5_" + what.name + "_aggregate", agg, atMost("g5_"+what.name+"_aggregate", agg), nil})
	}
	gates = append(gates, j.taskRatioGate("g5_cost_task", rcCostOf), j.taskRatioGate("g5_time_task", rcNSOf),
		j.pairRatioGate("g5_cost_pair", rcCostOf), j.pairRatioGate("g5_time_pair", rcNSOf))
	gates = append(gates, countGate("g5_session_limits", c.sessionsOverLimits()))
	return gates
}

func (j *rcJudge) taskRatioGate(name string, value func(rcRun) *big.Rat) rcGate {
	var worst *big.Rat
	var failing []string
	for _, task := range j.tasks {
		r := new(big.Rat).Quo(j.median(task, j.treat, value), j.median(task, j.base, value))
		if r.Cmp(j.thr[name]) > 0 {
			failing = append(failing, task)
		}
		worst = rcMax(worst, r)
	}
	return rcGate{name, worst, len(failing) == 0, failing}
}

func (j *rcJudge) pairRatioGate(name string, value func(rcRun) *big.Rat) rcGate {
	var worst *big.Rat
	var failing []string
	for _, p := range j.pairs {
		r := new(big.Rat).Quo(value(p[1]), value(p[0]))
		if r.Cmp(j.thr[name]) > 0 {
			failing = append(failing, p[1].name())
		}
		worst = rcMax(worst, r)
	}
	return rcGate{name, worst, len(failing) == 0, failing}
}

// sessionsOverLimits lists sessions beyond a per-session ceiling
// (inclusive): wall time, cumulative input, billed output.
func (c *rcCampaign) sessionsOverLimits() []string {
	lim := c.m.Ceilings.Session
	var over []string
	for _, r := range c.receipts {
		d := rcSessionNS(r) - r.ValidationMS*1_000_000
		over1 := d > lim.WallMS*1_000_000
		if r.Meter != nil {
			over1 = over1 || r.Meter.Usage.InputTokens > lim.InputTokens || r.Meter.Usage.OutputTokens > lim.OutputTokens
		}
		if over1 {
			over = append(over, r.SessionID)
		}
	}
	slices.Sort(over)
	return over
}

func rcMin(a, b *big.Rat) *big.Rat {
	if a == nil || b.Cmp(a) < 0 {
		return b
	}
	return a
}

func rcMax(a, b *big.Rat) *big.Rat {
	if a == nil || b.Cmp(a) > 0 {
		return b
	}
	return a
}

// rcDecide is rule G3's decision: no_verdict when a judged run is
// unscored; stop_no_gain when the gain gate fails; advance when every gate
// passes; otherwise do_not_advance.
func rcDecide(runs []rcRun, tasks []string, gates []rcGate) (string, []string) {
	var failing []string
	gainPass := false
	for _, g := range gates {
		if !g.pass {
			failing = append(failing, g.name)
		}
		if g.name == "g3_macro_gain" {
			gainPass = g.pass
		}
	}
	for _, r := range runs {
		if slices.Contains(tasks, r.task) && !r.scored {
			return "no_verdict", failing
		}
	}
	switch {
	case !gainPass:
		return "stop_no_gain", failing
	case len(failing) == 0:
		return "advance", failing
	}
	return "do_not_advance", failing
}
