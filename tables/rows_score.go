package tables

import "github.com/evalgate/evalgate/rules"

// Row types of the tables filled by stages/score. Field comments are the
// data dictionary; see rows.go for the conventions.

// ObligationOutcome is one row per (review run, truth obligation): the
// settled rating outcome.
type ObligationOutcome struct {
	SessionID    string  `parquet:"session_id"`            // the session, as receipts.jsonl and the schedule name it
	TaskID       string  `parquet:"task_id,dict"`          // the task, as the manifest names it
	Arm          string  `parquet:"arm,dict"`              // the arm (A baseline, B treatment, or a system of a system comparison)
	Repetition   int64   `parquet:"repetition"`            // 1-based repetition of the task
	ObligationID string  `parquet:"obligation_id,dict"`    // the truth obligation
	Critical     bool    `parquet:"critical"`              // the obligation is critical: missing it is a critical failure
	Answerable   bool    `parquet:"answerable"`            // the obligation is answerable from the packet (else an uncertainty case: U)
	Outcome      *string `parquet:"outcome,optional,dict"` // null when the run is unscored
	SettledBy    string  `parquet:"settled_by,dict"`       // agreement, adjudicator, unrated, not_scorable (no valid final: R=0), invalid (invalid or missing execution), oracle_defective
}

// Run is one row per (task, repetition, arm) workflow: the unit scored by
// the scorecards. Every planned run has a row; nothing leaves a denominator.
type Run struct {
	TaskID                   string         `parquet:"task_id,dict"`                          // the task, as the manifest names it
	Repository               string         `parquet:"repository,dict"`                       // the task's repository
	Family                   string         `parquet:"family,dict"`                           // the task's family: the cluster of the bootstrap
	Repetition               int64          `parquet:"repetition"`                            // 1-based repetition of the task
	Arm                      string         `parquet:"arm,dict"`                              // the arm (A baseline, B treatment, or a system of a system comparison)
	Position                 int64          `parquet:"position"`                              // 1-based place of the arm in the repetition's order
	DraftSessionID           string         `parquet:"draft_session_id"`                      // the shared draft session (the investigation for a system comparison)
	ReviewSessionID          string         `parquet:"review_session_id"`                     // the arm's review session
	Classification           Classification `parquet:"classification,dict"`                   // the run classification: valid, scored_failure, shared_draft_failure, invalid, not_dispatched
	Scored                   bool           `parquet:"scored"`                                // false when ratings are missing: unscored, never zero
	R                        *float64       `parquet:"r,optional"`                            // answerable addressed / answerable; exact ratio of RNum/RDen
	RNum                     int64          `parquet:"r_num"`                                 // answerable obligations addressed
	RDen                     int64          `parquet:"r_den"`                                 // answerable obligations
	U                        *float64       `parquet:"u,optional"`                            // null when the task has no unanswerable obligation
	UNum                     int64          `parquet:"u_num"`                                 // unanswerable obligations credited as unknown
	UDen                     int64          `parquet:"u_den"`                                 // unanswerable obligations; 0 when the task has none
	CriticalCompletionFailed bool           `parquet:"critical_completion_failed"`            // a critical obligation is not addressed
	CriticalFailures         int64          `parquet:"critical_failures"`                     // critical obligations not addressed
	WrongClaims              *int64         `parquet:"wrong_claims,optional"`                 // null when no valid answer exists
	CriticalWrongClaims      *int64         `parquet:"critical_wrong_claims,optional"`        // wrong claims on critical obligations; null when no valid answer exists
	UnsupportedClaims        *int64         `parquet:"unsupported_claims,optional"`           // claims without support from a cited source; null when no valid answer exists
	FalseCompletenessClaims  *int64         `parquet:"false_completeness_claims,optional"`    // claims of completeness that are false; null when no valid answer exists
	SourceGate               bool           `parquet:"source_gate"`                           // every citation of the final answer passes its structural source check
	ProtocolGate             bool           `parquet:"protocol_gate"`                         // dispositions and cross-references pass (V6) and the review used no tool
	StructuralPass           bool           `parquet:"structural_pass"`                       // the answer passes every structural check
	SemanticPass             *bool          `parquet:"semantic_pass,optional"`                // null when unscored
	WorkflowCost             *Money         `parquet:"workflow_cost,optional,decimal(12:18)"` // draft + own review + validation, reference basis
	ReviewCost               *Money         `parquet:"review_cost,optional,decimal(12:18)"`   // the own review cost, reference basis; null when unknown
	WorkflowNS               int64          `parquet:"workflow_ns"`                           // draft start→terminal + own review + own validation
	ReviewNS                 int64          `parquet:"review_ns"`                             // the own review's duration
	TimeComplete             bool           `parquet:"time_complete"`                         // false when a session of the run has no duration: WorkflowNS then counts only the known parts and the time gates cannot pass
	// Columns of kind system-comparison (rule G5); zero, empty or null for
	// other kinds. DraftSessionID is then the workflow's investigation.
	Cold               bool     `parquet:"cold"`                               // the run carries its system's cold setup in this repository
	SetupSessionID     string   `parquet:"setup_session_id"`                   // the preparation session charged to this run, "" when warm
	SetupCost          *Money   `parquet:"setup_cost,optional,decimal(12:18)"` // cold setup cost included in workflow_cost; 0 when warm, null when unknown
	SetupNS            int64    `parquet:"setup_ns"`                           // cold setup time included in workflow_ns; 0 when warm
	PacketSupportedNum int64    `parquet:"packet_supported_num"`               // repository-answerable obligations whose truth evidence the returned observations cover
	PacketSupportedDen int64    `parquet:"packet_supported_den"`               // all repository-answerable obligations (= r_den); 0 for other kinds
	PacketSupported    *float64 `parquet:"packet_supported,optional"`          // num/den; null when the observations are unknown or for other kinds
	InvestigationNS    int64    `parquet:"investigation_ns"`                   // the investigation session's duration; 0 when unknown or for other kinds
	Operations         int64    `parquet:"operations"`                         // ordinary and MCP tool calls of the investigation and the review
	ReviewToolCalls    int64    `parquet:"review_tool_calls"`                  // tool calls recorded by the review, which has no tools: any makes the review an invalid execution (rule D5)
	PacketTokens       *int64   `parquet:"packet_tokens,optional"`             // the returned packet's tokens under the frozen tokenizer; null when unknown or for other kinds
	LimitsExceeded     []string `parquet:"limits_exceeded,list"`               // workflow limits beyond their bound, in this order: workflow_time, investigation_time, review_time, operations; empty when within
}

