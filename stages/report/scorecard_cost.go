package report

import (
	"math/big"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// CostAndTime is the third scorecard: complete cost and time (seed 000 §4,
// SPEC A4, A5, A8). Money is an exact decimal string in the rate cards'
// currency (reference basis); time is nanoseconds. A null amount means some
// contributing value is unavailable: it is never treated as zero.
type CostAndTime struct {
	Baseline string `json:"baseline"` // the first arm: ratios are arm / baseline
	// Physical campaign billing: every session once (the shared draft once),
	// from the tokens table.
	SessionReferenceCost *string         `json:"session_reference_cost"` // Σ reference_cost + tool_charges
	SessionActualCharge  *string         `json:"session_actual_charge"`  // Σ actual_charge; null = unavailable
	Arms                 []CostTimeArm   `json:"arms"`
	Ratios               []CostTimeRatio `json:"ratios"` // one per non-baseline arm
}

// CostTimeArm is one arm's allocated complete-workflow and review-only
// figures: runs and sums of task medians.
type CostTimeArm struct {
	Arm                     string  `json:"arm"`
	Runs                    int64   `json:"runs"`
	TotalWorkflowCost       *string `json:"total_workflow_cost"`
	MedianWorkflowCost      *string `json:"median_workflow_cost"` // over runs
	TotalReviewCost         *string `json:"total_review_cost"`
	MedianReviewCost        *string `json:"median_review_cost"`
	TotalWorkflowNS         int64   `json:"total_workflow_ns"`
	MedianWorkflowNS        *string `json:"median_workflow_ns"`
	TotalReviewNS           int64   `json:"total_review_ns"`
	MedianReviewNS          *string `json:"median_review_ns"`
	SumTaskMedianCost       *string `json:"sum_task_median_cost"` // from the tasks table
	SumTaskMedianReviewCost *string `json:"sum_task_median_review_cost"`
	SumTaskMedianNS         int64   `json:"sum_task_median_ns"`
	SumTaskMedianReviewNS   int64   `json:"sum_task_median_review_ns"`
}

// CostTimeRatio compares one arm's sums of task medians with the
// baseline's: Σ task-median(arm) / Σ task-median(baseline), never a mean
// of per-task ratios (G7).
type CostTimeRatio struct {
	Arm        string  `json:"arm"`
	Cost       *Change `json:"cost"`
	ReviewCost *Change `json:"review_cost"`
	Time       *Change `json:"time"`
	ReviewTime *Change `json:"review_time"`
}

// Change is an exact ratio with its direction: a ratio above 1 is an
// increase, reported with its size (A8).
type Change struct {
	Ratio     ratio  `json:"ratio"`
	Direction string `json:"direction"` // increase, decrease, unchanged
	Percent   string `json:"percent"`   // |ratio - 1| × 100, rounded to 2 decimals
}

func newChange(r *big.Rat) *Change {
	if r == nil {
		return nil
	}
	one := big.NewRat(1, 1)
	diff := new(big.Rat).Sub(r, one)
	dir := "unchanged"
	switch diff.Sign() {
	case 1:
		dir = "increase"
	case -1:
		dir = "decrease"
	}
	pct := new(big.Rat).Mul(new(big.Rat).Abs(diff), big.NewRat(100, 1))
	return &Change{Ratio: *newRatio(r), Direction: dir, Percent: pct.FloatString(2)}
}

func buildCostAndTime(s *tables.Set, arms []string) CostAndTime {
	out := CostAndTime{Arms: []CostTimeArm{}, Ratios: []CostTimeRatio{}}
	out.SessionReferenceCost, out.SessionActualCharge = sessionCosts(s.Tokens)
	type sums struct {
		cost, review *big.Rat
		ns, reviewNS int64
	}
	var base sums
	for i, arm := range arms {
		a := costArm(s, arm)
		out.Arms = append(out.Arms, a)
		cost, review, ns, reviewNS := taskMedianSums(s.Tasks, arm)
		if i == 0 {
			out.Baseline = arm
			base = sums{cost, review, ns, reviewNS}
			continue
		}
		out.Ratios = append(out.Ratios, CostTimeRatio{
			Arm:        arm,
			Cost:       newChange(stats.Ratio(cost, base.cost)),
			ReviewCost: newChange(stats.Ratio(review, base.review)),
			Time:       newChange(stats.Ratio(nsRat(ns), nsRat(base.ns))),
			ReviewTime: newChange(stats.Ratio(nsRat(reviewNS), nsRat(base.reviewNS))),
		})
	}
	return out
}

func costArm(s *tables.Set, arm string) CostTimeArm {
	a := CostTimeArm{Arm: arm}
	var cost, review, ns, reviewNS moneys
	for _, r := range s.Runs {
		if r.Arm != arm {
			continue
		}
		a.Runs++
		cost.add(r.WorkflowCost)
		review.add(r.ReviewCost)
		ns.addRat(nsRat(r.WorkflowNS))
		reviewNS.addRat(nsRat(r.ReviewNS))
		a.TotalWorkflowNS += r.WorkflowNS
		a.TotalReviewNS += r.ReviewNS
	}
	a.TotalWorkflowCost, a.MedianWorkflowCost = moneyString(cost.total()), moneyString(cost.median())
	a.TotalReviewCost, a.MedianReviewCost = moneyString(review.total()), moneyString(review.median())
	a.MedianWorkflowNS, a.MedianReviewNS = nsString(ns.median()), nsString(reviewNS.median())
	c, rc, n, rn := taskMedianSums(s.Tasks, arm)
	a.SumTaskMedianCost, a.SumTaskMedianReviewCost = moneyString(c), moneyString(rc)
	a.SumTaskMedianNS, a.SumTaskMedianReviewNS = n, rn
	return a
}

// taskMedianSums sums an arm's task medians; a money sum is nil when any
// task median is unavailable.
func taskMedianSums(rows []tables.Task, arm string) (cost, review *big.Rat, ns, reviewNS int64) {
	var c, r moneys
	for _, t := range rows {
		if t.Arm != arm {
			continue
		}
		c.add(t.MedianCost)
		r.add(t.MedianReviewCost)
		ns += t.MedianNS
		reviewNS += t.MedianReviewNS
	}
	return c.total(), r.total(), ns, reviewNS
}

// sessionCosts sums the tokens table: reference cost plus tool charges,
// and actual charges.
func sessionCosts(rows []tables.Token) (reference, actual *string) {
	var ref, act moneys
	for _, t := range rows {
		ref.add(t.ReferenceCost)
		ref.add(t.ToolCharges)
		act.add(t.ActualCharge)
	}
	return moneyString(ref.total()), moneyString(act.total())
}

// moneys collects exact amounts; missing records that one was null.
type moneys struct {
	vals    []*big.Rat
	missing bool
}

func (m *moneys) add(p *tables.Money) {
	if p == nil {
		m.missing = true
		return
	}
	m.vals = append(m.vals, moneyRat(*p))
}

func (m *moneys) addRat(r *big.Rat) { m.vals = append(m.vals, r) }

// total is the exact sum, nil when a value is missing; 0 for no values.
func (m *moneys) total() *big.Rat {
	if m.missing {
		return nil
	}
	sum := new(big.Rat)
	for _, v := range m.vals {
		sum.Add(sum, v)
	}
	return sum
}

// median is the exact median, nil when a value is missing or none exist.
func (m *moneys) median() *big.Rat {
	if m.missing {
		return nil
	}
	return stats.MedianRat(m.vals)
}
