// Package account is the third stage: tokens, exact money, time, ceilings
// and admission (rules A1–A8).
//
// Invariants:
//   - Every meter is decoded strictly per its shape into disjoint buckets:
//     a cached subset is subtracted from an inclusive input exactly once,
//     and reasoning inside billed output is never added twice.
//   - Money is exact: prices per million tokens with at most six decimals
//     become integer pico-unit prices per token; every product and sum is
//     overflow-checked int64. No float is used anywhere.
//   - Unknown is never zero: a bucket with tokens but no price, a missing
//     meter, an unattributable tool charge or unavailable billing leaves
//     the amount null, and the cost gate cannot pass.
//   - Ceilings are inclusive: exactly at a ceiling is within it.
//   - Output is deterministic: tokens sorted by session ID (then line),
//     ledger in receipt order, findings in the order they are found.
package account

import (
	"cmp"
	"fmt"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

const (
	receiptsFile = "receipts.jsonl"
	manifestFile = "manifest.json"
)

// Out is what the stage produces (see [tables.Accounted]).
type Out = tables.Accounted

// Run accounts the campaign's receipts: one token row per dispatched
// receipt (sorted by session ID), one ledger entry per receipt (in receipt
// order), and every finding: impossible meters, missing meters, tariffs and
// reservations, and every exceeded session or campaign ceiling.
func Run(c *tables.Campaign) Out {
	a := newAccountant(c)
	for line := range c.Receipts.All() {
		a.receipt(line)
	}
	a.findings = append(a.findings, a.reservations.reused(c)...)
	a.campaignCeilings()
	a.ledger.Compact() // complete (spool.Spool.Compact)
	return Out{Tokens: a.tokens, Ledger: a.ledger, Ceilings: a.ceilings, Findings: a.findings}
}

// compareTokens orders token rows by session ID, then receipt line.
func compareTokens(x, y tables.Token) int {
	return cmp.Or(cmp.Compare(x.SessionID, y.SessionID), cmp.Compare(x.Line, y.Line))
}

// accountant accumulates the account stage's tables for one campaign.
type accountant struct {
	c            *tables.Campaign
	cards        map[string]Tariff
	limits       limits
	charged      map[string]chargedRequest        // request IDs already charged
	reservations *reservationIDs                  // the reservation IDs of dispatched receipts (reservations.go)
	tokens       *spool.Spool[tables.Token]       // sorted by compareTokens
	ledger       *spool.Spool[tables.LedgerEntry] // in receipt order
	ceilings     []tables.Ceiling
	findings     []rules.Finding
	wall         wallSpan // of the receipts accounted so far
	bench        bool     // a reviewer benchmark: micro-unit ledger, remote executions (rbench_ledger.go)
}

func newAccountant(c *tables.Campaign) *accountant {
	a := &accountant{c: c, cards: tariffs(&c.Manifest), tokens: spool.New(compareTokens),
		charged: make(map[string]chargedRequest, c.Receipts.Len()), reservations: newReservationIDs(c.Receipts.Len()), ledger: spool.New[tables.LedgerEntry](nil)} // one entry per receipt, in receipt order
	var probs []rules.Finding
	a.bench = c.Manifest.Kind == rules.KindReviewerBenchmark
	a.limits, probs = manifestLimits(&c.Manifest)
	a.findings = append(a.findings, probs...)
	a.checkCurrencies()
	return a
}

// checkCurrencies refuses rate cards in more than one currency: campaign
// money ceilings would compare unlike amounts.
func (a *accountant) checkCurrencies() {
	cards := a.c.Manifest.RateCards
	for i := 1; i < len(cards); i++ {
		if cards[i].Currency != cards[0].Currency {
			a.findings = append(a.findings, rules.Finding{
				Code: rules.CodeCurrencyMixed, Severity: rules.Reject, File: manifestFile,
				Pointer: pointer("/rate_cards", i, "currency"),
				Message: "Rate card " + cards[i].ID + " is in " + cards[i].Currency + " but " + cards[0].ID + " is in " + cards[0].Currency + ".",
			})
		}
	}
}

// receipt accounts one line of receipts.jsonl.
func (a *accountant) receipt(line tables.Line[tables.Receipt]) {
	r := &line.Record
	entry := tables.LedgerEntry{
		Seq: int64(a.ledger.Len() + 1), SessionID: r.SessionID, RequestID: r.RequestID, Line: line.Line, Role: r.Role,
	}
	if r.Status == tables.StatusNotDispatched {
		entry.Kind = tables.LedgerReleased
		entry.ReferenceCost, entry.ActualCost, entry.ToolCharges = ptrMoney(0), ptrMoney(0), ptrMoney(0)
		a.ledger.Add(entry)
		return
	}
	a.wall.add(line)
	if a.bench && tables.RemoteRole(r.Role) {
		a.remoteEntry(line, &entry)
		a.ledger.Add(a.chargeOnce(line, entry))
		return
	}
	row, metered := a.tokenRow(line)
	res := a.reservation(line)
	a.fillEntry(&entry, r, &row, metered, res)
	if a.bench {
		benchmarkEntry(&entry, res)
	}
	entry = a.chargeOnce(line, entry)
	row.ReservationPresent = res != nil
	row.MeterComplete = metered && row.CostStatus != tables.CostUnsupportedModifier
	row.WithinCeilings = metered && a.sessionCeilings(line, &row, res)
	a.tokens.Add(row)
	a.ledger.Add(entry)
}

// fillEntry sets the ledger charge of a dispatched receipt: accounted for a
// metered terminal response or error, otherwise held at the larger of the
// reservation's worst case and whatever was metered.
func (a *accountant) fillEntry(e *tables.LedgerEntry, r *tables.Receipt, row *tables.Token, metered bool, res *reservation) {
	e.ToolCharges = row.ToolCharges
	terminal := r.Status == tables.StatusResponse || r.Status == tables.StatusError
	if terminal && metered {
		e.Kind = tables.LedgerAccounted
		e.InputTokens, e.OutputTokens = row.InputTotal, row.Output
		e.ReferenceCost, e.ActualCost = row.ReferenceCost, row.ActualCharge
		return
	}
	e.Kind = tables.LedgerHeld
	if metered {
		e.InputTokens, e.OutputTokens, e.ReferenceCost = row.InputTotal, row.Output, row.ReferenceCost
	}
	if res == nil {
		if !metered {
			e.ReferenceCost = nil
		}
		return
	}
	e.InputTokens = max(e.InputTokens, res.input)
	e.OutputTokens = max(e.OutputTokens, res.output)
	switch {
	case res.cost == nil:
		e.ReferenceCost = nil
	case e.ReferenceCost == nil && metered:
		// metered but unpriced: the charge stays unknown
	default:
		e.ReferenceCost = ptrMoney(max(*res.cost, derefOr(e.ReferenceCost, 0)))
	}
}

// chargeOnce returns e, or a replayed entry that charges nothing when the
// receipt's request ID was already charged.
func (a *accountant) chargeOnce(line tables.Line[tables.Receipt], e tables.LedgerEntry) tables.LedgerEntry {
	r := &line.Record
	if first, seen := a.charged[r.RequestID]; seen {
		a.replay(line, first)
		return tables.LedgerEntry{Seq: e.Seq, SessionID: r.SessionID, RequestID: r.RequestID,
			Kind: tables.LedgerReplayed, Line: line.Line, Role: r.Role}
	}
	a.charged[r.RequestID] = chargedRequest{session: r.SessionID, line: line.Line, bound: boundOf(r.Reservation)}
	return e
}

func derefOr(m *tables.Money, d tables.Money) tables.Money {
	if m == nil {
		return d
	}
	return *m
}

// add records a finding positioned in receipts.jsonl.
func (a *accountant) add(line tables.Line[tables.Receipt], code rules.Code, sev rules.Severity, ptr, msg string) {
	a.findings = append(a.findings, rules.Finding{
		Code: code, Severity: sev, File: receiptsFile, Pointer: ptr, Line: line.Line,
		Session: line.Record.SessionID, Message: msg,
	})
}

// chargedRequest is the first dispatched receipt of a request ID: the
// few facts a later receipt of the ID is compared with, held for every
// request ID of the campaign, so not the receipt's reservation itself.
type chargedRequest struct {
	session string
	line    int64
	bound   reservedBound
}

// reservedBound is the bound a reservation reserves; the zero value is no
// reservation.
type reservedBound struct {
	present                   bool
	inputTokens, outputTokens int64
	cost                      string
}

func boundOf(r *tables.Reservation) reservedBound {
	if r == nil {
		return reservedBound{}
	}
	return reservedBound{present: true, inputTokens: r.InputTokens, outputTokens: r.OutputTokens, cost: r.Cost}
}

// replay records a second receipt of an already charged request ID. The
// same request (same session, same reservation bound) is charged once and
// noted; a request ID reused for another session or another bound is a
// defect of the record.
func (a *accountant) replay(line tables.Line[tables.Receipt], first chargedRequest) {
	r := &line.Record
	if r.SessionID == first.session && boundOf(r.Reservation) == first.bound { // the same tokens and cost reserved, or both none
		a.add(line, rules.CodeLedgerRequestReplayed, rules.ClassOf(rules.CodeLedgerRequestReplayed).Severity(), "/request_id",
			"Request "+r.RequestID+" was already charged on an earlier receipt; it is not charged again.")
		return
	}
	a.add(line, rules.CodeRequestIDReused, rules.ClassOf(rules.CodeRequestIDReused).Severity(), "/request_id", fmt.Sprintf(
		"Request %s was already used on line %d by session %s; a request ID names one request of one session with one bound.", r.RequestID, first.line, first.session))
}
