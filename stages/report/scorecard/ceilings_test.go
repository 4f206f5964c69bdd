package scorecard

import (
	"testing"

	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

func TestCeilingText(t *testing.T) {
	s := func(v string) *string { return &v }
	yes, no := true, false
	for _, c := range []struct{ got, want string }{
		{CeilingUse(CeilingResult{Ceiling: "wall_time", Unit: "ns", Use: s("5675500000000")}, "USD"), "1 h 34 min 35.5 s"}, // 5675.5 s
		{CeilingLimit(CeilingResult{Ceiling: "wall_time", Unit: "ns", Limit: s("28800000000000")}, "USD"), "8 h"},
		{CeilingUse(CeilingResult{Ceiling: "wall_time", Unit: "ns"}, "USD"), "unavailable"},
		{CeilingUse(CeilingResult{Ceiling: "reference_cost", Unit: "money", Use: s("5.110872")}, "USD"), "USD 5.1109"},
		{CeilingUse(CeilingResult{Ceiling: "input_tokens", Unit: "tokens", Use: s("319658")}, "USD"), "319658"},
		// Billing unavailable: never the partial sum 0 as if it were the actual cost.
		{CeilingUse(CeilingResult{Ceiling: "actual_cost", Unit: "money", Use: s("0"), UnbilledSessions: 70}, "USD"), "unavailable (70 sessions without actual billing)"},
		{CeilingUse(CeilingResult{Ceiling: "actual_cost", Unit: "money", Use: s("0.27"), UnbilledSessions: 1}, "USD"), "unavailable (1 session without actual billing; counted so far USD 0.2700)"},
		{CeilingUse(CeilingResult{Ceiling: "actual_cost", Unit: "money", Use: s("1.5")}, "USD"), "USD 1.5000"},
		{CeilingHeld(CeilingResult{Held: &yes}), "yes"},
		{CeilingHeld(CeilingResult{Held: &no}), "NO"},
		{CeilingHeld(CeilingResult{}), "unknown"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// unbilled_sessions counts accounted sessions whose actual charge is
// unavailable: here 2 of 3 accounted (line 3 is billed), and the held
// session on line 4 is not counted (its worst case is in use).
func TestUnbilledSessions(t *testing.T) {
	one := tables.Money(1)
	s := &tables.Set{
		Tokens: spool.Of([]tables.Token{{Line: 1}, {Line: 2}, {Line: 3, ActualCharge: &one}, {Line: 4}}...),
		Ledger: spool.Of([]tables.LedgerEntry{
			{Kind: tables.LedgerAccounted, Line: 1}, {Kind: tables.LedgerAccounted, Line: 2},
			{Kind: tables.LedgerAccounted, Line: 3}, {Kind: tables.LedgerHeld, Line: 4},
		}...),
		Ceilings: []tables.Ceiling{{Ceiling: "actual_cost", Unit: "money", UseCost: &one}, {Ceiling: "wall_time", Unit: "ns"}},
	}
	got := buildCeilings(s)
	if got[0].UnbilledSessions != 2 || got[1].UnbilledSessions != 0 {
		t.Errorf("unbilled sessions %d, %d; want 2, 0", got[0].UnbilledSessions, got[1].UnbilledSessions)
	}
	if got[1].Use != nil || got[1].Limit != nil || got[1].Held != nil {
		t.Errorf("unknown wall time %+v, want null use, limit and held", got[1])
	}
}
