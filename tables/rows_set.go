package tables

import (
	"errors"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
)

// Set is every table one run of the pipeline produces. Each stage fills
// its own fields and reads those of earlier stages. The largest tables
// are held as a [spool.Spool] (compressed, iterated in order), which every reader
// iterates with All; a nil spool is an empty table.
type Set struct {
	Sessions     *spool.Spool[Session] // sorted as the validate stage sorts them
	Tokens       *spool.Spool[Token]
	Obligations  *spool.Spool[ObligationOutcome]
	Dispositions *spool.Spool[DispositionRow]
	Citations    *spool.Spool[CitationRow]
	Runs         *spool.Spool[Run]
	Tasks        []Task
	Repositories []Repository
	Gates        []Gate
	Decision     []Decision
	Intervals    []Interval
	Rejections   []rules.Finding
	Ledger       *spool.Spool[LedgerEntry] // in receipt order, then admission entries
	Ceilings     []Ceiling
	// PromptVersions are a paired review's development-flow prompt
	// versions (tables/development.go).
	PromptVersions []PromptVersion

	// Reviewer-benchmark tables (tables/rbench_rows.go).
	Cases                []CaseRow
	Reviews              []ReviewRow
	Criteria             []CriterionRow
	Findings             []FindingRow
	FindingAdjudications []FindingAdjudicationRow
	ReviewMetrics        []ReviewMetric
	LabelQueue           []LabelQueueRow
}

// Err is the error of every spool of the set that failed (see
// [spool.Spool.Err]), joined, or nil: a row that could not be read back from a
// spool's temporary file ended an iteration early, so some stage computed
// on fewer rows than the table holds. Nothing of a set whose Err is not nil
// may be reported: no verdict, no table.
func (s *Set) Err() error {
	return errors.Join(s.Sessions.Err(), s.Tokens.Err(), s.Obligations.Err(), s.Dispositions.Err(),
		s.Citations.Err(), s.Runs.Err(), s.Ledger.Err())
}
