package aggregate

import (
	"iter"
	"slices"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
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
func promptOverheads(c *tables.Campaign, runs runSet, tokens *spool.Spool[tables.Token]) []tables.PromptOverhead {
	arms := c.Manifest.Design.Arms
	if c.Manifest.Kind != rules.KindPairedReview || len(arms) < 2 {
		return nil
	}
	base := arms[0]
	out := make([]tables.PromptOverhead, 0, len(arms)-1)
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
		out = append(out, o)
	}
	// A pair is one (task, repetition) whose baseline and arm reviews were
	// both dispatched (the last of each, should one repeat); its runs
	// follow each other (runSet). Only sums are kept, so no pair order
	// enters them.
	var task string
	var rep int64
	group := map[string]reviewInput{} // arm → its dispatched review in the current pair
	flush := func() {
		b, ok := group[base.ID]
		if !ok {
			return
		}
		for i := range out {
			a, ok := group[out[i].Arm]
			if !ok {
				continue
			}
			out[i].Pairs++
			if a.Metered && b.Metered {
				out[i].MeteredPairs++
				out[i].InputTokens += a.Tokens - b.Tokens
			}
		}
	}
	inputs, stop := iter.Pull(reviewInputs(runs, tokens)) // one per run, in runs order
	defer stop()
	for r := range runs.All() {
		if r.TaskID != task || r.Repetition != rep {
			flush()
			clear(group)
			task, rep = r.TaskID, r.Repetition
		}
		if in, _ := inputs(); in.Dispatched {
			group[r.Arm] = in
		}
	}
	flush()
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