// Task is one row per (task, arm): medians over repetitions.
// Medians of an even count are the mean of the two middle values.
type Task struct {
	TaskID           string   `parquet:"task_id,dict"`                               // the task, as the manifest names it
	Repository       string   `parquet:"repository,dict"`                            // the task's repository
	Family           string   `parquet:"family,dict"`                                // the task's family: the cluster of the bootstrap
	Category         string   `parquet:"category,dict"`                              // the task's category
	Arm              string   `parquet:"arm,dict"`                                   // the arm (A baseline, B treatment, or a system of a system comparison)
	Runs             int64    `parquet:"runs"`                                       // planned runs of the task and arm
	ScoredRuns       int64    `parquet:"scored_runs"`                                // runs with ratings
	MedianR          *float64 `parquet:"median_r,optional"`                          // median R over the repetitions; null when a run is unscored. Exact value in median_r_exact
	MedianRExact     *string  `parquet:"median_r_exact,optional"`                    // exact median R as decimal or fraction text; null when unknown
	MedianRNum       *int64   `parquet:"median_r_num,optional"`                      // numerator of the exact median R as a reduced fraction; null when unknown
	MedianRDen       *int64   `parquet:"median_r_den,optional"`                      // denominator (> 0) of the same fraction; null exactly when median_r_num is
	MedianU          *float64 `parquet:"median_u,optional"`                          // median U; null when unknown or the task has no unanswerable obligation. Exact value in median_u_exact
	MedianUExact     *string  `parquet:"median_u_exact,optional"`                    // exact median U; null when unknown or the task has no unanswerable obligation
	MedianUNum       *int64   `parquet:"median_u_num,optional"`                      // numerator of the exact median U as a reduced fraction; null when unknown
	MedianUDen       *int64   `parquet:"median_u_den,optional"`                      // denominator (> 0) of the same fraction; null exactly when median_u_num is
	MedianCost       *Money   `parquet:"median_cost,optional,decimal(12:18)"`        // null when a run's cost is null; half pico-units rounded half to even, gates use the exact value
	MedianReviewCost *Money   `parquet:"median_review_cost,optional,decimal(12:18)"` // median own review cost, rounded like median_cost
	MedianNS         int64    `parquet:"median_ns"`                                  // a half nanosecond of an even-count median is rounded half to even; gates use the exact value
	MedianReviewNS   int64    `parquet:"median_review_ns"`                           // median own review duration, rounded like median_ns
	TimeComplete     bool     `parquet:"time_complete"`                              // every run of the task has a complete time
	CriticalFailures int64    `parquet:"critical_failures"`                          // critical failures summed over the repetitions

	PacketConstructedComplete bool `parquet:"packet_constructed_complete"` // the task's packet.json says it was intentionally constructed to be complete, not retrieved: the task's results cannot support a retrieval-quality claim
}

