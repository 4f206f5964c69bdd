package scorecard

import (
	"crypto/sha256"
	"encoding/hex"
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

// buildPromptVersions lists, for each revision of the manifest's
// development flow, the arm's instruction before (1.0) and after (1.1) it;
// nil without a development flow. The bytes are the campaign's prompt
// files as loaded.
func buildPromptVersions(c *tables.Campaign) []PromptVersion {
	if c == nil || c.Manifest.Design.Development == nil {
		return nil
	}
	out := []PromptVersion{}
	for _, rv := range c.Manifest.Design.Development.Revisions {
		before, after := c.Prompts[rv.Prompt], c.Prompts[rv.Revised]
		out = append(out,
			PromptVersion{Arm: rv.Arm, Version: "1.0", Prompt: rv.Prompt, SHA256: hexSHA(before), Bytes: int64(len(before)), Rounds: "round 1", Diff: []string{}},
			PromptVersion{Arm: rv.Arm, Version: "1.1", Prompt: rv.Revised, SHA256: hexSHA(after), Bytes: int64(len(after)), Rounds: "round 2 and evaluation",
				Replaces: rv.Prompt, FrozenAt: rv.FrozenAt.UTC().Format(time.RFC3339Nano), Diff: lineDiff(string(before), string(after))})
	}
	return out
}

func hexSHA(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// maxDiffCells bounds the diff's table (lines of one file × lines of the
// other); beyond it the diff is every old line removed and every new line
// added, which is still exact.
const maxDiffCells = 4_000_000

// lineDiff is the line diff of a and b by a longest common subsequence:
// kept lines " ", removed "-", added "+", in file order.
func lineDiff(a, b string) []string {
	x, y := splitLines(a), splitLines(b)
	out := []string{}
	if len(x)*len(y) > maxDiffCells {
		for _, l := range x {
			out = append(out, "-"+l)
		}
		for _, l := range y {
			out = append(out, "+"+l)
		}
		return out
	}
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int32, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i] == y[j]:
			out = append(out, " "+x[i])
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, "-"+x[i])
			i++
		default:
			out = append(out, "+"+y[j])
			j++
		}
	}
	for ; i < len(x); i++ {
		out = append(out, "-"+x[i])
	}
	for ; j < len(y); j++ {
		out = append(out, "+"+y[j])
	}
	return out
}

// splitLines splits s after each "\n"; a final newline makes no extra line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
