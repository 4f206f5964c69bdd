package account

import (
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The ledger of a reviewer benchmark (the reviewer-benchmark protocol, "LLM use and budget"):
// the campaign ledger the reviewer-benchmark protocol reuses keeps integer micro-dollars, each
// operation's charge rounded up to the next micro-dollar, and "record[s]
// known costs and unresolved holds separately". Every receipt of the
// campaign is one operation: a review attempt, and every auxiliary call
// (adjudication, second opinion, planning, probe, remote execution), all
// under the one cap. The token rows keep each model call's exact charge;
// the ledger entry keeps it rounded up, so that the ledger's totals are
// the micro-dollar figures the campaign reports. Nothing is rounded down:
// a charge is never made smaller than its exact cost.

// microMoney is one micro-unit of the currency in Money's pico-units.
const microMoney = tables.Money(1_000_000)

// ceilMicro rounds a known, non-negative amount up to a whole micro-unit;
// nil stays nil (unknown is never rounded into a number).
func ceilMicro(m *tables.Money) *tables.Money {
	if m == nil || *m%microMoney == 0 || *m < 0 {
		return m
	}
	up := (*m/microMoney + 1) * microMoney
	if up < *m { // overflow: keep the exact amount rather than wrap
		return m
	}
	return &up
}

// benchmarkEntry makes a reviewer benchmark's ledger entry what the
// campaign ledger records: a metered charge that cannot be priced (a
// missing tariff, an unpriceable modifier, an unattributable tool charge)
// is held at its reservation's worst case beside the known costs instead
// of making the accounted total unknown, and every amount is rounded up
// to the micro-unit, the reference charge and the tool charges each as
// the operation's ledger records it.
func benchmarkEntry(e *tables.LedgerEntry, res *reservation) {
	if e.Kind == tables.LedgerAccounted && (e.ReferenceCost == nil || e.ToolCharges == nil) {
		e.Kind, e.ActualCost, e.ToolCharges, e.ReferenceCost = tables.LedgerHeld, nil, ptrMoney(0), nil
		if res != nil && res.cost != nil {
			e.ReferenceCost = res.cost
			e.InputTokens, e.OutputTokens = max(e.InputTokens, res.input), max(e.OutputTokens, res.output)
		}
	}
	e.ReferenceCost = ceilMicro(e.ReferenceCost)
	e.ToolCharges = ceilMicro(e.ToolCharges)
}

// remoteEntry charges a reviewer benchmark's remote execution (a probe
// or another remote trial). It has no token meter and no token row. Its
// charge is known only from its reconciled bill: a terminal receipt with
// billing basis actual, its actual_charge, and the bill it was reconciled
// against bound as its output (validate checks that the bill states the
// amount and is no Harbor trial record). Harbor's trial record is no bill:
// its agent_result.cost_usd is the agent's model cost, and it records no
// sandbox charge. Anything else is held at its reservation's worst case
// until the billing is reconciled ("remote execution awaiting billing
// reconciliation ... not assumed free"); an actual_charge without a bound
// bill is noted.
func (a *accountant) remoteEntry(line tables.Line[tables.Receipt], e *tables.LedgerEntry) {
	r := &line.Record
	actual := a.actualCharge(line)
	e.ToolCharges = ptrMoney(0)
	terminal := r.Status == tables.StatusResponse || r.Status == tables.StatusError
	if terminal && actual != nil && r.Output != nil {
		e.Kind = tables.LedgerAccounted
		e.ReferenceCost, e.ActualCost = ceilMicro(actual), ceilMicro(actual)
		return
	}
	e.Kind = tables.LedgerHeld
	res := a.reservation(line)
	if res != nil {
		e.ReferenceCost = ceilMicro(res.cost)
	}
	if actual != nil && r.Output == nil {
		held := "no reservation bounds it, so the hold is unknown"
		if e.ReferenceCost != nil {
			held = "it is held at its reservation's worst case, " + a.currency() + e.ReferenceCost.String()
		}
		a.add(line, rules.CodeRbenchRemoteBillMissing, rules.ClassOf(rules.CodeRbenchRemoteBillMissing).Severity(), "/output",
			"The remote execution's actual_charge "+a.currency()+*r.Billing.ActualCharge+" binds no bill it was reconciled against (output is null): Harbor's trial record records no sandbox charge, so "+held+" until the bill is recorded.")
	}
}

// currency is the campaign's currency and a space, or "" without a rate
// card.
func (a *accountant) currency() string {
	if cards := a.c.Manifest.RateCards; len(cards) > 0 {
		return cards[0].Currency + " "
	}
	return ""
}
