package tables

// Row types of the reviewer-benchmark tables (rule G6). Field comments
// are the data dictionary; see rows.go for the conventions. For other
// campaign kinds these tables are empty.

// CaseRow is one row per benchmark case: its private label, as the scorer
// uses it.
type CaseRow struct {
	CaseID          string  `parquet:"case_id"`                        // the benchmark case
	Family          string  `parquet:"family,dict"`                    // the task's family: the cluster of the bootstrap
	LineageGroup    string  `parquet:"lineage_group,dict"`             // cases of one lineage group are never split across splits (no leak)
	Split           string  `parquet:"split,dict"`                     // development, selection, final
	Kind            string  `parquet:"kind,dict"`                      // clean, variant
	Label           string  `parquet:"label,dict"`                     // audited, provisional
	Regression      bool    `parquet:"regression"`                     // the case is a known regression case
	Retired         bool    `parquet:"retired"`                        // the case's split is a final split consumed by tuning
	Variant         *string `parquet:"variant,optional"`               // null for a clean case
	DefectCriterion *string `parquet:"defect_criterion,optional,dict"` // null for a clean case
	DefectCategory  *string `parquet:"defect_category,optional,dict"`  // the planted defect category; null for a clean case
	DefectPath      *string `parquet:"defect_path,optional"`           // the planted defect's file; null for a clean case
	DefectStartLine *int64  `parquet:"defect_start_line,optional"`     // the planted defect's first line; null for a clean case
	DefectEndLine   *int64  `parquet:"defect_end_line,optional"`       // the planted defect's last line; null for a clean case
	Files           int64   `parquet:"files"`                          // task files in the inventory
	TaskChecksum    string  `parquet:"task_checksum"`                  // sha256 of the sorted "F\0path\0sha256\n" entries: what a bound trial's task_checksum must equal
}

// Review statuses of a scheduled review attempt, in order of precedence.
const (
	ReviewStatusMissing         = "missing"          // no receipt for the scheduled attempt
	ReviewStatusExecutionError  = "execution_error"  // the session ended in an error or interruption, or was not dispatched
	ReviewStatusSchemaViolation = "schema_violation" // a response that does not decode as a review
	// A decoded review that breaks the finding contract ("Use one stable
	// ID per issue within an immutable review"; "inconsistent findings
	// are rejected"): a finding ID or criterion used twice, or a rating
	// attaching a finding the review does not have. Rejected as a whole:
	// no decision, no finding or criterion rows.
	ReviewStatusContractViolation = "contract_violation"
	ReviewStatusAbstained         = "abstained" // the reviewer declined to decide
	ReviewStatusCompleted         = "completed" // a decoded review that keeps the finding contract
)

// ReviewStatuses lists the review statuses in report order.
var ReviewStatuses = []string{ReviewStatusCompleted, ReviewStatusAbstained, ReviewStatusContractViolation,
	ReviewStatusSchemaViolation, ReviewStatusExecutionError, ReviewStatusMissing}

// Review decisions (reviews.decision) derived from the effective ratings.
const (
	ReviewBlock     = "block"     // some criterion's effective rating is fail
	ReviewPass      = "pass"      // every criterion's effective rating is pass
	ReviewUndecided = "undecided" // neither: some rating is unknown
)

