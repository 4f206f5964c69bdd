package tables

// Row types of the tables filled by stages/score. Field comments are the
// data dictionary; see rows.go for the conventions.

// ObligationOutcome is one row per (review run, truth obligation): the
// settled rating outcome.
type ObligationOutcome struct {
	SessionID    string  `parquet:"session_id"`
	TaskID       string  `parquet:"task_id,dict"`
	Arm          string  `parquet:"arm,dict"`
	Repetition   int64   `parquet:"repetition"`
	ObligationID string  `parquet:"obligation_id,dict"`
	Critical     bool    `parquet:"critical"`
	Answerable   bool    `parquet:"answerable"`
	Outcome      *string `parquet:"outcome,optional,dict"` // null when the run is unscored
	SettledBy    string  `parquet:"settled_by,dict"`       // agreement, adjudicator, unrated, not_scorable (no valid final: R=0), invalid (invalid or missing execution), oracle_defective
}

// Run is one row per (task, repetition, arm) workflow: the unit scored by
// the scorecards. Every planned run has a row; nothing leaves a denominator.
type Run struct {
	TaskID                   string         `parquet:"task_id,dict"`
	Repository               string         `parquet:"repository,dict"`
	Family                   string         `parquet:"family,dict"`
	Repetition               int64          `parquet:"repetition"`
	Arm                      string         `parquet:"arm,dict"`
	Position                 int64          `parquet:"position"` // 1-based place of the arm in the repetition's order
	DraftSessionID           string         `parquet:"draft_session_id"`
	ReviewSessionID          string         `parquet:"review_session_id"`
	Classification           Classification `parquet:"classification,dict"`
	Scored                   bool           `parquet:"scored"`     // false when ratings are missing: unscored, never zero
	R                        *float64       `parquet:"r,optional"` // answerable addressed / answerable; exact ratio of RNum/RDen
	RNum                     int64          `parquet:"r_num"`
	RDen                     int64          `parquet:"r_den"`
	U                        *float64       `parquet:"u,optional"` // null when the task has no unanswerable obligation
	UNum                     int64          `parquet:"u_num"`
	UDen                     int64          `parquet:"u_den"`
	CriticalCompletionFailed bool           `parquet:"critical_completion_failed"`
	CriticalFailures         int64          `parquet:"critical_failures"`
	WrongClaims              *int64         `parquet:"wrong_claims,optional"` // null when no valid answer exists
	CriticalWrongClaims      *int64         `parquet:"critical_wrong_claims,optional"`
	UnsupportedClaims        *int64         `parquet:"unsupported_claims,optional"`
	FalseCompletenessClaims  *int64         `parquet:"false_completeness_claims,optional"`
	SourceGate               bool           `parquet:"source_gate"`
	ProtocolGate             bool           `parquet:"protocol_gate"`
	StructuralPass           bool           `parquet:"structural_pass"`
	SemanticPass             *bool          `parquet:"semantic_pass,optional"`                // null when unscored
	WorkflowCost             *Money         `parquet:"workflow_cost,optional,decimal(12:18)"` // draft + own review + validation, reference basis
	ReviewCost               *Money         `parquet:"review_cost,optional,decimal(12:18)"`
	WorkflowNS               int64          `parquet:"workflow_ns"` // draft start→terminal + own review + own validation
	ReviewNS                 int64          `parquet:"review_ns"`
	TimeComplete             bool           `parquet:"time_complete"` // false when a session of the run has no duration: WorkflowNS then counts only the known parts and the time gates cannot pass
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
	ReviewToolCalls    int64    `parquet:"review_tool_calls"`                  // tool calls recorded by the review, which has no tools: any is a protocol violation
	PacketTokens       *int64   `parquet:"packet_tokens,optional"`             // the returned packet's tokens under the frozen tokenizer; null when unknown or for other kinds
	LimitsExceeded     []string `parquet:"limits_exceeded,list"`               // workflow limits beyond their bound, in this order: workflow_time, investigation_time, review_time, operations; empty when within
}

// Task is one row per (task, arm): medians over repetitions.
// Medians of an even count are the mean of the two middle values.
type Task struct {
	TaskID           string   `parquet:"task_id,dict"`
	Repository       string   `parquet:"repository,dict"`
	Family           string   `parquet:"family,dict"`
	Category         string   `parquet:"category,dict"`
	Arm              string   `parquet:"arm,dict"`
	Runs             int64    `parquet:"runs"`
	ScoredRuns       int64    `parquet:"scored_runs"`
	MedianR          *float64 `parquet:"median_r,optional"`
	MedianRExact     *string  `parquet:"median_r_exact,optional"` // exact median R as decimal or fraction text; null when unknown
	MedianU          *float64 `parquet:"median_u,optional"`
	MedianUExact     *string  `parquet:"median_u_exact,optional"`             // exact median U; null when unknown or the task has no unanswerable obligation
	MedianCost       *Money   `parquet:"median_cost,optional,decimal(12:18)"` // null when a run's cost is null; half pico-units rounded half to even, gates use the exact value
	MedianReviewCost *Money   `parquet:"median_review_cost,optional,decimal(12:18)"`
	MedianNS         int64    `parquet:"median_ns"` // a half nanosecond of an even-count median is rounded half to even; gates use the exact value
	MedianReviewNS   int64    `parquet:"median_review_ns"`
	TimeComplete     bool     `parquet:"time_complete"` // every run of the task has a complete time
	CriticalFailures int64    `parquet:"critical_failures"`

	PacketConstructedComplete bool `parquet:"packet_constructed_complete"` // the task's packet.json says it was intentionally constructed to be complete, not retrieved: the task's results cannot support a retrieval-quality claim
}

