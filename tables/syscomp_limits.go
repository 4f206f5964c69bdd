package tables

// Absolute limits of a system-comparison workflow (rule G5 and
// "frozen investigation and packet procedure"). They are part of the
// campaign kind, not of the manifest: every bound is inclusive.
const (
	// WorkflowLimitMS caps a complete system workflow: investigation,
	// review, their validation and any cold setup attributed to it.
	WorkflowLimitMS int64 = 12 * 60 * 1000
	// InvestigationLimitMS and ReviewLimitMS cap the two sessions.
	InvestigationLimitMS int64 = 8 * 60 * 1000
	ReviewLimitMS        int64 = 4 * 60 * 1000
	// WorkflowOperationLimit caps the ordinary and MCP operations of the
	// workflow's investigation and review (the review may have none). The
	// cold setup attributed to a workflow consumes its time allowance; its
	// own tool calls are setup, recorded on the preparation receipt.
	WorkflowOperationLimit int64 = 60
	// PacketTokenLimit caps the returned raw-observation packet under the
	// frozen tokenizer; over it is an evidence_budget_exceeded system
	// failure, never a trimmed packet.
	PacketTokenLimit int64 = 60_000
	// SystemSessionLimit caps the model sessions of a whole system
	// comparison, retries and preparation included.
	SystemSessionLimit int64 = 90
)

// Names of the workflow limits, as written in runs.limits_exceeded.
const (
	LimitWorkflowTime      = "workflow_time"
	LimitInvestigationTime = "investigation_time"
	LimitReviewTime        = "review_time"
	LimitOperations        = "operations"
	LimitReviewTools       = "review_tools"
)

// WithinMS reports whether a duration of ns nanoseconds is within an
// inclusive limit of ms milliseconds.
func WithinMS(ns, ms int64) bool { return ns <= ms*1_000_000 }
