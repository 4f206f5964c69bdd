package scorecard

import (
	"strings"
	"time"

	"github.com/evalgate/evalgate/tables"
)

// PromptVersion is one prompt version of a development flow (rule G8,
// contract #741 §5 "record both rounds and any v1.1 prompt diff"): the
// prompt an arm receives from a round on, its bytes' sha256, and for a
// revision the prompt it replaces and the line diff between the two.
type PromptVersion struct {
	Arm     string `json:"arm"`
	Version string `json:"version"` // "1.0" the frozen instruction, "1.1" its one revision
	Prompt  string `json:"prompt"`
	SHA256  string `json:"sha256"`
	Bytes   int64  `json:"bytes"`
	// Rounds says which sessions received it: "round 1", or "round 2 and
	// evaluation".
	Rounds string `json:"rounds"`
	// Replaces is the prompt a revision replaces; FrozenAt when the
	// revision was frozen; Diff its unified line diff against Replaces
	// ("-" removed, "+" added, " " kept). All empty for version 1.0.
	Replaces string   `json:"replaces"`
	FrozenAt string   `json:"frozen_at"`
	Diff     []string `json:"diff"`
}

// buildPromptVersions formats the prompt_versions rows of the arms'
// revised instructions (rule G8): for each revision the version it
// replaces (1.0) and the revision (1.1) with its diff, in the table's
// order; nil without a development flow (no rows), and the instructions
// no revision touches stay in the table only.
func buildPromptVersions(c *tables.Campaign, rows []tables.PromptVersion) []PromptVersion {
	if c == nil || c.Manifest.Design.Development == nil {
		return nil
	}
	out := []PromptVersion{}
	for _, r := range rows {
		if r.Rounds == tables.RoundsEveryPhase {
			continue
		}
		v := PromptVersion{Version: r.Version, Prompt: r.PromptID, SHA256: r.SHA256, Bytes: r.Bytes, Rounds: r.Rounds, Diff: []string{}}
		if r.Arm != nil {
			v.Arm = *r.Arm
		}
		if r.Replaces != nil {
			v.Replaces = *r.Replaces
		}
		if r.FrozenAt != nil {
			v.FrozenAt = time.Unix(0, *r.FrozenAt).UTC().Format(time.RFC3339Nano)
		}
		if r.Diff != nil && *r.Diff != "" {
			v.Diff = strings.Split(strings.TrimSuffix(*r.Diff, "\n"), "\n")
		}
		out = append(out, v)
	}
	return out
}
