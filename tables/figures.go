package tables

import "math/big"

// Figures are the exact numbers the scorecard and the reports show, each
// computed once by the aggregate stage from the same task medians the gates
// read; the report only formats them. Money is in pico-units of the rate
// cards' currency (like [Money]), time in nanoseconds. A nil value is
// unavailable — some contributing value is unknown — never zero. Figures
// are not a table: they have no Parquet file.
type Figures struct {
	// Baseline is the first arm: ratios are arm / baseline.
	Baseline string
	// Physical campaign billing from the tokens table, every session once:
	// Σ reference cost + tool charges, and Σ actual charges.
	SessionReferenceCost, SessionActualCharge *big.Rat
	CostArms                                  []ArmCostTime  // manifest arm order, then other arms sorted
	CostRatios                                []ArmCostRatio // one per non-baseline arm, over every task of every split
	// JudgedSplit is the split the gate policy judges; empty when no
	// policy judges the campaign.
	JudgedSplit string
	// SplitRatios are the cost and time ratios per split and non-baseline
	// arm, split order then arm order. The judged split's rows cover
	// exactly the runs the gates judge (for development round 2 only
	// repetition 2), so they equal the aggregate gates' observed values.
	SplitRatios   []SplitCostRatio
	EvidenceArms  []SplitArmMacro
	EvidenceTasks []TaskArmMedians // manifest task order, then arm order
	Systems       *SystemFigures   // kind system-comparison only; nil otherwise
	// Commitment is a reviewer benchmark's ledger commitment on the
	// reference basis (account.Commit), as its budget gate reads it; nil
	// for other kinds.
	Commitment *Commitment
	// PromptOverheads is one per non-baseline arm of a paired review.
	PromptOverheads []PromptOverhead
}

// ArmCostTime is one arm's complete-workflow and review-only cost and time
// over its runs, and the sums of its task medians.
type ArmCostTime struct {
	Arm                                   string
	Runs                                  int64
	TotalWorkflowCost, MedianWorkflowCost *big.Rat // over runs; nil when a run's cost is null
	TotalReviewCost, MedianReviewCost     *big.Rat
	TotalWorkflowNS, TotalReviewNS        int64
	MedianWorkflowNS, MedianReviewNS      *big.Rat
	// Σ task medians: the numerators and denominators of the aggregate
	// cost and time ratios. A cost sum is nil when a task median is.
	SumTaskMedianCost, SumTaskMedianReviewCost *big.Rat
	SumTaskMedianNS, SumTaskMedianReviewNS     *big.Rat
}

// ArmCostRatio is Σ task-median(arm) / Σ task-median(baseline) over every
// task, the rule of the aggregate cost and time gates (never a mean of
// per-task ratios). A ratio is nil when a median is unavailable (for time:
// when a task's time is incomplete) or the baseline sum is not positive.
type ArmCostRatio struct {
	Arm                                string
	Cost, ReviewCost, Time, ReviewTime *big.Rat
}

// SplitCostRatio is one split's [ArmCostRatio]; Judged marks the split
// the gates judge (its ratios are over the judged runs only).
type SplitCostRatio struct {
	Split  string
	Judged bool
	ArmCostRatio
}

// SplitArmMacro is one arm's macro-averages of task medians over the tasks
// of one split (splits are never averaged together). A macro-average is nil
// when a task median is unavailable: the denominator never shrinks.
type SplitArmMacro struct {
	Arm, Split       string
	Tasks            int64
	MacroMedianR     *big.Rat
	UncertaintyTasks int64    // tasks with an unanswerable obligation
	MacroMedianU     *big.Rat // over uncertainty tasks; nil when none
}

// TaskArmMedians is one (task, arm)'s exact medians over its repetitions,
// the values the gates compare.
type TaskArmMedians struct {
	Task, Split, Arm string
	Runs, ScoredRuns int64
	MedianR          *big.Rat // nil when a run is unscored
	MedianU          *big.Rat // nil when the task has no U or a run lacks it
}
