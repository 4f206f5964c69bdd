package compare

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/stages/report/scorecard"
)

// The plain-text form of a comparison, for a terminal or a CI log: one
// line per difference, values in their units (stages/report/scorecard's
// one formatting layer), then the result line.

// What names a difference: its kind, key and field, without repeating a
// word ("decision failing_gates", "gate g2_task_floor B pass").
func (d Difference) What() string {
	parts := []string{d.Kind}
	if d.Key != "" {
		parts = append(parts, d.Key)
	}
	if d.Field != d.Kind && d.Field != "" {
		parts = append(parts, d.Field)
	}
	return strings.Join(parts, " ")
}

// Mark is a line's leading word: the direction, with "(within
// tolerance)" when the move does not count.
func (d Difference) Mark() string {
	if !d.Beyond {
		return string(d.Direction) + " (within tolerance)"
	}
	return string(d.Direction)
}

// Line is the difference on one line: "better gate g2_task_floor B pass:
// false -> true", "worse ratio B evaluation cost: ×1 (+0%) -> ×1.171
// (+17.1%) (delta +17.1 pp)", a list as what left it and what joined it
// with the counts ("-T7 (1 -> 0)").
func (d Difference) Line() string {
	if removed, added, ok := d.listChange(); ok {
		return fmt.Sprintf("%s %s: %s (%d -> %d)", d.Mark(), d.What(), listMoves(removed, added, nil), len(d.oldList()), len(d.newList()))
	}
	s := fmt.Sprintf("%s %s: %s -> %s", d.Mark(), d.What(), d.shown(d.Old), d.shown(d.New))
	if delta := d.DeltaText(); delta != "" {
		s += " (delta " + delta + ")"
	}
	return s
}

// shown prints one side's value: null when absent, a boolean bare, a
// number in its unit, any other text quoted (so that "" and spaces stay
// visible).
func (d Difference) shown(s *string) string {
	switch {
	case s == nil:
		return "null"
	case d.boolean:
		return *s
	case d.Unit != "" && rat(s) != nil:
		return scorecard.Quantity(d.Unit, s, d.currency)
	}
	return fmt.Sprintf("%q", *s)
}

// Value is one side's value for a reader, in its unit; "n/a" when absent.
func (d Difference) Value(s *string) string {
	if s == nil {
		return "n/a"
	}
	if d.Unit != "" && rat(s) != nil {
		return scorecard.Quantity(d.Unit, s, d.currency)
	}
	return *s
}

// DeltaText is NEW − OLD in the values' unit, signed (exactly, for a
// value without a unit such as a threshold); "" when either side is not a
// number.
func (d Difference) DeltaText() string {
	switch {
	case d.Delta == nil:
		return ""
	case d.Unit == "":
		return *d.Delta
	}
	return scorecard.QuantityDelta(d.Unit, rat(d.Delta), d.currency)
}

func (d Difference) oldList() []string {
	if d.list {
		return d.oldItems
	}
	return nil
}

func (d Difference) newList() []string {
	if d.list {
		return d.newItems
	}
	return nil
}

// listChange splits a difference of a list field (the decision's
// failing_gates, a gate's failing tasks or runs) into what left the list
// and what joined it, in list order; ok is false for any other field.
func (d Difference) listChange() (removed, added []string, ok bool) {
	if !d.list {
		return nil, nil, false
	}
	for _, x := range d.oldItems {
		if !slices.Contains(d.newItems, x) {
			removed = append(removed, x)
		}
	}
	for _, x := range d.newItems {
		if !slices.Contains(d.oldItems, x) {
			added = append(added, x)
		}
	}
	return removed, added, true
}

// listMoves prints removed items as "-x" and added ones as "+y", each
// through quote (a Markdown code span, or nothing); "reordered" when
// neither list has an item the other lacks.
func listMoves(removed, added []string, quote func(string) string) string {
	if quote == nil {
		quote = func(s string) string { return s }
	}
	var parts []string
	for _, x := range removed {
		parts = append(parts, "-"+quote(x))
	}
	for _, x := range added {
		parts = append(parts, "+"+quote(x))
	}
	if len(parts) == 0 {
		return "reordered"
	}
	return strings.Join(parts, " ")
}

// Summary is the result line: the result word and the count of each
// direction beyond the tolerance.
func (c *Comparison) Summary() string {
	beyond := c.Counts.Better + c.Counts.Worse + c.Counts.Changed + c.Counts.PolicyChange
	if !c.Changed {
		return fmt.Sprintf("result: unchanged (%d differences, none beyond tolerance %s)", len(c.Differences), c.Tolerance)
	}
	s := fmt.Sprintf("result: %s (%d of %d differences beyond tolerance %s: %d worse, %d better, %d changed",
		c.Result, beyond, len(c.Differences), c.Tolerance, c.Counts.Worse, c.Counts.Better, c.Counts.Changed)
	if c.PolicyChanged {
		s += fmt.Sprintf(", %d policy changes", c.Counts.PolicyChange)
	}
	return s + ")"
}

// WriteText writes the comparison as text: both sides, the decision, one
// line per difference and the result line.
func (c *Comparison) WriteText(w io.Writer) error {
	// Directories, IDs and keys come from the user's files: each is
	// printed escaped (confined.EscapeText), one inert line.
	esc := confined.EscapeText
	var b strings.Builder
	fmt.Fprintf(&b, "old: %s (campaign %q, manifest %s)\n", esc(c.Old.Dir), c.Old.CampaignID, esc(c.Old.ManifestSHA256))
	fmt.Fprintf(&b, "new: %s (campaign %q, manifest %s)\n", esc(c.New.Dir), c.New.CampaignID, esc(c.New.ManifestSHA256))
	fmt.Fprintf(&b, "decision: %s -> %s\n", esc(string(c.Old.Decision)), esc(string(c.New.Decision)))
	if c.Old.Policy != "" || c.New.Policy != "" {
		fmt.Fprintf(&b, "policy: %s -> %s\n", esc(cmp.Or(c.Old.Policy, "(not named)")), esc(cmp.Or(c.New.Policy, "(not named)")))
	}
	if c.PolicyChanged {
		b.WriteString("policy: changed (--allow-policy-change): a threshold, gate or ceiling differs; the decision and those gates' pass have no direction\n")
	}
	for _, d := range c.Differences {
		b.WriteString(esc(d.Line()) + "\n")
	}
	b.WriteString(c.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}
