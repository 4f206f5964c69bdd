package intervals

import (
	"cmp"
	"math"
	"math/big"
	"slices"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/stats/boot"
	"github.com/evalgate/evalgate/tables"
)

// Statistic names written into the statistic column.
const (
	StatMacroR    = "r.macro_task_median"                 // per arm: mean of task-median R
	StatMacroDiff = "r.macro_task_median.diff"            // paired tasks: treatment − baseline
	StatCostRatio = "cost.workflow.ratio_of_task_medians" // Σ task-median cost treatment / Σ baseline
	StatTimeRatio = "time.workflow.ratio_of_task_medians" // Σ task-median time treatment / Σ baseline
)

type statKind int

const (
	perArm      statKind = iota // Σ medians / tasks
	pairedDiff                  // (Σ treatment − Σ baseline) / paired tasks
	pairedRatio                 // Σ treatment / Σ baseline over paired tasks
)

// statSpec is one statistic of the set; its three columns in the family
// sum vector are 3i (tasks), 3i+1 (Σ treatment), 3i+2 (Σ baseline).
type statSpec struct {
	name, unit, contrast string
	arm, base            string
	kind                 statKind
	m                    measure
}

// specs lists the statistic set: the macro-average for every arm, then for
// each arm judged against the baseline the paired difference and the cost
// and time ratios.
func (red *reduction) specs() []statSpec {
	var out []statSpec
	for _, a := range red.arms {
		out = append(out, statSpec{StatMacroR, "fraction", a, a, "", perArm, measureR})
	}
	for i, x := range red.arms {
		if i == 0 {
			continue
		}
		base := red.arms[0]
		out = append(out,
			statSpec{StatMacroDiff, "difference", x + "-" + base, x, base, pairedDiff, measureR},
			statSpec{StatCostRatio, "ratio", x + "/" + base, x, base, pairedRatio, measureCost},
			statSpec{StatTimeRatio, "ratio", x + "/" + base, x, base, pairedRatio, measureTime})
	}
	return out
}

// accum is one statistic's exact sums per cluster and its counts.
type accum struct {
	perCluster              [][3]stats.RatSum // tasks, Σ treatment, Σ baseline
	total                   [3]stats.RatSum
	nTasks, nRuns, nDropped int64
}

func newAccum(clusters int) *accum {
	return &accum{perCluster: make([][3]stats.RatSum, clusters)}
}

// one is the count a task adds to its cluster; it is only read.
var one = big.NewRat(1, 1)

func (a *accum) add(ci int, treat, base *big.Rat, runs int) {
	for j, v := range [3]*big.Rat{one, treat, base} {
		if v != nil {
			a.perCluster[ci][j].Add(v)
			a.total[j].Add(v)
		}
	}
	a.nTasks++
	a.nRuns += int64(runs)
}

// accumulate walks the tasks in canonical order and fills one accum per spec.
func (red *reduction) accumulate(specs []statSpec) ([]*accum, []bool) {
	accs := make([]*accum, len(specs))
	for i := range accs {
		accs[i] = newAccum(len(red.clusters))
	}
	used := make([]bool, len(red.clusters))
	ci := -1
	for ti, k := range red.tasks {
		if ti == 0 || red.tasks[ti-1].cluster != k.cluster {
			ci++
		}
		for i, sp := range specs {
			t := red.cells[k][sp.arm]
			mt := t.median(sp.m)
			if sp.kind == perArm {
				if mt != nil {
					accs[i].add(ci, mt, nil, t.runs(sp.m))
					used[ci] = true
				}
				continue
			}
			b := red.cells[k][sp.base]
			mb := b.median(sp.m)
			switch {
			case mt != nil && mb != nil:
				accs[i].add(ci, mt, mb, t.runs(sp.m)+b.runs(sp.m))
				used[ci] = true
			case mt != nil || mb != nil:
				accs[i].nDropped++
			}
		}
	}
	return accs, used
}

// point is the exact estimate rounded once to float64, or nil when undefined.
func (sp statSpec) point(a *accum) *float64 {
	n, t, b := a.total[0].Rat(), a.total[1].Rat(), a.total[2].Rat()
	switch sp.kind {
	case perArm:
		return stats.Float(stats.Ratio(t, n))
	case pairedDiff:
		return stats.Float(stats.Ratio(new(big.Rat).Sub(t, b), n))
	}
	return stats.Float(stats.Ratio(t, b))
}

