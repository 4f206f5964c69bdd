package validate

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/evalgate/evalgate/tables"
)

// PromptVersions is the prompt_versions table of a paired review's
// development flow (rule G8, contract #741 §5 "record both rounds and any
// v1.1 prompt diff"): every role instruction the draft and the arms
// receive that no revision replaces, received by every round and the
// evaluation (version 1.0); then, for each revision in the manifest's
// order, the instruction it replaces (1.0, round 1) and the revised one
// (1.1, round 2 and evaluation) with its line diff. The bytes are the
// campaign's prompt files as loaded. Nil without a development flow.
func PromptVersions(c *tables.Campaign) []tables.PromptVersion {
	m := &c.Manifest
	dev := m.Design.Development
	if dev == nil {
		return nil
	}
	revised := map[[2]string]bool{} // (arm, prompt) a revision replaces
	for _, rv := range dev.Revisions {
		revised[[2]string{rv.Arm, rv.Prompt}] = true
	}
	kinds := map[string]string{}
	for _, p := range m.Prompts {
		kinds[p.ID] = p.Kind
	}
	out := []tables.PromptVersion{}
	row := func(role string, arm *string, version, id, rounds string) tables.PromptVersion {
		b := c.Prompts[id]
		return tables.PromptVersion{Role: role, Arm: arm, Version: version, PromptID: id, SHA256: hexSHA(b), Bytes: int64(len(b)), Rounds: rounds}
	}
	for _, id := range m.Design.DraftPrompts {
		if kinds[id] == tables.PartRole {
			out = append(out, row(tables.RoleDraft, nil, tables.PromptVersionBase, id, tables.RoundsEveryPhase))
		}
	}
	for _, a := range m.Design.Arms {
		for _, id := range a.Prompts {
			if kinds[id] == tables.PartRole && !revised[[2]string{a.ID, id}] {
				out = append(out, row(tables.RoleReview, &a.ID, tables.PromptVersionBase, id, tables.RoundsEveryPhase))
			}
		}
	}
	for _, rv := range dev.Revisions {
		arm, replaces, frozen := rv.Arm, rv.Prompt, rv.FrozenAt.UnixNano()
		next := row(tables.RoleReview, &arm, tables.PromptVersionNext, rv.Revised, tables.RoundsSecondOn)
		next.Replaces, next.FrozenAt = &replaces, &frozen
		var diff strings.Builder
		for _, l := range lineDiff(string(c.Prompts[rv.Prompt]), string(c.Prompts[rv.Revised])) {
			diff.WriteString(l + "\n")
		}
		text := diff.String()
		next.Diff = &text
		out = append(out, row(tables.RoleReview, &arm, tables.PromptVersionBase, rv.Prompt, tables.RoundsFirst), next)
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