// ReviewRow is one row per scheduled review attempt (case × profile ×
// run): the unit every reviewer-benchmark metric counts. Every scheduled
// attempt has a row; nothing leaves a denominator.
type ReviewRow struct {
	SessionID    string  `parquet:"session_id"`                   // "" when missing
	CaseID       string  `parquet:"case_id"`                      // the benchmark case
	Family       string  `parquet:"family,dict"`                  // the task's family: the cluster of the bootstrap
	Split        string  `parquet:"split,dict"`                   // development, selection or final
	CaseKind     string  `parquet:"case_kind,dict"`               // clean, variant
	Label        string  `parquet:"label,dict"`                   // audited, provisional
	Regression   bool    `parquet:"regression"`                   // the case is a known regression case
	Profile      string  `parquet:"profile,dict"`                 // the arm
	Model        string  `parquet:"model,dict"`                   // the model stratum: the receipt's returned model, the manifest's when missing
	Run          int64   `parquet:"run"`                          // 1-based run of the case under the profile
	Status       string  `parquet:"status,dict"`                  // completed, abstained, contract_violation, schema_violation, execution_error, missing
	Decision     *string `parquet:"decision,optional,dict"`       // block, pass, undecided; null unless completed
	Decidable    bool    `parquet:"decidable"`                    // completed with a block or pass decision
	Detected     *bool   `parquet:"detected,optional"`            // variants: a grounded blocking finding at the planted category and location; null for clean cases
	Blocked      *bool   `parquet:"blocked,optional"`             // clean cases: the decision is block; null for variants
	Findings     int64   `parquet:"findings"`                     // the review's rows in the findings table: its findings, each ID once; 0 for a review rejected as a contract violation
	Grounded     int64   `parquet:"grounded_blocking"`            // grounded blocking findings
	InputTokens  int64   `parquet:"input_tokens"`                 // uncached + cached + cache writes
	OutputTokens int64   `parquet:"output_tokens"`                // billed output tokens, reasoning included
	Cost         *Money  `parquet:"cost,optional,decimal(12:18)"` // accounted reference cost plus tool charges of its executions; 0 when all held
	DurationNS   *int64  `parquet:"duration_ns,optional"`         // null without a terminal time

	// The attempt's ledger (rules A7, G6): known cost above, holds beside it.
	Executions int64  `parquet:"executions"`                        // receipts of the attempt: 1, more when an infrastructure-invalid execution was replaced (each retained and charged); 0 when missing
	HeldCost   *Money `parquet:"held_cost,optional,decimal(12:18)"` // what the ledger holds for its executions (interrupted, unmetered or unpriced, at the reservation's worst case); 0 when nothing is held, null when a hold has no bound
}

// Effective-rating reasons of a CriterionRow.
const (
	EffectiveProposed           = "proposed"            // the proposed rating stands
	EffectiveGroundedOverride   = "grounded_blocking"   // a grounded blocking finding makes it fail, overriding the proposal
	EffectiveUnsupportedFailure = "unsupported_failure" // a proposed fail without a grounded blocking finding becomes unknown
	EffectiveNotRated           = "not_rated"           // the review rated no such criterion: unknown
)

// CriterionRow is one row per (completed review, criterion): the raw
// proposed rating and the effective rating derived in code.
type CriterionRow struct {
	SessionID string   `parquet:"session_id"`            // the session, as receipts.jsonl and the schedule name it
	CaseID    string   `parquet:"case_id"`               // the benchmark case
	Profile   string   `parquet:"profile,dict"`          // the reviewer profile (the arm)
	Run       int64    `parquet:"run"`                   // 1-based run of the case under the profile
	Criterion string   `parquet:"criterion,dict"`        // the review criterion
	Raw       string   `parquet:"raw_rating,dict"`       // pass, fail, unknown, absent
	Effective string   `parquet:"effective_rating,dict"` // pass, fail, unknown
	Reason    string   `parquet:"reason,dict"`           // proposed, grounded_blocking, unsupported_failure, not_rated
	Owned     []string `parquet:"finding_ids,list"`      // the finding IDs the reviewer attached, in submitted order
}

// Reasons a finding is not grounded.
const (
	UngroundedNone            = ""
	UngroundedNotSupported    = "not_supported"    // the conclusion is dismissed or unresolved
	UngroundedNoEvidence      = "no_evidence"      // no excerpt and no trial
	UngroundedFabricatedQuote = "fabricated_quote" // an excerpt is not the task file's bytes or hash
	UngroundedUnboundProbe    = "unbound_probe"    // a probe claim without a bound trial receipt
	UngroundedInstrumentation = "instrumentation"  // a cited trial ended in a timeout, setup failure or no reward: unresolved
	UngroundedOtherCase       = "other_case"       // a cited trial belongs to another case
)

