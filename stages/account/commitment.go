package account

import "github.com/evalgate/evalgate/tables"

// Commitment is the ledger as RFC 0033 keeps it, against one money cap:
// what is accounted (terminal, metered charges), what is held (uncertain
// provider charges and interrupted or unmetered requests, at their
// reservation's worst case: they are not assumed free), what admitted
// requests have reserved, committed = accounted + held + reserved, and
// remaining = cap − committed. Every amount is exact; a nil amount is
// unknown (some charge has no tariff, meter or reservation), and then
// committed and remaining are unknown too, never zero.
//
// Resuming a session reuses its receipts: a second receipt for an
// already charged request ID is a replayed ledger entry that charges
// nothing, so a duplicate dispatch is never charged twice.
type Commitment struct {
	Basis     string        // reference or actual: which ledger amount and ceiling
	Cap       *tables.Money // the campaign ceiling; nil when invalid
	Accounted *tables.Money
	Held      *tables.Money
	Reserved  *tables.Money
	Committed *tables.Money
	Remaining *tables.Money // negative when the cap is exceeded
}

// Commit returns the commitment of ledger against the campaign ceiling of
// basis (tables.BillingReference: /ceilings/campaign/reference_cost and
// reference costs; tables.BillingActual: /ceilings/campaign/actual_cost
// and attributable actual charges, held and reserved at their worst case).
func Commit(ceilings *tables.Ceilings, ledger []tables.LedgerEntry, basis string) Commitment {
	lim, _ := parseLimits(ceilings)
	s := Summarize(ledger)
	pick := func(a Allowance) *tables.Money {
		if basis == tables.BillingActual {
			return a.ActualCost
		}
		return a.ReferenceCost
	}
	c := Commitment{Basis: basis, Cap: lim.referenceCost, Accounted: pick(s.Accounted), Held: pick(s.Held), Reserved: pick(s.Reserved)}
	if basis == tables.BillingActual {
		c.Cap = lim.actualCost
	}
	c.Committed = sumMoney(c.Accounted, c.Held, c.Reserved)
	if c.Cap != nil && c.Committed != nil {
		c.Remaining = ptrMoney(*c.Cap - *c.Committed)
	}
	return c
}

// Within reports whether the commitment is known and does not exceed its
// cap (inclusive).
func (c Commitment) Within() bool {
	return c.Cap != nil && c.Committed != nil && *c.Committed <= *c.Cap
}
