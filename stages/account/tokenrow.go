package account

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// tokenRow builds the Token row of a dispatched receipt. metered reports
// whether its meter decoded into trustworthy buckets.
func (a *accountant) tokenRow(line tables.Line[tables.Receipt]) (tables.Token, bool) {
	r := &line.Record
	row := tables.Token{
		SessionID: r.SessionID, RequestID: r.RequestID, Line: line.Line,
		BillingBasis: r.Billing.Basis, CostStatus: tables.CostPriced,
	}
	var durationOK, validationOK bool
	row.DurationNS, durationOK = a.duration(line)
	row.ValidationNS, validationOK = a.validationNS(line)
	row.TimesConsistent = durationOK && validationOK
	metered := a.meter(line, &row)
	a.tools(line, &row)
	row.ActualCharge = a.actualCharge(line)
	return row, metered
}

// meter decodes and prices the receipt's meter into row.
func (a *accountant) meter(line tables.Line[tables.Receipt], row *tables.Token) bool {
	m := line.Record.Meter
	if m == nil {
		row.CostStatus = tables.CostMissingMeter
		a.add(line, rules.CodeMeterMissing, rules.Warn, "/meter",
			"The dispatched session has no meter: its charge is held and the cost gate cannot pass.")
		return false
	}
	row.Shape, row.RateCard = m.Shape, m.RateCard
	b, problems := DecodeMeter(m.Shape, m.Usage)
	invalid, modifier := false, false
	for _, p := range problems {
		ptr := "/meter/usage" + p.Pointer
		sev := rules.Reject
		if p.Code == rules.CodeMeterUnknownShape {
			ptr = "/meter/shape"
		}
		if !p.Invalid() {
			sev, modifier = rules.Warn, true
		} else {
			invalid = true
		}
		a.add(line, p.Code, sev, ptr, p.Message)
	}
	if invalid {
		row.CostStatus = tables.CostInvalidMeter
		return false
	}
	row.UncachedInput, row.CachedInput = b.UncachedInput, b.CachedInput
	row.CacheWrite5m, row.CacheWrite1h = b.CacheWrite5m, b.CacheWrite1h
	row.Output, row.Reasoning, row.InputTotal = b.Output, b.Reasoning, b.Input()
	card, known := a.cards[m.RateCard]
	switch {
	case !known:
		row.CostStatus = tables.CostUnknownRateCard
		a.add(line, rules.CodeRateCardUnknown, rules.Reject, "/meter/rate_card",
			fmt.Sprintf("The meter names rate card %q, which the manifest does not define.", m.RateCard))
	case modifier:
		row.Currency = card.Currency
		row.CostStatus = tables.CostUnsupportedModifier
	default:
		row.Currency = card.Currency
		a.price(line, row, b, card)
	}
	return true
}

// price sets the exact reference cost of b under card.
func (a *accountant) price(line tables.Line[tables.Receipt], row *tables.Token, b Buckets, card Tariff) {
	p := PriceOf(b, card)
	switch {
	case p.Overflow:
		row.CostStatus = tables.CostInvalidMeter
		a.add(line, rules.CodeMoneyOverflow, rules.Reject, "/meter", "The session's reference cost does not fit in 64 bits.")
	case p.Cost == nil:
		row.CostStatus = tables.CostMissingTariff
		a.add(line, rules.CodeTariffMissing, rules.Warn, "/meter/rate_card",
			fmt.Sprintf("Rate card %s has no price for %s, which has tokens: the cost is unknown.", card.ID, strings.Join(p.Unpriced, ", ")))
	default:
		row.ReferenceCost = p.Cost
	}
}

// tools sums tool-call tokens and charges. One unattributable (null)
// charge makes the sum null, never zero; no calls is an exact zero.
func (a *accountant) tools(line tables.Line[tables.Receipt], row *tables.Token) {
	charges := zeroAmount // summed as a value, made a pointer once
	for i, call := range line.Record.ToolCalls {
		if call.InputTokens < 0 || call.OutputTokens < 0 || call.InputTokens > maxTokens || call.OutputTokens > maxTokens {
			a.add(line, rules.CodeToolTokensInvalid, rules.Reject, toolCallPointer(i), "The tool call's token counts are negative or beyond 10^15.")
		} else {
			row.ToolInput += call.InputTokens // ≤ 4096 calls × 10^15 cannot overflow
			row.ToolOutput += call.OutputTokens
		}
		if call.Charge == nil {
			charges = amount{}
			continue
		}
		m, err := tables.ParseMoney(*call.Charge)
		if err != nil {
			a.add(line, rules.CodeToolChargeInvalid, rules.Reject, toolCallPointer(i)+"/charge", "The tool call's charge is not an exact non-negative decimal.")
			charges = amount{}
			continue
		}
		if charges.known { // once null, the sum stays null without an overflow finding
			if charges = charges.plus(amount{v: int64(m), known: true}); !charges.known {
				a.add(line, rules.CodeMoneyOverflow, rules.Reject, toolCallPointer(i)+"/charge", "The session's tool charges do not fit in 64 bits.")
			}
		}
	}
	row.ToolCharges = charges.ptr()
}

