package tables

import "time"

// Obligation outcomes a rater records (rule I7).
const (
	OutcomeAddressed       = "addressed"
	OutcomeMissed          = "missed"
	OutcomeWrong           = "wrong"
	OutcomeUnknownCredited = "unknown_credited"
	OutcomeNotApplicable   = "not_applicable"
)

// Rater roles.
const (
	RaterPrimary     = "primary"
	RaterAdjudicator = "adjudicator"
)

// Adjudication is one line of adjudications.jsonl: one rater's frozen,
// source-based rating of one review session's final answer.
type Adjudication struct {
	Format    string    `json:"format" intern:"true"`     // FormatAdjudication
	SessionID string    `json:"session_id" intern:"true"` // two ratings or more per review
	Rater     string    `json:"rater" intern:"true"`
	RaterRole string    `json:"rater_role" intern:"true"` // primary, adjudicator
	Blinded   bool      `json:"blinded"`
	FrozenAt  time.Time `json:"frozen_at"`

	Obligations []ObligationRating `json:"obligations" intern:"true"` // one per truth obligation
	Citations   []CitationRating   `json:"citations" intern:"true"`   // one per final citation, by index

	CriticalWrongClaims     int64 `json:"critical_wrong_claims"`
	WrongClaims             int64 `json:"wrong_claims"`
	UnsupportedClaims       int64 `json:"unsupported_claims"`
	FalseCompletenessClaims int64 `json:"false_completeness_claims"`
	WrongExclusions         int64 `json:"wrong_exclusions"`
}

// ObligationRating is the outcome of one truth obligation.
type ObligationRating struct {
	ObligationID string `json:"obligation_id" intern:"true"`
	Outcome      string `json:"outcome" intern:"true"`
}

// CitationRating judges whether the final citation at Index supports the
// records it is linked to (C10).
type CitationRating struct {
	Index    int64 `json:"index"` // 0-based index into final.citations
	Supports bool  `json:"supports"`
}
