package rules

import (
	"fmt"
	"strings"
)

// shownPositions is how many positions a collapsed line names.
const shownPositions = 3

// FindingGroup is one printed line of findings: a finding and every later
// one identical to it but for its position (same code, severity and
// message), so that a defect repeated on every line of a file prints once.
type FindingGroup struct {
	First     Finding
	Positions []string // every member's position (file:line#pointer), in order
}

// Count is the number of findings the group stands for.
func (g FindingGroup) Count() int { return len(g.Positions) }

// Collapse groups fs, in their order, into one group per distinct (code,
// severity, message), each placed where its first member is. Every
// finding is in exactly one group; none is dropped.
func Collapse(fs []Finding) []FindingGroup {
	type key struct {
		code     Code
		severity Severity
		message  string
	}
	index := map[key]int{}
	var out []FindingGroup
	for _, f := range fs {
		k := key{f.Code, f.Severity, f.Message}
		i, seen := index[k]
		if !seen {
			i = len(out)
			index[k] = i
			out = append(out, FindingGroup{First: f})
		}
		out[i].Positions = append(out[i].Positions, f.Position())
	}
	return out
}

// Error formats the group as its first finding does, the position being
// the first few positions and, past them, how many more there are, and the
// count after the message when the group holds several:
//
//	receipts.jsonl:1, receipts.jsonl:2, receipts.jsonl:3 and 67 more: reservation_missing: ... (70 findings)
func (g FindingGroup) Error() string {
	f := g.First
	if g.Count() == 1 {
		return f.Error()
	}
	shown := g.Positions[:min(len(g.Positions), shownPositions)]
	pos := strings.Join(shown, ", ")
	if n := len(g.Positions) - len(shown); n > 0 {
		pos += fmt.Sprintf(" and %d more", n)
	}
	return fmt.Sprintf("%s: %s: %s (%d findings)", pos, f.Code, f.Message, g.Count())
}

// Position is where f is, as Error prints it: file:line#pointer, or
// "campaign" for the campaign as a whole.
func (f Finding) Position() string {
	pos := f.File
	if f.Line > 0 {
		pos = fmt.Sprintf("%s:%d", pos, f.Line)
	}
	if f.Pointer != "" {
		pos += "#" + f.Pointer
	}
	if pos == "" {
		pos = "campaign"
	}
	return pos
}