// FindingRow is one row per finding of every completed review.
type FindingRow struct {
	SessionID     string `parquet:"session_id"`                // the session, as receipts.jsonl and the schedule name it
	CaseID        string `parquet:"case_id"`                   // the benchmark case
	Profile       string `parquet:"profile,dict"`              // the reviewer profile (the arm)
	Run           int64  `parquet:"run"`                       // 1-based run of the case under the profile
	FindingID     string `parquet:"finding_id"`                // the finding's ID within its review
	Criterion     string `parquet:"criterion,dict"`            // the review criterion
	Category      string `parquet:"category,dict"`             // the finding's defect category
	Path          string `parquet:"path"`                      // the cited file, relative to the repository root
	StartLine     int64  `parquet:"start_line"`                // first cited line, 1-based
	EndLine       int64  `parquet:"end_line"`                  // last cited line, inclusive
	Severity      string `parquet:"severity,dict"`             // blocking, advisory
	Conclusion    string `parquet:"conclusion,dict"`           // as proposed: supported, dismissed, unresolved
	Effective     string `parquet:"effective_conclusion,dict"` // unresolved when instrumentation or an unbound probe is all it rests on
	Grounded      bool   `parquet:"grounded"`                  // supported, with evidence, every excerpt exact and every trial bound and clean
	Ungrounded    string `parquet:"ungrounded_reason,dict"`    // "" when grounded
	Excerpts      int64  `parquet:"excerpts"`                  // quoted excerpts supporting the finding
	Trials        int64  `parquet:"trials"`                    // bound trial receipts supporting the finding
	MatchesDefect bool   `parquet:"matches_defect"`            // the planted category and an overlapping location of the case's defect
	Adjudication  string `parquet:"adjudication,dict"`         // upheld, rejected, disputed, unadjudicated
}

// Settled adjudication of a finding: one of the adjudication outcomes or
// disputed when adjudicators disagree (both lines are kept).
const AdjudicationDisputed = "disputed"

// FindingAdjudicationRow is one row per line of
// finding_adjudications.jsonl, kept whether or not it agrees with others.
type FindingAdjudicationRow struct {
	Line        int64  `parquet:"line"`                             // the line in finding_adjudications.jsonl
	SessionID   string `parquet:"session_id"`                       // the session, as receipts.jsonl and the schedule name it
	FindingID   string `parquet:"finding_id"`                       // the finding's ID within its review
	Adjudicator string `parquet:"adjudicator,dict"`                 // who adjudicated
	Outcome     string `parquet:"outcome,dict"`                     // upheld, rejected, unadjudicated
	DecidedAtNS int64  `parquet:"decided_at,timestamp(nanosecond)"` // UTC time of the adjudication
	Known       bool   `parquet:"known"`                            // the finding exists in a completed review
}

