package tables

import "time"

// Formats of the blinded adjudication protocol (rule Q1):
// `evalgate blind export` writes anonymized items and a sealed key,
// graders return blind ratings keyed by label, `evalgate blind import`
// turns them into adjudications, and the optional unblinding.json of a
// campaign records when arm and cost were revealed.
const (
	FormatBlindItem   = "evalgate.blind-item/v1"
	FormatBlindKey    = "evalgate.blind-key/v1"
	FormatBlindRating = "evalgate.blind-rating/v1"
	FormatUnblinding  = "evalgate.unblinding/v1"
)

// Unblinding is the optional unblinding.json of a campaign: the instant
// arm labels and costs were revealed to the raters. Every rating must be
// frozen strictly before it.
type Unblinding struct {
	Format      string    `json:"format"` // FormatUnblinding
	UnblindedAt time.Time `json:"unblinded_at"`
}

// BlindItem is one exported file items/<label>.json: what a quality
// grader sees of one scoreable review session. It carries no session ID,
// arm, cost, timing, model or reconciliation field; the final answer's
// exclusions keep their reasons.
type BlindItem struct {
	Format string            `json:"format"` // FormatBlindItem
	Label  string            `json:"label"`
	TaskID string            `json:"task_id"`
	Task   string            `json:"task"`  // the frozen task text
	Truth  []TruthObligation `json:"truth"` // the frozen truth obligations
	Final  Final             `json:"final"` // the answer's final part only
}

// BlindKey is key.sealed.json: the label → session mapping of one export,
// with the sha256 of every exported item. It must be withheld from graders.
type BlindKey struct {
	Format         string          `json:"format"` // FormatBlindKey
	CampaignID     string          `json:"campaign_id"`
	ManifestSHA256 string          `json:"manifest_sha256"`
	Seed           uint64          `json:"seed"`    // the --seed of the export
	Entries        []BlindKeyEntry `json:"entries"` // sorted by label
}

// BlindKeyEntry maps one label back to its review session.
type BlindKeyEntry struct {
	Label      string `json:"label"`
	SessionID  string `json:"session_id"`
	ItemSHA256 string `json:"item_sha256"` // sha256 of items/<label>.json's bytes
}

// BlindRating is one line of a grader's ratings file: a
// [Adjudication] keyed by the item label instead of the session ID.
type BlindRating struct {
	Format    string    `json:"format"` // FormatBlindRating
	Label     string    `json:"label"`
	Rater     string    `json:"rater"`
	RaterRole string    `json:"rater_role"`
	Blinded   bool      `json:"blinded"`
	FrozenAt  time.Time `json:"frozen_at"`

	Obligations []ObligationRating `json:"obligations"`
	Citations   []CitationRating   `json:"citations"`

	CriticalWrongClaims     int64 `json:"critical_wrong_claims"`
	WrongClaims             int64 `json:"wrong_claims"`
	UnsupportedClaims       int64 `json:"unsupported_claims"`
	FalseCompletenessClaims int64 `json:"false_completeness_claims"`
	WrongExclusions         int64 `json:"wrong_exclusions"`
}

// Adjudication returns the rating as the adjudication of sessionID.
func (r *BlindRating) Adjudication(sessionID string) Adjudication {
	return Adjudication{
		Format:                  FormatAdjudication,
		SessionID:               sessionID,
		Rater:                   r.Rater,
		RaterRole:               r.RaterRole,
		Blinded:                 r.Blinded,
		FrozenAt:                r.FrozenAt,
		Obligations:             r.Obligations,
		Citations:               r.Citations,
		CriticalWrongClaims:     r.CriticalWrongClaims,
		WrongClaims:             r.WrongClaims,
		UnsupportedClaims:       r.UnsupportedClaims,
		FalseCompletenessClaims: r.FalseCompletenessClaims,
		WrongExclusions:         r.WrongExclusions,
	}
}

// Clone returns a deep copy of the key.
func (k *BlindKey) Clone() *BlindKey {
	c := *k
	c.Entries = append([]BlindKeyEntry(nil), k.Entries...)
	return &c
}
