package account

import (
	"fmt"
	"slices"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// Request is one dispatch a live runner asks `evalgate admit` to allow
// (A7): its identity, rate card, worst-case token bounds and the
// reservation it will be charged against.
type Request struct {
	RequestID       string
	SessionID       string
	RateCard        string
	MaxInputTokens  int64
	MaxOutputTokens int64
	ReservationID   string
	MeterShape      tables.UsageShape // the usage shape the session will report (tables.Shape*); its meter identity
}

// Verdict is the outcome of Admit.
type Verdict struct {
	Admitted bool
	Replay   bool          // the request ID is already in the ledger: admitted, not charged again
	Code     rules.Code    // refusal reason; "" when admitted
	Message  string        // one sentence
	Bound    *tables.Money // worst-case reference cost reserved; nil when refused before pricing or on replay
	Used     Allowance     // ledger use after the verdict (accounted + held + reserved)
}

// Admit decides whether req may be dispatched against the campaign's
// ledger (Run's Out.Ledger) and returns the verdict with the ledger after it (a new
// spool holding ledger's entries and the reserved one when one is charged; ledger is
// not changed). It refuses, with a typed reason, an
// incomplete request, a missing reservation or meter identity (an unknown
// usage shape), a reservation a receipt of another request already names,
// an unknown rate card or a card without uncached-input,
// cached-input or output price, an invalid ceiling or an unknown ledger
// charge, and any request whose worst-case bound does not
// fit what is left: per session (input, output) and per campaign (sessions,
// input, output, reference cost, actual cost). Ceilings are inclusive:
// landing exactly on one is admitted. The bound prices every input token at
// the card's dearest input bucket and every output token at the output
// price. An admitted request is appended to the ledger as a reserved entry;
// a request ID already in the ledger is admitted again without a second
// charge. Wall time cannot be bounded before dispatch and is not checked.
func Admit(c *tables.Campaign, ledger *spool.Spool[tables.LedgerEntry], req Request) (Verdict, *spool.Spool[tables.LedgerEntry]) {
	v, entry := admit(c, ledger, req)
	if entry != nil {
		after := spool.New[tables.LedgerEntry](nil)
		for e := range ledger.All() {
			after.Add(e)
		}
		after.Add(*entry)
		after.Compact()
		ledger = after
		v.Used = Summarize(ledger).Used
	}
	return v, ledger
}

// admit is Admit's verdict and the reserved entry to append, nil when
// nothing is charged.
func admit(c *tables.Campaign, ledger *spool.Spool[tables.LedgerEntry], req Request) (Verdict, *tables.LedgerEntry) {
	used := Summarize(ledger).Used
	refuse := func(code rules.Code, msg string) (Verdict, *tables.LedgerEntry) {
		return Verdict{Code: code, Message: msg, Used: used}, nil
	}
	if req.RequestID == "" || req.SessionID == "" || req.MaxInputTokens < 0 || req.MaxOutputTokens < 0 ||
		req.MaxInputTokens > maxTokens || req.MaxOutputTokens > maxTokens {
		return refuse(rules.CodeAdmissionInvalidRequest, "The request lacks a request or session ID or has negative or absurd token bounds.")
	}
	for e := range ledger.All() {
		if e.RequestID != req.RequestID || !chargesBudget(e.Kind) {
			continue
		}
		if !sameRequest(c, e, req) {
			return refuse(rules.CodeAdmissionRequestReused, fmt.Sprintf(
				"Request %s is already in the ledger for session %s with another bound or session; a replay must repeat the same request.", req.RequestID, e.SessionID))
		}
		return Verdict{Admitted: true, Replay: true, Used: used,
			Message: "Request " + req.RequestID + " is already in the ledger; it is admitted without a second charge."}, nil
	}
	if req.ReservationID == "" {
		return refuse(rules.CodeAdmissionNoReservation, "The request has no reservation identity.")
	}
	if line, other, ok := reservationNamed(c, req); ok {
		return refuse(rules.CodeAdmissionReservationReused, fmt.Sprintf(
			"Reservation %s is already named on line %d of receipts.jsonl by request %s; every dispatch is admitted under a reservation of its own.", req.ReservationID, line, other))
	}
	if !slices.Contains(tables.UsageShapes(), req.MeterShape) {
		return refuse(rules.CodeAdmissionMissingMeter, fmt.Sprintf("Meter shape %q is not an accepted usage shape, so the session's tokens could not be metered.", req.MeterShape))
	}
	card, ok := tariffs(&c.Manifest)[req.RateCard]
	if !ok {
		return refuse(rules.CodeAdmissionUnknownCard, fmt.Sprintf("Rate card %q is not defined by the manifest.", req.RateCard))
	}
	bound, code, msg := admissionBound(card, req)
	if code != "" {
		return refuse(code, msg)
	}
	lim, problems := manifestLimits(&c.Manifest)
	if len(problems) > 0 {
		return refuse(rules.CodeAdmissionInvalidCeiling, problems[0].Message)
	}
	if code, msg := checkFit(lim, used, req, bound); code != "" {
		return refuse(code, msg)
	}
	entry := tables.LedgerEntry{
		Seq: int64(ledger.Len() + 1), SessionID: req.SessionID, RequestID: req.RequestID, Kind: tables.LedgerReserved,
		InputTokens: req.MaxInputTokens, OutputTokens: req.MaxOutputTokens, ReferenceCost: ptrMoney(bound),
		ToolCharges: ptrMoney(0),
	}
	return Verdict{Admitted: true, Bound: ptrMoney(bound),
		Message: "Request " + req.RequestID + " is admitted with a worst-case bound of " + tables.Money(bound).String() + "."}, &entry
}

// reservationNamed finds a dispatched receipt of another request naming
// req's reservation ID (the receipts' rule: reservedOnce).
func reservationNamed(c *tables.Campaign, req Request) (line int64, request string, ok bool) {
	for l := range c.Receipts.All() {
		r := &l.Record
		if r.Status != tables.StatusNotDispatched && r.Reservation != nil && r.Reservation.ID == req.ReservationID && r.RequestID != req.RequestID {
			return l.Line, r.RequestID, true
		}
	}
	return 0, "", false
}

// sameRequest reports whether req repeats the request of ledger entry e:
// the same session and the same worst-case token bound (for an entry of a
// receipt, the bound of its reservation).
func sameRequest(c *tables.Campaign, e tables.LedgerEntry, req Request) bool {
	if e.SessionID != req.SessionID {
		return false
	}
	if e.Kind == tables.LedgerReserved {
		return e.InputTokens == req.MaxInputTokens && e.OutputTokens == req.MaxOutputTokens
	}
	for l := range c.Receipts.All() {
		if l.Line == e.Line {
			res := l.Record.Reservation
			return res != nil && res.InputTokens == req.MaxInputTokens && res.OutputTokens == req.MaxOutputTokens
		}
	}
	return false
}

// chargesBudget reports whether a ledger entry of kind k charges the
// campaign (and so makes its request ID a replay).
func chargesBudget(k string) bool {
	return k == tables.LedgerAccounted || k == tables.LedgerHeld || k == tables.LedgerReserved
}

// admissionBound is the request's worst-case reference cost.
func admissionBound(card Tariff, req Request) (tables.Money, rules.Code, string) {
	in, out := card.worstInputPrice(), card.Output
	// Every accepted meter shape can report cached input, so an unpriced
	// cached bucket leaves the worst case unbounded (rule A2 prices
	// uncached, cached and output).
	if in == nil || out == nil || card.CachedInput == nil {
		return 0, rules.CodeAdmissionMissingTariff, "Rate card " + card.ID + " has no valid uncached-input, cached-input or output price."
	}
	ci, ok1 := mulChecked(req.MaxInputTokens, *in)
	co, ok2 := mulChecked(req.MaxOutputTokens, *out)
	total, ok3 := addChecked(ci, co)
	if !ok1 || !ok2 || !ok3 {
		return 0, rules.CodeAdmissionInvalidRequest, "The request's worst-case cost does not fit in 64 bits."
	}
	return tables.Money(total), "", ""
}

// checkFit refuses a request whose bound does not fit a remaining ceiling.
func checkFit(lim limits, used Allowance, req Request, bound tables.Money) (rules.Code, string) {
	if used.ReferenceCost == nil || used.ActualCost == nil {
		return rules.CodeAdmissionInvalidCeiling, "The ledger holds a charge of unknown cost, so no remaining allowance can be shown."
	}
	checks := []struct {
		code          rules.Code
		what          string
		used, request int64
		ceiling       *int64
	}{
		{rules.CodeCeilingSessionInput, "session input tokens", 0, req.MaxInputTokens, lim.sessionInput},
		{rules.CodeCeilingSessionOutput, "session output tokens", 0, req.MaxOutputTokens, lim.sessionOutput},
		{rules.CodeCeilingTotalSessions, "campaign sessions", used.Sessions, 1, lim.total},
		{rules.CodeCeilingCampaignInput, "campaign input tokens", used.InputTokens, req.MaxInputTokens, lim.campaignInput},
		{rules.CodeCeilingCampaignOutput, "campaign output tokens", used.OutputTokens, req.MaxOutputTokens, lim.campaignOutput},
		{rules.CodeCeilingReferenceCost, "campaign reference cost (pico-units)", int64(*used.ReferenceCost), int64(bound), (*int64)(lim.referenceCost)},
		{rules.CodeCeilingActualCost, "campaign actual cost (pico-units)", int64(*used.ActualCost), int64(bound), (*int64)(lim.actualCost)},
	}
	for _, c := range checks {
		after := saturatingAdd(c.used, c.request)
		if exceeds(after, c.ceiling) {
			return c.code, fmt.Sprintf("Admitting would bring %s to %d, above the ceiling %d.", c.what, after, *c.ceiling)
		}
	}
	return "", ""
}
