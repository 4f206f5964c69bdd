package scorecard

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// CostAndTime is the third scorecard: complete cost and time (rule A8,
// rules A4, A5, A8). Money is an exact decimal string in the rate cards'
// currency (reference basis); time is nanoseconds. A null amount means some
// contributing value is unavailable: it is never treated as zero.
type CostAndTime struct {
	Baseline string `json:"baseline"` // the first arm: ratios are arm / baseline
	// Physical campaign billing: every session once (the shared draft once),
	// from the tokens table.
	SessionReferenceCost *string         `json:"session_reference_cost"` // Σ reference_cost + tool_charges
	SessionActualCharge  *string         `json:"session_actual_charge"`  // Σ actual_charge; null = unavailable
	Arms                 []CostTimeArm   `json:"arms"`
	Ratios               []CostTimeRatio `json:"ratios"` // one per non-baseline arm, over every task of every split
	// JudgedSplit is the split the gates judge ("" when none is judged).
	// RatiosBySplit holds each split's ratios, one per non-baseline arm;
	// the judged split's are over exactly the runs the gates judge (for
	// development round 2 only repetition 2): the aggregate cost and time
	// gates' observed values.
	JudgedSplit   string                     `json:"judged_split"`
	RatiosBySplit map[string][]CostTimeRatio `json:"ratios_by_split"`
	// PromptOverhead is one entry per non-baseline arm of a paired review:
	// the instruction and schema parts that differ from the baseline's,
	// counted in rendered bytes and in the input tokens the receipts give.
	PromptOverhead []PromptOverhead `json:"prompt_overhead"`
	// Currency is the rate cards' currency (ISO 4217; one per campaign):
	// every amount of money in the scorecard is in it. "" when no rate
	// card names one.
	Currency string `json:"currency"`
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
	SumTaskMedianNS         int64   `json:"sum_task_median_ns"` // the exact sum rounded half to even
	SumTaskMedianReviewNS   int64   `json:"sum_task_median_review_ns"`
	// The exact sums of task-median time, the numerators and denominators
	// of the time ratios (a median of an even count may end in .5).
	SumTaskMedianNSExact       *string `json:"sum_task_median_ns_exact"`
	SumTaskMedianReviewNSExact *string `json:"sum_task_median_review_ns_exact"`
}

// PromptOverhead is what one arm's prompts add to the baseline's (rule
// C3): bytes is each of its sessions' rendered bytes beyond the
// baseline's (the parts only the arm receives minus those only the
// baseline receives, framing included); input_tokens is the sum, over the
// metered_pairs pairs whose two reviews both have a meter, of the arm's
// cumulative input tokens minus the baseline's; null when no pair is
// metered.
type PromptOverhead struct {
	Arm               string       `json:"arm"`
	Baseline          string       `json:"baseline"`
	Bytes             int64        `json:"bytes"`
	ArmOnlyParts      []PromptPart `json:"arm_only_parts"`
	BaselineOnlyParts []PromptPart `json:"baseline_only_parts"`
	Pairs             int64        `json:"pairs"`
	MeteredPairs      int64        `json:"metered_pairs"`
	InputTokens       *int64       `json:"input_tokens"`
}

// PromptPart is one prompt part and the bytes it occupies in a rendering.
type PromptPart struct {
	ID            string `json:"id"`
	Kind          string `json:"kind"`
	RenderedBytes int64  `json:"rendered_bytes"`
}

// Text is the overhead in one sentence for the reports, e.g. "Prompt
// overhead of B over A: 3437 bytes per session (B only: review-b 830,
// reconciliation 3031; A only: review-a 424), 20625 input tokens over 23
// metered pairs (the receipts' counts)."
func (o PromptOverhead) Text() string {
	parts := func(ps []PromptPart) string {
		var s []string
		for _, p := range ps {
			s = append(s, p.ID+" "+Int(p.RenderedBytes))
		}
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, ", ")
	}
	tokens := "no pair of reviews is metered, so no token count"
	if o.InputTokens != nil {
		tokens = fmt.Sprintf("%s input tokens over %s metered pairs of %s (the receipts' counts)", Int(*o.InputTokens), Int(o.MeteredPairs), Int(o.Pairs))
	}
	return fmt.Sprintf("Prompt overhead of %s over %s: %s bytes per session (%s only: %s; %s only: %s), %s.",
		o.Arm, o.Baseline, Int(o.Bytes), o.Arm, parts(o.ArmOnlyParts), o.Baseline, parts(o.BaselineOnlyParts), tokens)
}

