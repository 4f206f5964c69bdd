package compare

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/evalgate/evalgate/stages/report/markdown"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// The Markdown form of a comparison, for a pull-request comment or a CI
// job summary, in the manner of benchstat: a first line with the result,
// the decision's change and the counts; one row per gate that differs
// (old → new with its pass, the delta in the gate's unit, the direction);
// one row per headline figure (each arm's macro-average of task-median R
// and the candidate's cost and time ratios, in the judged split); every
// difference in a collapsed section. Every value prints in its unit
// (durations, currency, ratios and percentages), never as raw
// nanoseconds or a bare fraction.

// DetailRows bounds the collapsed section's rows, so that a comparison of
// two large campaigns stays within a comment's size; the rest is counted
// (all of them are in --json).
const DetailRows = 200

// WriteMarkdown writes the comparison as Markdown; failOn names what
// fails the comparison (its line is printed only when it is met).
func (c *Comparison) WriteMarkdown(w io.Writer, failOn FailOn) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### evalgate compare: %s · decision %s → %s · %s\n\n", c.Result,
		esc(string(c.Old.Decision)), esc(string(c.New.Decision)), c.countsText())
	fmt.Fprintf(&b, "Old: %s (campaign %s). New: %s (campaign %s). Tolerance %s.\n\n",
		esc(c.Old.Dir), esc(c.Old.CampaignID), esc(c.New.Dir), esc(c.New.CampaignID), esc(c.Tolerance))
	if c.Old.Policy != "" || c.New.Policy != "" {
		fmt.Fprintf(&b, "Policy: %s → %s.\n\n", esc(cmp.Or(c.Old.Policy, "(not named)")), esc(cmp.Or(c.New.Policy, "(not named)")))
	}
	if c.PolicyChanged {
		fmt.Fprintf(&b, "**Policy changed** (`--allow-policy-change`): %d number(s) of the policy differ. They are listed as policy changes, "+
			"and the decision and the pass of a gate whose threshold changed are not read as better or worse.\n\n", c.Counts.PolicyChange)
	}
	if hit := c.Fails(failOn); len(hit) > 0 {
		fmt.Fprintf(&b, "**Fails `--fail-on %s`**: %s.\n\n", failOn, failText(failOn, hit))
	}
	c.writeGateTable(&b)
	c.writeHeadlines(&b)
	if len(c.Differences) > 0 {
		fmt.Fprintf(&b, "<details><summary>All %d differences</summary>\n\n", len(c.Differences))
		for i, d := range c.Differences {
			if i == DetailRows {
				fmt.Fprintf(&b, "\n… and %d more (every one in `evalgate compare --json`).\n", len(c.Differences)-DetailRows)
				break
			}
			b.WriteString("- " + d.mdLine() + "\n")
		}
		b.WriteString("\n</details>\n\n")
	}
	b.WriteString(cell(c.Summary()) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// esc makes text from the campaign (IDs, directories, keys) inert in a
// Markdown paragraph or cell.
func esc(s string) string { return markdown.Escape(s) }

// cell keeps text evalgate formats itself (a value in its unit, a
// result line) inside its table cell: a pipe is escaped, a line break
// becomes a space, and a threshold's comparison prints as ≥ or ≤.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", ">=", "≥", "<=", "≤").Replace(s)
}

// mdLine is [Difference.Line] for a Markdown list item: its key escaped,
// its values in their units.
func (d Difference) mdLine() string {
	what := "**" + esc(d.Mark()) + "** " + esc(d.What())
	if removed, added, ok := d.listChange(); ok {
		return fmt.Sprintf("%s: %s (%d → %d)", what, listMoves(removed, added, esc), len(d.oldItems), len(d.newItems))
	}
	s := fmt.Sprintf("%s: %s → %s", what, d.mdValue(d.Old), d.mdValue(d.New))
	if delta := d.DeltaText(); delta != "" {
		s += " (" + cell(delta) + ")"
	}
	return s
}