// Repository is one row per (repository, arm).
type Repository struct {
	Repository       string   `parquet:"repository,dict"`
	Arm              string   `parquet:"arm,dict"`
	Tasks            int64    `parquet:"tasks"`
	Runs             int64    `parquet:"runs"`
	MeanMedianR      *float64 `parquet:"mean_median_r,optional"`
	CriticalFailures int64    `parquet:"critical_failures"`
	TotalCost        *Money   `parquet:"total_cost,optional,decimal(12:18)"`
}

// Gate is one row per gate of the frozen policy. observed and threshold are
// display text; observed_num/observed_den and threshold_num/threshold_den
// state the same values exactly as reduced int64 fractions, and
// observed_value and threshold_value are the nearest float64 for plotting.
type Gate struct {
	Gate           GateName `parquet:"gate,dict"` // stable name from the gate registry, e.g. g1_critical_source
	Arm            string   `parquet:"arm,dict"`  // the arm judged against the baseline
	Observed       string   `parquet:"observed"`  // exact observed value as display text: a decimal, or a fraction with its 6-decimal approximation; "null" when unknown
	Threshold      string   `parquet:"threshold"` // comparison and threshold as display text, e.g. ">= 0.90"
	Pass           bool     `parquet:"pass"`
	Failing        []string `parquet:"failing,list"` // tasks, runs or sessions that failed it, in gate order
	Detail         string   `parquet:"detail"`
	ObservedNum    *int64   `parquet:"observed_num,optional"`   // numerator of the exact observed value as a reduced fraction; null when unknown or beyond int64
	ObservedDen    *int64   `parquet:"observed_den,optional"`   // denominator (> 0) of the same fraction; null exactly when observed_num is
	ObservedValue  *float64 `parquet:"observed_value,optional"` // the float64 nearest the exact observed value; null when unknown. Compare with observed_num/observed_den for exactness
	Comparison     string   `parquet:"comparison,dict"`         // how observed meets the threshold, inclusive: >= or <=
	ThresholdNum   *int64   `parquet:"threshold_num,optional"`  // numerator of the threshold's exact decimal as a reduced fraction; null when beyond int64
	ThresholdDen   *int64   `parquet:"threshold_den,optional"`  // denominator (> 0) of the same fraction; null exactly when threshold_num is
	ThresholdValue float64  `parquet:"threshold_value"`         // the float64 nearest the threshold; the gate compares the exact fraction
}

// Decision is the single-row decision table.
type Decision struct {
	Decision     Verdict  `parquet:"decision,dict"` // advance, do_not_advance, stop_no_gain, no_verdict
	Arm          string   `parquet:"arm,dict"`
	FailingGates []string `parquet:"failing_gates,list"` // names of the failing gates, in policy order
	Reason       string   `parquet:"reason"`
	// RejectingFindings counts the rejecting findings of every stage; any
	// makes the decision no_verdict (tables.ApplyRejections).
	RejectingFindings int64 `parquet:"rejecting_findings"`
}

// Interval is one row per statistic × method of the exploratory bootstrap.
// It never affects a gate.
type Interval struct {
	Statistic        string   `parquet:"statistic,dict"`
	Arm              string   `parquet:"arm,dict"`
	Method           string   `parquet:"method,dict"`
	Status           string   `parquet:"status,dict"`
	Estimate         *float64 `parquet:"estimate,optional"`
	Lo               *float64 `parquet:"lo,optional"`
	Hi               *float64 `parquet:"hi,optional"`
	Level            float64  `parquet:"level"`
	NFamilies        int64    `parquet:"n_families"`
	Resamples        int64    `parquet:"resamples"`
	Seed             uint64   `parquet:"seed"`
	RNG              string   `parquet:"rng,dict"`
	AlgorithmVersion string   `parquet:"algorithm_version,dict"`
	Cluster          string   `parquet:"cluster,dict"`
	Label            string   `parquet:"label,dict"`       // always EXPLORATORY
	GateEffect       string   `parquet:"gate_effect,dict"` // always none
	// Columns appended by stages/intervals (statistics notes §3).
	CampaignID            string   `parquet:"campaign_id,dict"`
	Contrast              string   `parquet:"contrast,dict"`      // the arm (e.g. B) for per-arm statistics, B-A for differences, B/A for ratios
	Unit                  string   `parquet:"unit,dict"`          // fraction (R in [0,1]), difference (of R), ratio (of sums)
	QuantileRule          string   `parquet:"quantile_rule,dict"` // type7
	PLower                *float64 `parquet:"p_lower,optional"`   // lower probability used: expanded table value (null when G < 2), or 0.025
	BootSE                *float64 `parquet:"boot_se,optional"`   // sd (n−1) of the replicates; null unless every replicate is defined
	NTasks                int64    `parquet:"n_tasks"`            // tasks entering the statistic
	NRuns                 int64    `parquet:"n_runs"`             // runs entering the statistic
	NTasksDroppedUnpaired int64    `parquet:"n_tasks_dropped_unpaired"`
	NUndefinedResamples   int64    `parquet:"n_undefined_resamples"`
	SmallGFlag            string   `parquet:"small_g_flag,dict"` // none, few_families (G<10), very_few_families (G≤4)
}
