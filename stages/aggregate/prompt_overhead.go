package aggregate

import (
	"slices"

	"github.com/evalgate/evalgate/tables"
)

// promptOverheads measures, for every non-baseline arm of a paired review,
// the prompt parts it receives that the baseline does not and the reverse
// (a part is the same when its ID and bytes are), their rendered bytes
// under tables.Render (framing is per part, so the difference of two
// renderings is the difference of their differing parts), and over every
// pair whose two reviews both carry a meter, the input tokens the arm's
// review counted beyond the baseline's: the instruction and schema tokens
// the arm is charged for (rule C3). The campaign's prompt files are read
// from c.Prompts; a part whose file did not load counts zero bytes.
func promptOverheads(c *tables.Campaign, runs []tables.Run, dispatched map[string]meteredInput) []tables.PromptOverhead {
	arms := c.Manifest.Design.Arms
	if c.Manifest.Kind != tables.KindPairedReview || len(arms) < 2 {
		return nil
	}
	type pairKey struct {
		task string
		rep  int64
	}
	review := map[string]map[pairKey]string{} // arm → pair → dispatched review session
	for _, r := range runs {
		if _, ok := dispatched[r.ReviewSessionID]; !ok {
			continue
		}
		if review[r.Arm] == nil {
			review[r.Arm] = map[pairKey]string{}
		}
		review[r.Arm][pairKey{r.TaskID, r.Repetition}] = r.ReviewSessionID
	}
	base := arms[0]
	var out []tables.PromptOverhead
	for _, arm := range arms[1:] {
		o := tables.PromptOverhead{Arm: arm.ID, Baseline: base.ID}
		mine, theirs := renderedParts(c, arm.Prompts), renderedParts(c, base.Prompts)
		o.ArmOnly, o.BaselineOnly = partsNotIn(mine, theirs), partsNotIn(theirs, mine)
		for _, p := range o.ArmOnly {
			o.Bytes += p.RenderedBytes
		}
		for _, p := range o.BaselineOnly {
			o.Bytes -= p.RenderedBytes
		}
		keys := make([]pairKey, 0, len(review[arm.ID]))
		for k := range review[arm.ID] {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(x, y pairKey) int {
			if x.task != y.task {
				return compareStrings(x.task, y.task)
			}
			return int(x.rep - y.rep)
		})
		for _, k := range keys {
			b, ok := review[base.ID][k]
			if !ok {
				continue
			}
			o.Pairs++
			inA, inB := dispatched[review[arm.ID][k]], dispatched[b]
			if inA.metered && inB.metered {
				o.MeteredPairs++
				o.InputTokens += inA.tokens - inB.tokens
			}
		}
		out = append(out, o)
	}
	return out
}

// part is one rendered prompt part with the digest that identifies it.
type part struct {
	tables.PromptPartBytes
	sha string
}

func renderedParts(c *tables.Campaign, ids []string) []part {
	var in []tables.RenderPart
	for _, id := range ids {
		kind := ""
		if i := slices.IndexFunc(c.Manifest.Prompts, func(p tables.PromptFile) bool { return p.ID == id }); i >= 0 {
			kind = c.Manifest.Prompts[i].Kind
		}
		in = append(in, tables.RenderPart{Kind: kind, ID: id, Data: c.Prompts[id]})
	}
	var out []part
	for _, p := range tables.Render(in).Parts {
		out = append(out, part{tables.PromptPartBytes{ID: p.ID, Kind: p.Kind, RenderedBytes: p.RenderedBytes}, p.SHA256})
	}
	return out
}

// partsNotIn lists the parts of xs that ys lacks (same ID and bytes).
func partsNotIn(xs, ys []part) []tables.PromptPartBytes {
	out := []tables.PromptPartBytes{}
	for _, x := range xs {
		if !slices.ContainsFunc(ys, func(y part) bool { return y.ID == x.ID && y.sha == x.sha }) {
			out = append(out, x.PromptPartBytes)
		}
	}
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