// Repository is one row per (repository, arm).
type Repository struct {
	Repository       string   `parquet:"repository,dict"`                    // the task's repository
	Arm              string   `parquet:"arm,dict"`                           // the arm (A baseline, B treatment, or a system of a system comparison)
	Tasks            int64    `parquet:"tasks"`                              // the repository's tasks
	Runs             int64    `parquet:"runs"`                               // the repository's planned runs of the arm
	MeanMedianR      *float64 `parquet:"mean_median_r,optional"`             // mean of the task-median R; null when any is unknown
	CriticalFailures int64    `parquet:"critical_failures"`                  // critical failures summed over the runs
	TotalCost        *Money   `parquet:"total_cost,optional,decimal(12:18)"` // sum of workflow costs; null when any is unknown
}

// Gate is one row per gate of the frozen policy. observed and threshold are
// display text; observed_num/observed_den and threshold_num/threshold_den
// state the same values exactly as reduced int64 fractions, and
// observed_value and threshold_value are the nearest float64 for plotting.
type Gate struct {
	Gate           rules.GateName `parquet:"gate,dict"`               // stable name from the gate registry, e.g. g1_critical_source
	Arm            string         `parquet:"arm,dict"`                // the arm judged against the baseline
	Observed       string         `parquet:"observed"`                // exact observed value as display text: a decimal, or a fraction with its 6-decimal approximation; "null" when unknown
	Threshold      string         `parquet:"threshold"`               // comparison and threshold as display text, e.g. ">= 0.90"
	Pass           bool           `parquet:"pass"`                    // the observation meets the threshold and nothing is listed as failing
	Failing        []string       `parquet:"failing,list"`            // tasks, runs or sessions that failed it, in gate order
	Detail         string         `parquet:"detail"`                  // one line: what was observed, in words
	ObservedNum    *int64         `parquet:"observed_num,optional"`   // numerator of the exact observed value as a reduced fraction; null when unknown or beyond int64
	ObservedDen    *int64         `parquet:"observed_den,optional"`   // denominator (> 0) of the same fraction; null exactly when observed_num is
	ObservedValue  *float64       `parquet:"observed_value,optional"` // the float64 nearest the exact observed value; null when unknown. Compare with observed_num/observed_den for exactness
	Comparison     string         `parquet:"comparison,dict"`         // how observed meets the threshold, inclusive: >= or <=
	ThresholdNum   *int64         `parquet:"threshold_num,optional"`  // numerator of the threshold's exact decimal as a reduced fraction; null when beyond int64
	ThresholdDen   *int64         `parquet:"threshold_den,optional"`  // denominator (> 0) of the same fraction; null exactly when threshold_num is
	ThresholdValue float64        `parquet:"threshold_value"`         // the float64 nearest the threshold; the gate compares the exact fraction
}

