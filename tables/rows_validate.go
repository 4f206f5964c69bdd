package tables

// Row types of the tables filled by stages/validate. Field comments are the
// data dictionary; see rows.go for the conventions.

// Session is one row per session attempt in receipts.jsonl plus one row per
// planned session that has no receipt (status "missing").
type Session struct {
	SessionID           string         `parquet:"session_id"`                              // the session, as receipts.jsonl and the schedule name it
	RequestID           string         `parquet:"request_id"`                              // the dispatch request the receipt answers
	Attempt             int64          `parquet:"attempt"`                                 // 1-based attempt of the request; a retry is a new attempt
	TaskID              string         `parquet:"task_id,dict"`                            // the task, as the manifest names it
	Repository          string         `parquet:"repository,dict"`                         // the task's repository
	Family              string         `parquet:"family,dict"`                             // the task's family: the cluster of the bootstrap
	Repetition          int64          `parquet:"repetition"`                              // 1-based repetition of the task
	Role                string         `parquet:"role,dict"`                               // draft, review, investigation, preparation or adjudication
	Arm                 *string        `parquet:"arm,optional,dict"`                       // null for a session shared by both arms (the draft)
	Status              string         `parquet:"status,dict"`                             // response, error, interruption, not_dispatched, missing
	ErrorClass          *string        `parquet:"error_class,optional,dict"`               // the receipt's error class; null unless status is error
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
	SessionID  string   `parquet:"session_id"`       // the session, as receipts.jsonl and the schedule name it
	TaskID     string   `parquet:"task_id,dict"`     // the task, as the manifest names it
	EvidenceID string   `parquet:"evidence_id,dict"` // the packet evidence ID (E…)
	Status     string   `parquet:"status,dict"`      // used, excluded, unresolved, missing
	FinalIDs   []string `parquet:"final_ids,list"`   // final IDs linked to the evidence, in submitted order
	Valid      bool     `parquet:"valid"`            // the disposition passes V6
	Code       string   `parquet:"code,dict"`        // first rejecting code, "" when valid
}

// CitationRow is one row per final citation of every answer.
type CitationRow struct {
	SessionID  string   `parquet:"session_id"`       // the session, as receipts.jsonl and the schedule name it
	Index      int64    `parquet:"index"`            // 0-based place of the citation in the answer's final citations
	EvidenceID string   `parquet:"evidence_id,dict"` // the packet evidence ID (E…)
	Path       string   `parquet:"path"`             // the cited file, relative to the repository root
	StartLine  int64    `parquet:"start_line"`       // first cited line, 1-based
	EndLine    int64    `parquet:"end_line"`         // last cited line, inclusive
	Supports   []string `parquet:"supports,list"`    // final IDs the citation supports, in submitted order
	Valid      bool     `parquet:"valid"`            // the citation passes every structural source check (V3)
	Code       string   `parquet:"code,dict"`        // first rejecting code, "" when valid
}
