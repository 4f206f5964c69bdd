package scorecard

import (
	"slices"
	"strconv"

	"github.com/evalgate/evalgate/tables"
)

// CeilingResult is one campaign ceiling as the account stage checked it
// (the ceilings table): what the campaign used beside its inclusive limit.
// Limit and use are exact: a whole number of sessions, tokens or
// nanoseconds, or an amount of money in the rate cards' currency; null
// when unknown (an invalid limit, a use that cannot be known).
type CeilingResult struct {
	Ceiling string  `json:"ceiling"` // planned_sessions, total_sessions, wall_time, input_tokens, output_tokens, reference_cost, actual_cost
	Unit    string  `json:"unit"`    // sessions, ns, tokens or money
	Limit   *string `json:"limit"`
	Use     *string `json:"use"`
	Held    *bool   `json:"held"` // null when the use or the limit is unknown
	// UnbilledSessions counts, for actual_cost only, the accounted
	// sessions whose actual billing is unavailable: their charge is not
	// known, is not zero, and is not in use, so use is a lower bound and
	// the actual cost is unavailable. 0 for the other ceilings.
	UnbilledSessions int64 `json:"unbilled_sessions"`
}

// CeilingActualCost names the campaign's attributable actual cost ceiling.
const CeilingActualCost = "actual_cost"

// CeilingWallTime names the campaign wall-time ceiling: first session
// start to last session end, waiting and queues included.
const CeilingWallTime = "wall_time"

func buildCeilings(s *tables.Set) []CeilingResult {
	out := make([]CeilingResult, 0, len(s.Ceilings))
	for _, c := range s.Ceilings {
		r := CeilingResult{Ceiling: c.Ceiling, Unit: c.Unit, Limit: intText(c.Limit), Use: intText(c.Use)}
		if c.Unit == "money" {
			r.Limit, r.Use = moneyText(c.LimitCost), moneyText(c.UseCost)
		}
		if c.Held != nil {
			held := *c.Held
			r.Held = &held
		}
		if c.Ceiling == CeilingActualCost {
			r.UnbilledSessions = unbilledSessions(s)
		}
		out = append(out, r)
	}
	return out
}

// unbilledSessions counts the token rows of accounted ledger entries
// whose actual charge is unavailable. It keeps only the lines of the
// unbilled token rows (sorted), then reads the ledger once: each distinct
// accounted line counts its unbilled rows.
func unbilledSessions(s *tables.Set) int64 {
	var unbilled []int64
	for t := range s.Tokens.All() {
		if t.ActualCharge == nil {
			unbilled = append(unbilled, t.Line)
		}
	}
	if len(unbilled) == 0 {
		return 0
	}
	slices.Sort(unbilled)
	var hits []int64 // accounted lines with an unbilled row
	for e := range s.Ledger.All() {
		if e.Kind == tables.LedgerAccounted && e.Line > 0 {
			if _, ok := slices.BinarySearch(unbilled, e.Line); ok {
				hits = append(hits, e.Line)
			}
		}
	}
	slices.Sort(hits)
	var n int64
	for _, line := range slices.Compact(hits) {
		i, _ := slices.BinarySearch(unbilled, line)
		for ; i < len(unbilled) && unbilled[i] == line; i++ {
			n++
		}
	}
	return n
}

func intText(v *int64) *string {
	if v == nil {
		return nil
	}
	s := strconv.FormatInt(*v, 10)
	return &s
}

func moneyText(m *tables.Money) *string {
	if m == nil {
		return nil
	}
	s := m.String()
	return &s
}

// CeilingUse prints a ceiling's use in its unit; the actual cost prints
// "unavailable" when some session's billing is, never a partial sum as if
// it were the total.
func CeilingUse(c CeilingResult, currency string) string {
	if c.Ceiling == CeilingActualCost && c.UnbilledSessions > 0 {
		noun := " sessions"
		if c.UnbilledSessions == 1 {
			noun = " session"
		}
		s := "unavailable (" + strconv.FormatInt(c.UnbilledSessions, 10) + noun + " without actual billing"
		if x, ok := ParseExact(orEmpty(c.Use)); ok && x.Sign() != 0 {
			s += "; counted so far " + Amount(currency, c.Use)
		}
		return s + ")"
	}
	return ceilingValue(c.Unit, c.Use, currency)
}

// CeilingLimit prints a ceiling's limit in its unit.
func CeilingLimit(c CeilingResult, currency string) string {
	return ceilingValue(c.Unit, c.Limit, currency)
}

// CeilingHeld prints whether a ceiling held: yes, NO, or unknown.
func CeilingHeld(c CeilingResult) string {
	switch {
	case c.Held == nil:
		return "unknown"
	case *c.Held:
		return "yes"
	}
	return "NO"
}

func ceilingValue(unit string, v *string, currency string) string {
	switch unit {
	case "ns":
		return Duration(v)
	case "money":
		return Amount(currency, v)
	}
	if v == nil {
		return "unavailable"
	}
	return *v
}

func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