func promptOverhead(o tables.PromptOverhead) PromptOverhead {
	out := PromptOverhead{Arm: o.Arm, Baseline: o.Baseline, Bytes: o.Bytes, Pairs: o.Pairs, MeteredPairs: o.MeteredPairs,
		ArmOnlyParts: promptParts(o.ArmOnly), BaselineOnlyParts: promptParts(o.BaselineOnly)}
	if o.MeteredPairs > 0 {
		tokens := o.InputTokens
		out.InputTokens = &tokens
	}
	return out
}

func promptParts(ps []tables.PromptPartBytes) []PromptPart {
	out := []PromptPart{}
	for _, p := range ps {
		out = append(out, PromptPart{ID: p.ID, Kind: p.Kind, RenderedBytes: p.RenderedBytes})
	}
	return out
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
	Ratio     Ratio  `json:"ratio"`
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

// buildCostAndTime formats the aggregate stage's cost and time figures.
func buildCostAndTime(f tables.Figures) CostAndTime {
	out := CostAndTime{Baseline: f.Baseline, Arms: []CostTimeArm{}, Ratios: []CostTimeRatio{},
		JudgedSplit: f.JudgedSplit, RatiosBySplit: map[string][]CostTimeRatio{}}
	out.SessionReferenceCost, out.SessionActualCharge = moneyFigure(f.SessionReferenceCost), moneyFigure(f.SessionActualCharge)
	for _, a := range f.CostArms {
		out.Arms = append(out.Arms, CostTimeArm{
			Arm: a.Arm, Runs: a.Runs,
			TotalWorkflowCost: moneyFigure(a.TotalWorkflowCost), MedianWorkflowCost: moneyFigure(a.MedianWorkflowCost),
			TotalReviewCost: moneyFigure(a.TotalReviewCost), MedianReviewCost: moneyFigure(a.MedianReviewCost),
			TotalWorkflowNS: a.TotalWorkflowNS, MedianWorkflowNS: nsString(a.MedianWorkflowNS),
			TotalReviewNS: a.TotalReviewNS, MedianReviewNS: nsString(a.MedianReviewNS),
			SumTaskMedianCost: moneyFigure(a.SumTaskMedianCost), SumTaskMedianReviewCost: moneyFigure(a.SumTaskMedianReviewCost),
			SumTaskMedianNS: roundedNS(a.SumTaskMedianNS), SumTaskMedianReviewNS: roundedNS(a.SumTaskMedianReviewNS),
			SumTaskMedianNSExact: nsString(a.SumTaskMedianNS), SumTaskMedianReviewNSExact: nsString(a.SumTaskMedianReviewNS),
		})
	}
	for _, r := range f.CostRatios {
		out.Ratios = append(out.Ratios, costTimeRatio(r))
	}
	for _, r := range f.SplitRatios {
		out.RatiosBySplit[r.Split] = append(out.RatiosBySplit[r.Split], costTimeRatio(r.ArmCostRatio))
	}
	out.PromptOverhead = []PromptOverhead{}
	for _, o := range f.PromptOverheads {
		out.PromptOverhead = append(out.PromptOverhead, promptOverhead(o))
	}
	return out
}

// costTimeRatio formats one arm's exact ratios.
func costTimeRatio(r tables.ArmCostRatio) CostTimeRatio {
	return CostTimeRatio{Arm: r.Arm,
		Cost: newChange(r.Cost), ReviewCost: newChange(r.ReviewCost), Time: newChange(r.Time), ReviewTime: newChange(r.ReviewTime)}
}

// roundedNS is an exact number of nanoseconds rounded half to even, 0 when
// unavailable: the integer columns kept beside their exact text.
func roundedNS(r *big.Rat) int64 {
	v, _ := stats.RoundHalfEven(r)
	return v
}