// mdValue is one side's value: in its unit, or the text escaped, *none*
// when absent or empty.
func (d Difference) mdValue(s *string) string {
	switch {
	case s == nil || *s == "":
		return "*none*"
	case d.Unit != "" && rat(s) != nil:
		return cell(d.Value(s))
	}
	return esc(*s)
}

// countsText is "3 worse, 12 better, 5 changed" (and policy changes),
// or "no difference".
func (c *Comparison) countsText() string {
	if !c.Changed {
		return "no difference beyond the tolerance"
	}
	s := fmt.Sprintf("%d worse, %d better, %d changed", c.Counts.Worse, c.Counts.Better, c.Counts.Changed)
	if c.PolicyChanged {
		s += fmt.Sprintf(", %d policy changes", c.Counts.PolicyChange)
	}
	return s
}

// failText says briefly what meets --fail-on.
func failText(f FailOn, hit []Difference) string {
	switch f {
	case FailOnDecisionWorse:
		return "the decision is worse"
	case FailOnRegression:
		return fmt.Sprintf("%d difference(s) are worse (marked worse below)", len(hit))
	}
	return fmt.Sprintf("%d difference(s) beyond the tolerance", len(hit))
}

// gateRow is one gate's differences.
type gateRow struct {
	key                    string
	pass, observed, thresh *Difference
	failing, present       *Difference
}

// direction of a gate's row: a policy change when its threshold (or
// presence) changed, else its pass's move, else its observation's, else
// a change (only its failing list moved).
func (g gateRow) direction() string {
	for _, d := range []*Difference{g.present, g.thresh, g.pass, g.observed, g.failing} {
		if d != nil {
			return d.Mark()
		}
	}
	return ""
}

func (c *Comparison) writeGateTable(b *strings.Builder) {
	var rows []*gateRow
	byKey := map[string]*gateRow{}
	for i := range c.Differences {
		d := &c.Differences[i]
		if d.Kind != DiffGate {
			continue
		}
		r := byKey[d.Key]
		if r == nil {
			r = &gateRow{key: d.Key}
			byKey[d.Key] = r
			rows = append(rows, r)
		}
		switch d.Field {
		case "pass":
			r.pass = d
		case "observed":
			r.observed = d
		case "threshold":
			r.thresh = d
		case "failing":
			r.failing = d
		case "present":
			r.present = d
		}
	}
	total := len(c.nw.gates)
	if len(rows) == 0 {
		fmt.Fprintf(b, "Gates: all %d the same.\n\n", total)
		return
	}
	fmt.Fprintf(b, "| gate | threshold | old | new | delta | |\n|---|---|---|---|---|---|\n")
	oldGates, newGates := indexGates(c.old), indexGates(c.nw)
	for _, r := range rows {
		og, ng := oldGates[r.key], newGates[r.key]
		threshold := ""
		switch {
		case r.thresh != nil:
			threshold = cell(*r.thresh.Old) + " → " + cell(*r.thresh.New)
		case ng != nil:
			threshold = cell(ng.Threshold)
		case og != nil:
			threshold = cell(og.Threshold)
		}
		delta := ""
		if r.observed != nil {
			delta = cell(r.observed.DeltaText())
		}
		if r.failing != nil {
			if delta != "" {
				delta += "; "
			}
			delta += fmt.Sprintf("failing %d → %d", len(r.failing.oldItems), len(r.failing.newItems))
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", esc(r.key), threshold,
			c.gateCell(og), c.gateCell(ng), delta, r.direction())
	}
	if same := total - len(rows); same > 0 {
		fmt.Fprintf(b, "\n%d other gate(s) the same.\n", same)
	}
	b.WriteByte('\n')
}

// gateCell is a gate's observation in its unit and whether it passed.
func (c *Comparison) gateCell(g *tables.Gate) string {
	if g == nil {
		return "absent"
	}
	mark := "pass"
	if !g.Pass {
		mark = "**fail**"
	}
	return cell(scorecard.Quantity(gateUnit(g.Gate), &g.Observed, c.currency())) + " " + mark
}

