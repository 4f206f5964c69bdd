package tables

import "github.com/evalgate/evalgate/rules"

// Stage inputs and outputs of the reviewer-benchmark pipeline: validate
// → score → aggregate, wired by stages/run.go like the paired review's.

// ReviewFiles reads the files a reviewer benchmark's sessions point to.
// The load stage implements it (stages/load.ReviewFiles); later stages
// never open campaign files themselves.
type ReviewFiles interface {
	// Read reads the file out names, hashing all of it and keeping at
	// most the answer size cap plus one byte. matches is false when the
	// sha256 or byte count differs from out; err reports a file that
	// cannot be opened or read.
	Read(out *OutputRef) (data []byte, matches bool, err error)
	// DecodeReview strictly decodes one reviewer output; file is used in
	// findings. It returns nil when the bytes are not a review document.
	DecodeReview(file string, data []byte) (*Review, rules.Findings)
	// Trial reads and decodes the Harbor trial result at path, bounded,
	// and reports whether the file exists with that sha256. A nil result
	// with exists true means the file does not decode.
	Trial(path, sha256 string) (result *TrialResult, exists bool)
}

// ReviewAttempt is one scheduled review attempt as validated: its row
// with identity and status filled, and the decoded review when the
// session returned one (completed or abstained).
type ReviewAttempt struct {
	Row    ReviewRow
	Review *Review
	Line   int64 // receipts.jsonl line; 0 when missing
	// Replaced are the session IDs of the attempt's earlier executions,
	// replaced within the infrastructure-replacement allowance: retained
	// and charged, never scored.
	Replaced []string
}

// ReviewsValidated is what the validate stage produces for a reviewer
// benchmark: every case, every scheduled attempt (sorted by case, profile, run), the
// grounding of every finding, the raw rating of every criterion, every
// adjudication line, and the stage's findings.
type ReviewsValidated struct {
	Cases         []CaseRow // in cases.json order
	Attempts      []ReviewAttempt
	Findings      []FindingRow   // Adjudication is settled by score
	Criteria      []CriterionRow // Effective and Reason are derived by score
	Adjudications []FindingAdjudicationRow
	Problems      rules.Findings
}

// ReviewsScored is what the score stage produces: the attempt rows with
// decision, detection and blocking, the criteria with effective ratings,
// the findings with settled adjudications, the label-adjudication queue,
// and the stage's findings.
type ReviewsScored struct {
	Reviews    []ReviewRow
	Criteria   []CriterionRow
	Findings   []FindingRow
	LabelQueue []LabelQueueRow // findings that put a case's label in question, in review order
	Problems   rules.Findings
}

// ReviewsAggregated is what the aggregate stage produces: the metrics,
// the promotion gates and the decision.
type ReviewsAggregated struct {
	Metrics  []ReviewMetric
	Gates    []Gate
	Decision []Decision
	Problems rules.Findings
}
