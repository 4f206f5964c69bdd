package tables

// Set is every table one run of the pipeline produces. Each stage fills
// its own fields and reads those of earlier stages.
type Set struct {
	Sessions     []Session
	Tokens       []Token
	Obligations  []ObligationOutcome
	Dispositions []DispositionRow
	Citations    []CitationRow
	Runs         []Run
	Tasks        []Task
	Repositories []Repository
	Gates        []Gate
	Decision     []Decision
	Intervals    []Interval
	Rejections   []Finding
	Ledger       []LedgerEntry
	Ceilings     []Ceiling

	// Reviewer-benchmark tables (tables/rbench_rows.go).
	Cases                []CaseRow
	Reviews              []ReviewRow
	Criteria             []CriterionRow
	Findings             []FindingRow
	FindingAdjudications []FindingAdjudicationRow
	ReviewMetrics        []ReviewMetric
}
