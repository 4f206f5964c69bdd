package score

import (
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// The charges of a reviewer benchmark's attempts, read from the account
// stage's ledger (the reviewer-benchmark protocol: "Record known costs and unresolved holds
// separately"; "keep original task, failed attempts and costs"): an
// attempt's cost is what the ledger accounts for every execution of it —
// the scored one and any replaced within the allowance — and its held
// cost what the ledger holds for them. One held or unpriced execution
// leaves the known cost known, with the hold beside it.

// charge is what the ledger records for one session.
type charge struct {
	accounted, held *tables.Money
}

// ledgerCharges totals the ledger's accounted and held entries by
// session; replayed and released entries charge nothing.
func ledgerCharges(ledger *spool.Spool[tables.LedgerEntry]) map[string]*charge {
	out := map[string]*charge{}
	if ledger == nil {
		return out
	}
	zero := tables.Money(0)
	for e := range ledger.All() {
		if e.Kind != tables.LedgerAccounted && e.Kind != tables.LedgerHeld {
			continue
		}
		c := out[e.SessionID]
		if c == nil {
			c = &charge{accounted: &zero, held: &zero}
			out[e.SessionID] = c
		}
		amount := addMoney(e.ReferenceCost, orZero(e.ToolCharges))
		if e.Kind == tables.LedgerAccounted {
			c.accounted = addMoney(c.accounted, amount)
		} else {
			c.held = addMoney(c.held, amount)
		}
	}
	return out
}

func orZero(m *tables.Money) *tables.Money {
	if m == nil {
		zero := tables.Money(0)
		return &zero
	}
	return m
}

// attemptCharges sets the row's cost and held cost from the ledger
// entries of its sessions; an attempt with no receipt keeps both null.
func attemptCharges(row *tables.ReviewRow, replaced []string, charges map[string]*charge) {
	if row.SessionID == "" {
		return
	}
	zero := tables.Money(0)
	row.Cost, row.HeldCost = &zero, &zero
	for _, s := range append([]string{row.SessionID}, replaced...) {
		if c := charges[s]; c != nil {
			row.Cost = addMoney(row.Cost, c.accounted)
			row.HeldCost = addMoney(row.HeldCost, c.held)
		}
	}
}

// replacedTokens adds the tokens of an attempt's replaced executions to
// its row: they were billed, and the stratum's token sums count every
// receipt.
func replacedTokens(row *tables.ReviewRow, replaced []string, tokens map[string]*tables.Token) {
	for _, s := range replaced {
		if t := tokens[s]; t != nil {
			row.InputTokens += t.InputTotal
			row.OutputTokens += t.Output
		}
	}
}
