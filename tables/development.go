package tables

import (
	"slices"
	"time"
)

// SplitEvaluation is the held-out split of a paired review's tasks
// (contract #741 §2); SplitDevelopment (tables/rbench.go) is the
// development split of every kind.
const SplitEvaluation = "evaluation"

// Development is the two-round development flow of a paired review
// (contract #741 §5), the optional member design.development: the tasks of
// split development run Rounds repetitions (repetition r is round r),
// every other task design.repetitions. Revisions lists the permitted
// revision of B's instruction between round 1 and round 2: at most one,
// of the reconciliation arm's role instruction only, frozen after round 1
// and before round 2; from round 2 on, and for every evaluation session,
// the arm receives the revised prompt in its place. EvaluationFrozenAt is
// the freeze after round 2 that opens the evaluation tasks; null while
// none is recorded.
type Development struct {
	Rounds             int64      `json:"rounds"`
	Revisions          []Revision `json:"revisions"`
	EvaluationFrozenAt *time.Time `json:"evaluation_frozen_at"`
}

// Revision is one revision of an arm's instruction: prompt Prompt of arm
// Arm is replaced by prompt Revised (both manifest prompts) from round 2
// on; FrozenAt is when the revised prompt was frozen.
type Revision struct {
	Arm      string    `json:"arm"`
	Prompt   string    `json:"prompt"`
	Revised  string    `json:"revised"`
	FrozenAt time.Time `json:"frozen_at"`
}

// DevelopmentRounds is the contract's number of development rounds: round
// 1, the one revision, round 2, and no third round.
const DevelopmentRounds = 2

// RepetitionsOf is the number of repetitions the design runs for a task of
// the given split: the development rounds for a development task of a
// design with a development flow, design.repetitions otherwise.
func (d *Design) RepetitionsOf(split string) int64 {
	if d.Development != nil && split == SplitDevelopment {
		return d.Development.Rounds
	}
	return d.Repetitions
}

// PromptsOf is the prompt list arm receives for a session of a task of
// the given split and repetition: the arm's prompts, with the first
// revision of the development flow applied in round 2 and later and for
// every task that is not of split development. A revision of another arm
// leaves them unchanged.
func (d *Design) PromptsOf(arm Arm, split string, rep int64) []string {
	if d.Development == nil || len(d.Development.Revisions) == 0 || (split == SplitDevelopment && rep < 2) {
		return arm.Prompts
	}
	rv := d.Development.Revisions[0]
	if rv.Arm != arm.ID {
		return arm.Prompts
	}
	out := slices.Clone(arm.Prompts)
	for i, p := range out {
		if p == rv.Prompt {
			out[i] = rv.Revised
		}
	}
	return out
}

// PromptVersion is one row of the prompt_versions table: one role
// instruction of a paired review's development flow (rule G8, contract
// #741 §5 "record both rounds and any v1.1 prompt diff") in one version —
// what the draft and each arm received, and for the one permitted
// revision of B's instruction both its versions, which sessions received
// each, and the line diff between them. A campaign without a development
// flow has no rows.
type PromptVersion struct {
	Role     string  `parquet:"role,dict"`                                // draft or review
	Arm      *string `parquet:"arm,optional,dict"`                        // the arm of a review's instruction; null for the draft's
	Version  string  `parquet:"version,dict"`                             // 1.0, the frozen instruction, or 1.1, its one revision
	PromptID string  `parquet:"prompt_id"`                                // the manifest's prompt ID of this version's file
	SHA256   string  `parquet:"sha256"`                                   // sha256 of the prompt file's bytes, as loaded
	Bytes    int64   `parquet:"bytes"`                                    // size of the prompt file in bytes
	Rounds   string  `parquet:"rounds,dict"`                              // which sessions received it: round 1, round 2 and evaluation, or every round and evaluation
	Replaces *string `parquet:"replaces,optional"`                        // the prompt ID a revision replaces; null for version 1.0
	FrozenAt *int64  `parquet:"frozen_at,optional,timestamp(nanosecond)"` // when the revision was frozen (UTC); null for version 1.0, frozen with the manifest
	Diff     *string `parquet:"diff,optional"`                            // the revision's line diff against the version it replaces, one line each ("-" removed, "+" added, " " kept), newline-terminated; null for version 1.0
}

// Rounds of a prompt version (PromptVersion.Rounds).
const (
	RoundsFirst       = "round 1"
	RoundsSecondOn    = "round 2 and evaluation"
	RoundsEveryPhase  = "every round and evaluation"
	PromptVersionBase = "1.0"
	PromptVersionNext = "1.1"
)