// Reviewer-benchmark metrics of a ReviewMetric row.
const (
	MetricScheduled            = "scheduled"                     // numerator: scheduled attempts
	MetricAttempted            = "attempted"                     // attempts with a receipt (dispatched or not) / scheduled
	MetricCompleted            = "completed"                     // completed reviews / scheduled: abstentions, contract and schema violations excluded
	MetricDecisionCoverage     = "decision_coverage"             // decidable / scheduled
	MetricDetection            = "detection"                     // detected / audited variant attempts
	MetricDetectionProvisional = "detection_on_provisional"      // detected / provisional variant attempts, reported apart
	MetricBlockingOnClean      = "blocking_on_clean"             // blocked / audited clean attempts
	MetricBlockingProvisional  = "blocking_on_provisional_clean" // blocked / provisional clean attempts, reported apart
	MetricPrecision            = "finding_precision"             // upheld / adjudicated findings
	MetricUnadjudicated        = "unadjudicated_findings"        // findings without a settled outcome (disputed included) / all findings
	MetricDisputed             = "disputed_findings"             // findings whose adjudicators disagree / all findings
	MetricAdjudicatedReviews   = "adjudicated_reviews"           // completed reviews with a blocking finding, every blocking finding upheld or rejected / scheduled
	MetricAbstentions          = "abstentions"                   // / scheduled
	MetricExecutionErrors      = "execution_errors"              // errors, interruptions, not dispatched and missing / scheduled
	MetricSchemaViolations     = "schema_violations"             // / scheduled
	MetricContractViolations   = "contract_violations"           // reviews rejected for breaking the finding contract / scheduled
	MetricInputTokens          = "input_tokens"                  // sum over the stratum's receipts
	MetricOutputTokens         = "output_tokens"
	MetricCost                 = "cost"              // exact accounted cost, known when some execution is held
	MetricLatency              = "median_latency_ns" // exact median session duration (mean of the two middle values)
	MetricCostHeld             = "cost_held"         // the ledger's holds beside the known cost (numerator: attempts held); unknown when a hold has no bound
)

// ReviewMetric is one row per (split, profile, model stratum, metric).
// Split "all" totals the three splits.
type ReviewMetric struct {
	Split       string   `parquet:"split,dict"`     // development, selection, final, or all
	Profile     string   `parquet:"profile,dict"`   // the reviewer profile (the arm)
	Model       string   `parquet:"model,dict"`     // the model stratum
	Metric      string   `parquet:"metric,dict"`    // the metric (tables.Metric… constants): a rate, a sum, cost or median latency
	Numerator   int64    `parquet:"numerator"`      // the count, or the sum for sum metrics
	Denominator int64    `parquet:"denominator"`    // 0 for sums
	Exact       *string  `parquet:"exact,optional"` // the exact value as a fraction, decimal or money text; null when undefined or unknown
	Value       *float64 `parquet:"value,optional"` // numerator/denominator; null when the denominator is 0 or the value unknown
}

// LabelQueueRow is one row per finding that puts its case's label in
// question and waits for label adjudication (rule G6: "Genuine additional
// defects trigger label adjudication"; "Unexpected findings need
// adjudication before this is interpreted as a false-positive rate";
// "every original label remains provisional; blocking it is not a proven
// false alarm"): a grounded blocking finding on an audited case that is
// not the planted defect — any on a clean case, one off the planted
// category or location on a variant — whose settled adjudication is not
// rejected. While a row of the selection or final split waits, the
// promotion stays inconclusive (gate rb_labels_settled); the label is
// settled by a new corpus revision, never by rewriting this one.
type LabelQueueRow struct {
	CaseID       string `parquet:"case_id"`           // the benchmark case whose label is in question
	Family       string `parquet:"family,dict"`       // the task's family
	Split        string `parquet:"split,dict"`        // development, selection or final
	CaseKind     string `parquet:"case_kind,dict"`    // clean, variant
	SessionID    string `parquet:"session_id"`        // the review that found it
	Profile      string `parquet:"profile,dict"`      // the reviewer profile (the arm)
	Model        string `parquet:"model,dict"`        // the model stratum
	Run          int64  `parquet:"run"`               // 1-based run of the case under the profile
	FindingID    string `parquet:"finding_id"`        // the finding's ID within its review
	Category     string `parquet:"category,dict"`     // the finding's defect category
	Path         string `parquet:"path"`              // the cited file
	StartLine    int64  `parquet:"start_line"`        // first cited line, 1-based
	EndLine      int64  `parquet:"end_line"`          // last cited line, inclusive
	Adjudication string `parquet:"adjudication,dict"` // upheld (a genuine additional defect), disputed, unadjudicated
	Holds        bool   `parquet:"holds_promotion"`   // the case is in the selection or final split: the promotion waits for it
}