func (sp statSpec) bootStatistic(i int, a *accum) boot.BootStatistic {
	st := boot.BootStatistic{Name: sp.name, Point: sp.point(a), Range: unitRange(sp.unit)}
	c := 3 * i
	switch sp.kind {
	case perArm:
		st.Num, st.Den = []boot.BootTerm{{Column: c + 1}}, c
	case pairedDiff:
		st.Num, st.Den = []boot.BootTerm{{Column: c + 1}, {Column: c + 2, Negate: true}}, c
	default:
		st.Num, st.Den = []boot.BootTerm{{Column: c + 1}}, c+2
	}
	return st
}

// matrix returns the float per-cluster sums of the used clusters, each
// exact sum rounded once.
func matrix(accs []*accum, used []bool) [][]float64 {
	var rows [][]float64
	for ci, u := range used {
		if !u {
			continue
		}
		row := make([]float64, 0, 3*len(accs))
		for _, a := range accs {
			for j := range a.perCluster[ci] {
				f, _ := a.perCluster[ci][j].Rat().Float64()
				row = append(row, f)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// rows runs the bootstrap and renders one row per statistic × method.
func (red *reduction) rows(campaignID string, p plan) []tables.Interval {
	specs := red.specs()
	accs, used := red.accumulate(specs)
	bs := make([]boot.BootStatistic, len(specs))
	for i, sp := range specs {
		bs[i] = sp.bootStatistic(i, accs[i])
	}
	est, err := boot.FamilyBootstrap(matrix(accs, used), bs, boot.BootOptions{Resamples: p.resamples, Seed: p.seed, Workers: p.workers})
	if err != nil { // unreachable: sums are finite and columns in range
		return nil
	}
	var out []tables.Interval
	for i, sp := range specs {
		e := est[i]
		e.Status = red.emptyStatus(sp, e.Status)
		out = append(out, renderRows(campaignID, p, sp, accs[i], e)...)
	}
	slices.SortStableFunc(out, func(a, b tables.Interval) int {
		return cmp.Or(cmp.Compare(a.Statistic, b.Statistic), cmp.Compare(a.Arm, b.Arm),
			cmp.Compare(a.Contrast, b.Contrast), cmp.Compare(a.Method, b.Method))
	})
	return out
}

// emptyStatus refines no_data: the measure exists in the campaign but the
// arm has none (empty_arm), or both arms have some but no task has both
// (no_pairs).
func (red *reduction) emptyStatus(sp statSpec, s boot.BootStatus) boot.BootStatus {
	if s != boot.StatusNoData || !red.any[sp.m] {
		return s
	}
	has := red.armAny[sp.m]
	if !has[sp.arm] || (sp.kind != perArm && !has[sp.base]) {
		return boot.StatusEmptyArm
	}
	if sp.kind != perArm {
		return boot.StatusNoPairs
	}
	return s
}

func renderRows(campaignID string, p plan, sp statSpec, a *accum, e boot.BootEstimate) []tables.Interval {
	out := make([]tables.Interval, 0, len(e.Bounds))
	for _, b := range e.Bounds {
		row := tables.Interval{
			Statistic: sp.name, Arm: sp.arm, Method: string(b.Method), Status: string(e.Status),
			Estimate: finite(e.Point), Level: boot.BootLevel,
			NFamilies: int64(e.Families), Resamples: int64(p.resamples), Seed: p.seed,
			RNG: boot.RNGName, AlgorithmVersion: boot.BootAlgorithmVersion, Cluster: p.cluster,
			Label: Label, GateEffect: GateEffect,
			CampaignID: campaignID, Contrast: sp.contrast, Unit: sp.unit, QuantileRule: boot.QuantileRule,
			PLower: finite(b.P), BootSE: finite(e.BootSE),
			NTasks: a.nTasks, NRuns: a.nRuns, NTasksDroppedUnpaired: a.nDropped,
			NUndefinedResamples: int64(e.Undefined), SmallGFlag: e.SmallG,
			Primary: b.Method == e.Primary,
		}
		if e.Status == boot.StatusOK {
			row.Lo, row.Hi, row.Clipped = finite(b.Lo), finite(b.Hi), b.Clipped
		}
		if e.Status == boot.StatusNoData || e.Status == boot.StatusEmptyArm || e.Status == boot.StatusNoPairs {
			row.Estimate = nil
		}
		out = append(out, row)
	}
	return out
}

// unitRange is the parameter space of a statistic of the given unit: a
// fraction lies in [0, 1], a difference of fractions in [−1, 1], a ratio of
// non-negative sums in [0, +Inf]. Every interval is clipped to it (the
// cluster t interval is not range-preserving) and the row says so.
func unitRange(unit string) *[2]float64 {
	switch unit {
	case "fraction":
		return &[2]float64{0, 1}
	case "difference":
		return &[2]float64{-1, 1}
	case "ratio":
		return &[2]float64{0, math.Inf(1)}
	}
	return nil
}

func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