// indexGates maps each gate row of o by its difference key.
func indexGates(o *output) map[string]*tables.Gate {
	return indexBy(o.gates, gateKey)
}

func (c *Comparison) currency() string {
	return cmp.Or(c.nw.scorecard.CostAndTime.Currency, c.old.scorecard.CostAndTime.Currency)
}

// headline is one headline figure on both sides.
type headline struct {
	label, unit string
	old, new    *string
	diff        *Difference
}

// writeHeadlines writes each arm's macro-average of task-median R and each
// other arm's cost and time ratio against the baseline, in the judged
// split, whether or not they moved.
func (c *Comparison) writeHeadlines(b *strings.Builder) {
	split := cmp.Or(c.nw.scorecard.CostAndTime.JudgedSplit, c.old.scorecard.CostAndTime.JudgedSplit)
	baseline := cmp.Or(c.nw.scorecard.CostAndTime.Baseline, c.old.scorecard.CostAndTime.Baseline)
	var hs []headline
	macro := func(o *output, arm string) *string {
		for _, a := range o.scorecard.EvidenceAndPlan.Arms {
			if a.Arm == arm && a.Split == split && a.MacroMedianR != nil {
				s := a.MacroMedianR.Exact
				return &s
			}
		}
		return nil
	}
	for _, arm := range unionArms(c.old, c.nw, split) {
		label := "macro median R, " + arm
		if arm == baseline {
			label += " (baseline)"
		}
		hs = append(hs, headline{label, scorecard.UnitR, macro(c.old, arm), macro(c.nw, arm), c.find(DiffMacro, arm+" "+split, "macro_median_r")})
	}
	ratio := func(o *output, arm, field string) *string {
		for _, r := range ratiosBySplit(o.scorecard.CostAndTime) {
			if r.Arm == arm && (r.split == split || r.split == "") {
				return changeField(&r, func(x *scorecard.CostTimeRatio) *scorecard.Change {
					if field == "cost" {
						return x.Cost
					}
					return x.Time
				})
			}
		}
		return nil
	}
	for _, arm := range unionArms(c.old, c.nw, split) {
		if arm == baseline {
			continue
		}
		key := strings.TrimSpace(arm + " " + split)
		for _, f := range []string{"cost", "time"} {
			hs = append(hs, headline{f + " ratio " + arm + " / " + baseline, scorecard.UnitRatio,
				ratio(c.old, arm, f), ratio(c.nw, arm, f), c.find(DiffRatio, key, f)})
		}
	}
	if len(hs) == 0 {
		return
	}
	b.WriteString("| headline | old | new | delta | |\n|---|---|---|---|---|\n")
	for _, h := range hs {
		dir, delta := "same", ""
		if h.diff != nil {
			dir, delta = h.diff.Mark(), h.diff.DeltaText()
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", esc(h.label),
			cell(scorecard.Quantity(h.unit, h.old, c.currency())), cell(scorecard.Quantity(h.unit, h.new, c.currency())), cell(delta), dir)
	}
	b.WriteByte('\n')
}

// find returns the difference of kind, key and field, or nil.
func (c *Comparison) find(kind, key, field string) *Difference {
	for i, d := range c.Differences {
		if d.Kind == kind && d.Key == key && d.Field == field {
			return &c.Differences[i]
		}
	}
	return nil
}

// unionArms are the arms of split on either side, OLD's order first.
func unionArms(old, nw *output, split string) []string {
	var out []string
	seen := map[string]bool{}
	for _, o := range []*output{old, nw} {
		for _, a := range o.scorecard.EvidenceAndPlan.Arms {
			if a.Split == split && !seen[a.Arm] {
				seen[a.Arm] = true
				out = append(out, a.Arm)
			}
		}
	}
	return out
}
