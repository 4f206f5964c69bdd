package aggregate

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// Cost and time gates (A8): aggregate ratio Σ task-median(treatment) /
// Σ task-median(baseline), each task-median ratio, each paired
// complete-workflow ratio. Fewer calls never excuse more time or money:
// only cost and time enter these gates (C14).

// medianOf picks a task median; review selects the review-only figure.
type medianOf func(ta *taskArm, review bool) *big.Rat

func costMedian(ta *taskArm, review bool) *big.Rat {
	if ta == nil {
		return nil
	}
	if review {
		return ta.medianReviewCost
	}
	return ta.medianCost
}

func timeMedian(ta *taskArm, review bool) *big.Rat {
	if ta == nil || !ta.timeComplete {
		return nil
	}
	if review {
		return ta.medianReviewNS
	}
	return ta.medianNS
}

// aggregateRatio compares sums of task medians. The detail labels an
// increase with its size and adds the review-only ratio, so the shared
// draft cannot hide review overhead.
func (j *judge) aggregateRatio(t threshold, median medianOf, what string) tables.Gate {
	ratio := j.ratioOfSums(median, false)
	review := j.ratioOfSums(median, true)
	detail := fmt.Sprintf("%s %s vs %s: %s; review-only ratio %s (%s)", what, j.arm, j.base,
		stats.FormatPercentChange(ratio), stats.FormatRat(review), stats.FormatPercentChange(review))
	return j.gate(t, ratio, nil, detail)
}

func (j *judge) ratioOfSums(median medianOf, review bool) *big.Rat {
	return sumRatio(j.tasks, j.treat, j.ref, median, review)
}

// taskRatio bounds every task-median ratio; observed is the largest.
func (j *judge) taskRatio(t threshold, median medianOf) tables.Gate {
	var failing []string
	var ratios []*big.Rat
	for _, id := range j.tasks {
		r := stats.Ratio(median(j.treat[id], false), median(j.ref[id], false))
		if !t.pass(r) {
			failing = append(failing, id)
		}
		ratios = append(ratios, r)
	}
	worst := largest(ratios)
	return j.gate(t, worst, failing, "largest task-median ratio: "+stats.FormatPercentChange(worst))
}

// pairRatio bounds every paired complete-workflow ratio (same task and
// repetition, so the same draft); observed is the largest. A pair is the
// last baseline and the last treatment run of a (task, repetition), whose
// runs follow each other (runSet); failing names pairs in name order.
func (j *judge) pairRatio(t threshold, value func(*tables.Run) (int64, bool)) tables.Gate {
	var failing []string
	var worst *big.Rat
	known := true // every pair's ratio is known
	var cur struct {
		task            string
		rep             int64
		open            bool
		base, treat     int64 // the pair's integer values
		baseOK, treatOK bool  // the run is there and its value known
	}
	flush := func() {
		if !cur.open {
			return
		}
		var r *big.Rat
		if cur.baseOK && cur.treatOK {
			// stats.Ratio of the two integers as rationals, without them:
			// nil unless base > 0, else treat/base in lowest terms.
			r = stats.Fraction(cur.treat, cur.base)
		}
		if !t.pass(r) {
			failing = append(failing, fmt.Sprintf("%s/r%d", cur.task, cur.rep))
		}
		switch {
		case r == nil:
			known = false
		case worst == nil || stats.Cmp(r, worst) > 0:
			worst = r
		}
	}
	for r := range j.runs.All() {
		if !cur.open || r.TaskID != cur.task || r.Repetition != cur.rep {
			flush()
			cur.task, cur.rep, cur.open, cur.baseOK, cur.treatOK = r.TaskID, r.Repetition, true, false, false
		}
		if r.Arm == j.arm {
			cur.treat, cur.treatOK = value(r)
		} else {
			cur.base, cur.baseOK = value(r)
		}
	}
	flush()
	if !known {
		worst = nil // largest: unknown when a ratio is
	}
	slices.Sort(failing) // the pairs' names are distinct
	return j.gate(t, worst, failing, "largest paired complete-workflow ratio: "+stats.FormatPercentChange(worst))
}

// largest is the maximum, or nil when xs is empty or holds a nil.
func largest(xs []*big.Rat) *big.Rat {
	var m *big.Rat
	for _, x := range xs {
		if x == nil {
			return nil
		}
		if m == nil || stats.Cmp(x, m) > 0 {
			m = x
		}
	}
	return m
}

// runCost is a run's workflow cost, not ok when it is null.
func runCost(r *tables.Run) (int64, bool) {
	if r.WorkflowCost == nil {
		return 0, false
	}
	return int64(*r.WorkflowCost), true
}

// runTime is a run's workflow time, not ok when it is incomplete.
func runTime(r *tables.Run) (int64, bool) { return r.WorkflowNS, r.TimeComplete }

// smallest is the minimum, or nil when xs is empty or holds a nil.
func smallest(xs []*big.Rat) *big.Rat {
	var m *big.Rat
	for _, x := range xs {
		if x == nil {
			return nil
		}
		if m == nil || stats.Cmp(x, m) < 0 {
			m = x
		}
	}
	return m
}

// blockCost fails a cost gate whose costs cannot be shown within a hard
// spend bound (rules A2, A7: a missing tariff, a missing or insufficient
// reservation or an incomplete meter means the cost gate cannot pass),
// naming every blocking session and why. Other gates are unchanged.
func (j *judge) blockCost(g tables.Gate) tables.Gate {
	if len(j.costBlockers) == 0 {
		return g
	}
	g.Pass = false
	failing := slices.Clone(g.Failing)
	reasons := make([]string, 0, len(j.costBlockers))
	for _, b := range j.costBlockers {
		failing = append(failing, b.session)
		reasons = append(reasons, b.session+" ("+b.why+")")
	}
	g.Failing = failing
	g.Detail = fmt.Sprintf("cost cannot be shown within a hard spend bound for %d sessions: %s; %s", len(reasons), strings.Join(reasons, "; "), g.Detail)
	return g
}