// toolCallPointer is the JSON pointer of a receipt's i-th tool call.
func toolCallPointer(i int) string { return "/tool_calls/" + strconv.Itoa(i) }

// actualCharge returns the attributable actual charge (A3): parsed for
// basis actual, null otherwise. Unavailable billing is null, never zero.
func (a *accountant) actualCharge(line tables.Line[tables.Receipt]) *tables.Money {
	b := line.Record.Billing
	switch b.Basis {
	case tables.BillingActual:
		if b.ActualCharge == nil {
			a.add(line, rules.CodeActualChargeMissing, rules.Reject, "/billing/actual_charge", "The billing basis is actual but actual_charge is null.")
			return nil
		}
		m, err := tables.ParseMoney(*b.ActualCharge)
		if err != nil {
			a.add(line, rules.CodeActualChargeInvalid, rules.Reject, "/billing/actual_charge", "actual_charge is not an exact non-negative decimal.")
			return nil
		}
		return &m
	case tables.BillingReference, tables.BillingUnavailable:
		if b.ActualCharge != nil {
			a.add(line, rules.CodeActualChargeUnexpected, rules.Reject, "/billing/actual_charge",
				"The billing basis is "+b.Basis+" but an actual_charge is given.")
		}
	default:
		a.add(line, rules.CodeBillingBasisUnknown, rules.Reject, "/billing/basis",
			fmt.Sprintf("Billing basis %q is not reference, actual or unavailable.", b.Basis))
	}
	return nil
}

// duration is monotonic end − start when both are given, else UTC end −
// start; nil without an end. It reports whether the times are consistent:
// a session that ends before it starts (on either clock) is a finding.
func (a *accountant) duration(line tables.Line[tables.Receipt]) (*int64, bool) {
	r := &line.Record
	var d int64
	switch {
	case r.MonotonicStartNS != nil && r.MonotonicEndNS != nil:
		s, e := *r.MonotonicStartNS, *r.MonotonicEndNS
		if e < s || (s < 0 && e > math.MaxInt64+s) {
			d = -1 // reversed, or a span beyond int64
		} else {
			d = e - s
		}
		if r.EndedAt != nil && r.EndedAt.Before(r.StartedAt) {
			d = -1 // the UTC clock runs backwards even if the monotonic one does not
		}
	case r.EndedAt != nil:
		var exact bool
		if d, exact = exactSpan(r.StartedAt, *r.EndedAt); !exact {
			d = -1 // a span beyond int64, which Sub saturates
		}
	default:
		return nil, true
	}
	if d < 0 {
		a.add(line, rules.CodeSessionTimeInvalid, rules.Reject, "/ended_at", "The session ends before it starts, or its span does not fit in int64 nanoseconds.")
		return nil, false
	}
	return &d, true
}

func (a *accountant) validationNS(line tables.Line[tables.Receipt]) (int64, bool) {
	ms := line.Record.ValidationMS
	if ms < 0 || ms > math.MaxInt64/1_000_000 {
		a.add(line, rules.CodeSessionTimeInvalid, rules.Reject, "/validation_ms", "validation_ms is negative or out of range.")
		return 0, false
	}
	return ms * 1_000_000, true
}

// reservation is a receipt's parsed reservation.
type reservation struct {
	id            string
	input, output int64
	cost          *tables.Money // nil when the cost does not parse, else &parsedCost
	parsedCost    tables.Money  // held here, so that cost is not an allocation of its own
}

// reservation checks that a dispatched receipt reserved its bound before
// dispatch (A7) and parses it.
func (a *accountant) reservation(line tables.Line[tables.Receipt]) *reservation {
	res := line.Record.Reservation
	if res == nil || res.ID == "" {
		a.add(line, rules.CodeReservationMissing, rules.Reject, "/reservation",
			"The dispatched session has no reservation made before dispatch.")
		return nil
	}
	a.reservations.note(line)
	out := &reservation{id: res.ID, input: res.InputTokens, output: res.OutputTokens}
	if res.InputTokens < 0 || res.OutputTokens < 0 {
		a.add(line, rules.CodeReservationInvalid, rules.Reject, "/reservation", "The reservation's token bounds are negative.")
		out.input, out.output = max(out.input, 0), max(out.output, 0)
	}
	if m, err := tables.ParseMoney(res.Cost); err == nil {
		out.parsedCost = m
		out.cost = &out.parsedCost
	} else {
		a.add(line, rules.CodeReservationInvalid, rules.Reject, "/reservation/cost", "The reservation's cost is not an exact non-negative decimal.")
	}
	return out
}
