package rules

// Campaign kinds (rule K1).
const (
	KindPairedReview      = "paired-review"
	KindSystemComparison  = "system-comparison"
	KindReviewerBenchmark = "reviewer-benchmark"
)
