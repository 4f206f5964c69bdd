package tables

// Row types of the tables filled by stages/validate. Field comments are the
// data dictionary; see rows.go for the conventions.

// Session is one row per session attempt in receipts.jsonl plus one row per
// planned session that has no receipt (status "missing").
type Session struct {
	SessionID           string         `parquet:"session_id"`
	RequestID           string         `parquet:"request_id"`
	Attempt             int64          `parquet:"attempt"`
	TaskID              string         `parquet:"task_id,dict"`
	Repository          string         `parquet:"repository,dict"`
	Family              string         `parquet:"family,dict"`
	Repetition          int64          `parquet:"repetition"`
	Role                string         `parquet:"role,dict"`
	Arm                 *string        `parquet:"arm,optional,dict"`
	Status              string         `parquet:"status,dict"` // response, error, interruption, not_dispatched, missing
	ErrorClass          *string        `parquet:"error_class,optional,dict"`
	Classification      Classification `parquet:"classification,dict"`                     // valid, scored_failure, shared_draft_failure, invalid, not_dispatched
	AnswerValid         *bool          `parquet:"answer_valid,optional"`                   // structural validity of the whole returned answer; null without an answer
	FinalValid          *bool          `parquet:"final_valid,optional"`                    // the final part decodes and passes every final-answer rule; null without an answer
	ReconciliationValid *bool          `parquet:"reconciliation_valid,optional"`           // reconciliation arms only: the record passes V6; null otherwise
	CitationFailures    int64          `parquet:"citation_failures"`                       // citations failing V3 (structural source checks)
	IdentityMatches     bool           `parquet:"identity_matches"`                        // V1: every delivered and returned identity equals the manifest's
	StartedAtNS         int64          `parquet:"started_at,timestamp(nanosecond)"`        // UTC start, nanoseconds since the Unix epoch
	EndedAtNS           *int64         `parquet:"ended_at,optional,timestamp(nanosecond)"` // UTC terminal time; null without a terminal receipt
	DurationNS          *int64         `parquet:"duration_ns,optional"`                    // monotonic end - start when given, else UTC end - start
	ValidationNS        int64          `parquet:"validation_ns"`                           // the receipt's validation_ms in nanoseconds
	Findings            int64          `parquet:"findings"`                                // findings attributed to this session: campaign rejections and model-fault warnings
}

// DispositionRow is one row per evidence disposition of a reconciliation
// answer, plus one row per packet E ID the answer failed to dispose of.
type DispositionRow struct {
	SessionID  string   `parquet:"session_id"`
	TaskID     string   `parquet:"task_id,dict"`
	EvidenceID string   `parquet:"evidence_id,dict"`
	Status     string   `parquet:"status,dict"`    // used, excluded, unresolved, missing
	FinalIDs   []string `parquet:"final_ids,list"` // final IDs linked to the evidence, in submitted order
	Valid      bool     `parquet:"valid"`
	Code       string   `parquet:"code,dict"` // first rejecting code, "" when valid
}

// CitationRow is one row per final citation of every answer.
type CitationRow struct {
	SessionID  string   `parquet:"session_id"`
	Index      int64    `parquet:"index"`
	EvidenceID string   `parquet:"evidence_id,dict"`
	Path       string   `parquet:"path"`
	StartLine  int64    `parquet:"start_line"`
	EndLine    int64    `parquet:"end_line"`
	Supports   []string `parquet:"supports,list"` // final IDs the citation supports, in submitted order
	Valid      bool     `parquet:"valid"`
	Code       string   `parquet:"code,dict"` // first rejecting code, "" when valid
}
