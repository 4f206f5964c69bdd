package account

import (
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// Commit returns the commitment (see [tables.Commitment]) of ledger against the campaign ceiling of
// basis (tables.BillingReference: /ceilings/campaign/reference_cost and
// reference costs; tables.BillingActual: /ceilings/campaign/actual_cost
// and attributable actual charges, held and reserved at their worst case).
func Commit(ceilings *tables.Ceilings, ledger *spool.Spool[tables.LedgerEntry], basis string) tables.Commitment {
	lim, _ := parseLimits(ceilings)
	s := Summarize(ledger)
	pick := func(a Allowance) *tables.Money {
		if basis == tables.BillingActual {
			return a.ActualCost
		}
		return a.ReferenceCost
	}
	c := tables.Commitment{Basis: basis, Cap: lim.referenceCost, Accounted: pick(s.Accounted), Held: pick(s.Held), Reserved: pick(s.Reserved)}
	if basis == tables.BillingActual {
		c.Cap = lim.actualCost
	}
	c.Committed = sumMoney(c.Accounted, c.Held, c.Reserved)
	if c.Cap != nil && c.Committed != nil {
		c.Remaining = ptrMoney(*c.Cap - *c.Committed)
	}
	return c
}