// Decision is the single-row decision table.
type Decision struct {
	Decision     Verdict  `parquet:"decision,dict"`      // advance, do_not_advance, stop_no_gain, no_verdict
	Arm          string   `parquet:"arm,dict"`           // the arm the decision is about (the treatment or candidate)
	FailingGates []string `parquet:"failing_gates,list"` // names of the failing gates, in policy order
	Reason       string   `parquet:"reason"`             // why, in one sentence
	// RejectingFindings counts the rejecting findings of every stage; any
	// makes the decision no_verdict (tables.ApplyRejections).
	RejectingFindings int64 `parquet:"rejecting_findings"`
	// Policy names the policy that judged (rule F1): "preset NAME —
	// SOURCE's frozen rules" or "custom policy ID — not SOURCE's frozen
	// rules"; every output that shows the decision shows it.
	Policy string `parquet:"policy,dict"`
}

// Interval is one row per statistic × method of the exploratory bootstrap.
// It never affects a gate.
type Interval struct {
	Statistic             string   `parquet:"statistic,dict"`           // the statistic, e.g. macro_median_r
	Arm                   string   `parquet:"arm,dict"`                 // the arm the statistic is about
	Method                string   `parquet:"method,dict"`              // family_bootstrap_expanded_percentile, cr1_t or family_bootstrap_percentile, the primary column marking the one the switch rule picks; a reviewer benchmark's one row per rate and scope: expanded_percentile_cr1_t_hull
	Status                string   `parquet:"status,dict"`              // ok, or why no interval is given
	Estimate              *float64 `parquet:"estimate,optional"`        // the point estimate; null when undefined
	Lo                    *float64 `parquet:"lo,optional"`              // lower bound; null when not given
	Hi                    *float64 `parquet:"hi,optional"`              // upper bound; null when not given
	Level                 float64  `parquet:"level"`                    // nominal coverage, e.g. 0.95
	NFamilies             int64    `parquet:"n_families"`               // families (clusters) resampled
	Resamples             int64    `parquet:"resamples"`                // bootstrap replicates
	Seed                  uint64   `parquet:"seed"`                     // the seed of the random number generator
	RNG                   string   `parquet:"rng,dict"`                 // the random number generator
	AlgorithmVersion      string   `parquet:"algorithm_version,dict"`   // version of the resampling algorithm: same seed and version give the same bounds
	Cluster               string   `parquet:"cluster,dict"`             // what one resampled cluster is (family)
	Label                 string   `parquet:"label,dict"`               // always EXPLORATORY
	GateEffect            string   `parquet:"gate_effect,dict"`         // always none
	CampaignID            string   `parquet:"campaign_id,dict"`         // the manifest's campaign_id
	Contrast              string   `parquet:"contrast,dict"`            // the arm (e.g. B) for per-arm statistics, B-A for differences, B/A for ratios
	Unit                  string   `parquet:"unit,dict"`                // fraction (R in [0,1]), difference (of R), ratio (of sums)
	QuantileRule          string   `parquet:"quantile_rule,dict"`       // type7
	PLower                *float64 `parquet:"p_lower,optional"`         // lower probability used: expanded table value (null when G < 2), or 0.025
	BootSE                *float64 `parquet:"boot_se,optional"`         // sd (n−1) of the replicates; null unless every replicate is defined
	NTasks                int64    `parquet:"n_tasks"`                  // tasks entering the statistic
	NRuns                 int64    `parquet:"n_runs"`                   // runs entering the statistic
	NTasksDroppedUnpaired int64    `parquet:"n_tasks_dropped_unpaired"` // tasks left out because one arm has no value
	NUndefinedResamples   int64    `parquet:"n_undefined_resamples"`    // replicates where the statistic is undefined
	SmallGFlag            string   `parquet:"small_g_flag,dict"`        // none, few_families (G<10), very_few_families (G≤4)
	Primary               bool     `parquet:"primary"`                  // this row's method is the primary interval at its G: cluster t below 6 families, expanded percentile from 6 on
	Clipped               bool     `parquet:"clipped"`                  // a bound fell outside the statistic's range (fraction [0,1], difference [−1,1], ratio ≥ 0) and was moved onto it
	Split                 string   `parquet:"split,dict"`               // reviewer benchmark: the split the rate is over (all, development, selection, final); empty for other kinds
	Model                 string   `parquet:"model,dict"`               // reviewer benchmark: the model stratum the rate is over; empty for other kinds
}
