package account

import (
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

func runOn(c *tables.Campaign) *tables.Set {
	out := Run(c)
	return &tables.Set{Tokens: out.Tokens, Ledger: out.Ledger, Rejections: out.Findings}
}

func TestRunPricedSession(t *testing.T) {
	// 20,000 uncached + 2,000 output on the Codex card: 0.08 + 0.04 = 0.12.
	s := runOn(testCampaign(receipt("T1-r1-D", tables.ShapeNormalized, normalized(20_000, 0, 0, 0, 2_000, 500))))
	if len(s.Rejections) != 0 {
		t.Fatalf("findings: %v", s.Rejections)
	}
	tok := s.Tokens.Collect()[0]
	if tok.CostStatus != tables.CostPriced || tok.ReferenceCost == nil || tok.ReferenceCost.String() != "0.12" {
		t.Errorf("token = %+v", tok)
	}
	if tok.InputTotal != 20_000 || tok.Currency != "USD" || *tok.DurationNS != int64(time.Minute) || !tok.WithinCeilings {
		t.Errorf("token = %+v", tok)
	}
	if tok.ToolCharges == nil || *tok.ToolCharges != 0 || tok.ActualCharge != nil {
		t.Errorf("no tool calls must be an exact 0 and unavailable billing null: %+v", tok)
	}
	want := tables.LedgerEntry{Seq: 1, SessionID: "T1-r1-D", RequestID: "req-T1-r1-D", Kind: tables.LedgerAccounted,
		InputTokens: 20_000, OutputTokens: 2_000, Line: 1, Role: tables.RoleReview} // the test receipt's role
	got := s.Ledger.Collect()[0]
	if got.ReferenceCost == nil || got.ReferenceCost.String() != "0.12" {
		t.Errorf("ledger cost = %v", got.ReferenceCost)
	}
	got.ReferenceCost, got.ToolCharges = nil, nil
	if got != want {
		t.Errorf("ledger = %+v, want %+v", got, want)
	}
}

// Each variant breaks one thing about an otherwise priced receipt.
func TestRunCostStatus(t *testing.T) {
	ok := normalized(1000, 0, 0, 0, 100, 0)
	cases := []struct {
		name   string
		edit   func(r *tables.Receipt)
		status string
		kind   string
		code   rules.Code
		sev    rules.Severity
		ptr    string
	}{
		{"missing meter on a response", func(r *tables.Receipt) { r.Meter = nil },
			tables.CostMissingMeter, tables.LedgerHeld, rules.CodeMeterMissing, rules.Warn, "/meter"},
		{"interruption without meter", func(r *tables.Receipt) { r.Meter, r.Status = nil, tables.StatusInterruption },
			tables.CostMissingMeter, tables.LedgerHeld, rules.CodeMeterMissing, rules.Warn, "/meter"},
		{"impossible meter", func(r *tables.Receipt) { r.Meter.Usage = []byte(normalized(1, 0, 0, 0, 1, 2)) },
			tables.CostInvalidMeter, tables.LedgerHeld, rules.CodeMeterReasoningExceedsOut, rules.Reject, "/meter/usage/reasoning"},
		{"unknown shape", func(r *tables.Receipt) { r.Meter.Shape = "openai.legacy" },
			tables.CostInvalidMeter, tables.LedgerHeld, rules.CodeMeterUnknownShape, rules.Reject, "/meter/shape"},
		{"unknown rate card", func(r *tables.Receipt) { r.Meter.RateCard = "gpt-9" },
			tables.CostUnknownRateCard, tables.LedgerAccounted, rules.CodeRateCardUnknown, rules.Reject, "/meter/rate_card"},
		{"missing tariff", func(r *tables.Receipt) { r.Meter.Usage = []byte(normalized(1000, 0, 5, 0, 100, 0)) },
			tables.CostMissingTariff, tables.LedgerAccounted, rules.CodeTariffMissing, rules.Warn, "/meter/rate_card"},
		{"unsupported modifier", func(r *tables.Receipt) {
			r.Meter.Shape = tables.ShapeAnthropic
			r.Meter.Usage = []byte(`{"input_tokens":5,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"service_tier":"priority"}`)
		}, tables.CostUnsupportedModifier, tables.LedgerAccounted, rules.CodeMeterUnsupportedModifier, rules.Warn, "/meter/usage/service_tier"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := receipt("T1-r1-A", tables.ShapeNormalized, ok)
			tc.edit(&r)
			s := runOn(testCampaign(r))
			if s.Tokens.Len() != 1 || s.Tokens.Collect()[0].CostStatus != tc.status || s.Tokens.Collect()[0].ReferenceCost != nil || s.Tokens.Collect()[0].WithinCeilings {
				t.Fatalf("tokens = %+v, want status %s, null cost, not within ceilings", s.Tokens, tc.status)
			}
			if s.Ledger.Collect()[0].Kind != tc.kind {
				t.Errorf("ledger kind = %s, want %s", s.Ledger.Collect()[0].Kind, tc.kind)
			}
			f := s.Rejections[0]
			if f.Code != tc.code || f.Severity != tc.sev || f.Pointer != tc.ptr || f.File != receiptsFile || f.Line != 1 || f.Session != "T1-r1-A" {
				t.Errorf("finding = %+v, want %s %s at %s", f, tc.code, tc.sev, tc.ptr)
			}
			// An unknown charge makes the campaign reference cost unknown,
			// except a held entry whose reservation bounds it.
			if tc.kind == tables.LedgerAccounted && !hasCode(s.Rejections, rules.CodeCampaignCostUnknown) {
				t.Errorf("findings %v lack campaign_cost_unknown", codes(s.Rejections))
			}
		})
	}
}

func TestRunHeldAtReservation(t *testing.T) {
	r := receipt("T1-r1-B", tables.ShapeNormalized, "")
	r.Meter, r.Status = nil, tables.StatusInterruption
	s := runOn(testCampaign(r))
	e := s.Ledger.Collect()[0]
	if e.Kind != tables.LedgerHeld || e.InputTokens != 90_000 || e.OutputTokens != 8_000 || e.ReferenceCost == nil || e.ReferenceCost.String() != "0.52" {
		t.Errorf("held entry = %+v, want the reservation's 90000/8000/0.52", e)
	}
	sum := Summarize(s.Ledger)
	if sum.Held.Sessions != 1 || sum.Accounted.Sessions != 0 || sum.Used.ActualCost.String() != "0.52" {
		t.Errorf("summary = %+v", sum)
	}
}

func TestRunLedgerOrderAndReplay(t *testing.T) {
	u := normalized(1000, 0, 0, 0, 100, 0)
	d := receipt("T1-r1-D", tables.ShapeNormalized, u)
	b := receipt("T1-r1-B", tables.ShapeNormalized, u)
	a := receipt("T1-r1-A", tables.ShapeNormalized, u)
	nd := receipt("T1-r2-A", tables.ShapeNormalized, u)
	nd.Status, nd.Meter, nd.Reservation = tables.StatusNotDispatched, nil, nil
	replay := receipt("T1-r1-A-copy", tables.ShapeNormalized, u)
	replay.RequestID = a.RequestID
	s := runOn(testCampaign(d, b, a, nd, replay))
	var ids []string
	for _, tok := range s.Tokens.Collect() {
		ids = append(ids, tok.SessionID)
	}
	if want := []string{"T1-r1-A", "T1-r1-A-copy", "T1-r1-B", "T1-r1-D"}; !equal(ids, want) {
		t.Errorf("token order = %v, want %v (no row for the not_dispatched receipt)", ids, want)
	}
	var kinds []string
	for i, e := range s.Ledger.Collect() {
		kinds = append(kinds, e.Kind)
		if e.Seq != int64(i+1) || e.Line != int64(i+1) {
			t.Errorf("entry %d: seq %d line %d", i, e.Seq, e.Line)
		}
	}
	if want := []string{"accounted", "accounted", "accounted", "released", "replayed"}; !equal(kinds, want) {
		t.Errorf("ledger kinds = %v, want %v", kinds, want)
	}
	// Charged once: 3 × (4×1000 + 20×100)/10^6 = 3 × 0.006 = 0.018.
	if got := Summarize(s.Ledger).Used; got.Sessions != 3 || got.ReferenceCost.String() != "0.018" {
		t.Errorf("used = %+v, want 3 sessions and 0.018", got)
	}
	// The copy reuses the request ID for another session: charged once,
	// and a defect of the record.
	if !hasCode(s.Rejections, rules.CodeRequestIDReused) || hasCode(s.Rejections, rules.CodeLedgerRequestReplayed) {
		t.Errorf("findings %v: want request_id_reused, not ledger_request_replayed", codes(s.Rejections))
	}
}

// TestRunReplayOfTheSameRequest: a second receipt of the same request (same
// request ID, session and reservation bound) is charged once and only noted;
// the same request ID with another bound is refused with its own code.
func TestRunReplayOfTheSameRequest(t *testing.T) {
	u := normalized(1000, 0, 0, 0, 100, 0)
	a := receipt("T1-r1-A", tables.ShapeNormalized, u)
	same := receipt("T1-r1-A", tables.ShapeNormalized, u)
	s := runOn(testCampaign(a, same))
	if !hasCode(s.Rejections, rules.CodeLedgerRequestReplayed) || hasCode(s.Rejections, rules.CodeRequestIDReused) {
		t.Errorf("same request: findings %v, want only ledger_request_replayed", codes(s.Rejections))
	}
	for _, f := range s.Rejections {
		if f.Code == rules.CodeLedgerRequestReplayed && f.Severity != rules.Warn {
			t.Errorf("a replay of the same request is a note, got %s", f.Severity)
		}
	}
	other := receipt("T1-r1-A", tables.ShapeNormalized, u)
	res := *other.Reservation
	res.OutputTokens++
	other.Reservation = &res
	s = runOn(testCampaign(a, other))
	if !hasCode(s.Rejections, rules.CodeRequestIDReused) {
		t.Errorf("another bound: findings %v lack request_id_reused", codes(s.Rejections))
	}
}

// TestRunReservationReused: a reservation named by two dispatched
// receipts of different requests is a defect of the record, positioned at
// the second; the replay of one request, which repeats its reservation,
// is not; nor are reservations of not_dispatched receipts (released).
func TestRunReservationReused(t *testing.T) {
	u := normalized(1000, 0, 0, 0, 100, 0)
	a := receipt("T1-r1-A", tables.ShapeNormalized, u)
	b := receipt("T1-r1-B", tables.ShapeNormalized, u)
	b.Reservation = &tables.Reservation{ID: a.Reservation.ID, InputTokens: 90_000, OutputTokens: 8_000, Cost: "0.52"}
	s := runOn(testCampaign(a, b))
	var got []rules.Finding
	for _, f := range s.Rejections {
		if f.Code == rules.CodeReservationReused {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Line != 2 || got[0].Pointer != "/reservation/id" || got[0].Severity != rules.Reject ||
		!strings.Contains(got[0].Message, "res-T1-r1-A was already named on line 1 by request req-T1-r1-A") {
		t.Errorf("findings %+v: want one reservation_reused rejection on line 2 naming line 1", s.Rejections)
	}

	same := receipt("T1-r1-A", tables.ShapeNormalized, u) // the same request again
	if s := runOn(testCampaign(a, same)); hasCode(s.Rejections, rules.CodeReservationReused) {
		t.Errorf("a replay of one request: findings %v, want no reservation_reused", codes(s.Rejections))
	}
	nd := receipt("T1-r1-B", tables.ShapeNormalized, u)
	nd.Status, nd.Meter, nd.Reservation = tables.StatusNotDispatched, nil, &tables.Reservation{ID: a.Reservation.ID, InputTokens: 1, OutputTokens: 1, Cost: "0"}
	if s := runOn(testCampaign(a, nd)); hasCode(s.Rejections, rules.CodeReservationReused) {
		t.Errorf("a not_dispatched receipt: findings %v, want no reservation_reused", codes(s.Rejections))
	}
}

// TestReservationIDsCollisions: with every ID hashed alike, the exact
// comparison still decides. Lines 1 and 2 name different reservations (no
// finding); line 3 names line 2's for another request (found, naming line
// 2, not line 1, the first of the hash); line 4 replays line 1's request.
func TestReservationIDsCollisions(t *testing.T) {
	u := normalized(1000, 0, 0, 0, 100, 0)
	rs := []tables.Receipt{receipt("T1-r1-A", tables.ShapeNormalized, u), receipt("T1-r1-B", tables.ShapeNormalized, u),
		receipt("T1-r2-A", tables.ShapeNormalized, u), receipt("T1-r1-A", tables.ShapeNormalized, u)}
	rs[2].Reservation = &tables.Reservation{ID: rs[1].Reservation.ID}
	c := testCampaign(rs...)
	s := newReservationIDs(len(rs))
	s.hash = func(string) uint64 { return 7 }
	for l := range c.Receipts.All() {
		s.note(l)
	}
	got := s.reused(c)
	if len(got) != 1 || got[0].Line != 3 || got[0].Session != "T1-r2-A" ||
		got[0].Message != "Reservation res-T1-r1-B was already named on line 2 by request req-T1-r1-B; every dispatch is admitted under a reservation of its own." {
		t.Errorf("findings %+v: want one reservation_reused on line 3 naming line 2", got)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRunToolsAndBilling(t *testing.T) {
	cases := []struct {
		name      string
		calls     []tables.ToolCall
		billing   tables.Billing
		tools     string // "" = null
		actual    string // "" = null
		code      rules.Code
		wantNoErr bool
	}{
		{"mcp and ordinary charges summed", []tables.ToolCall{
			{Kind: "mcp", Name: "find", InputTokens: 10, OutputTokens: 20, Charge: strp("0.01")},
			{Kind: "ordinary", Name: "read", InputTokens: 1, OutputTokens: 2, Charge: strp("0.002")},
		}, tables.Billing{Basis: tables.BillingUnavailable}, "0.012", "", "", true},
		{"unattributable charge is null not zero", []tables.ToolCall{
			{Kind: "mcp", Name: "find", Charge: strp("0.01")}, {Kind: "mcp", Name: "x", Charge: nil},
		}, tables.Billing{Basis: tables.BillingUnavailable}, "", "", "", true},
		{"actual billing", nil, tables.Billing{Basis: tables.BillingActual, ActualCharge: strp("0.15")}, "0.00", "0.15", "", true},
		{"actual basis without charge", nil, tables.Billing{Basis: tables.BillingActual}, "0.00", "", rules.CodeActualChargeMissing, false},
		{"reference basis with a charge", nil, tables.Billing{Basis: tables.BillingReference, ActualCharge: strp("1")}, "0.00", "", rules.CodeActualChargeUnexpected, false},
		{"negative tool tokens", []tables.ToolCall{{Kind: "mcp", InputTokens: -1, Charge: strp("0")}},
			tables.Billing{Basis: tables.BillingUnavailable}, "0.00", "", rules.CodeToolTokensInvalid, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := receipt("T1-r1-A", tables.ShapeNormalized, normalized(1000, 0, 0, 0, 100, 0))
			r.ToolCalls, r.Billing = tc.calls, tc.billing
			s := runOn(testCampaign(r))
			tok := s.Tokens.Collect()[0]
			if moneyText(tok.ToolCharges) != orUnknown(tc.tools) || moneyText(tok.ActualCharge) != orUnknown(tc.actual) {
				t.Errorf("tool charges %s, actual %s; want %s, %s", moneyText(tok.ToolCharges), moneyText(tok.ActualCharge), orUnknown(tc.tools), orUnknown(tc.actual))
			}
			if tc.wantNoErr && len(s.Rejections) != 0 && !hasCode(s.Rejections, rules.CodeCampaignCostUnknown) {
				t.Errorf("findings %v", s.Rejections)
			}
			if tc.code != "" && !hasCode(s.Rejections, tc.code) {
				t.Errorf("findings %v lack %s", codes(s.Rejections), tc.code)
			}
		})
	}
	t.Run("tool tokens summed", func(t *testing.T) {
		r := receipt("T1-r1-A", tables.ShapeNormalized, normalized(1000, 0, 0, 0, 100, 0))
		r.ToolCalls = []tables.ToolCall{{InputTokens: 10, OutputTokens: 20, Charge: strp("0")}, {InputTokens: 1, OutputTokens: 2, Charge: strp("0")}}
		if tok := runOn(testCampaign(r)).Tokens.Collect()[0]; tok.ToolInput != 11 || tok.ToolOutput != 22 {
			t.Errorf("tool tokens %d/%d, want 11/22", tok.ToolInput, tok.ToolOutput)
		}
	})
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func TestRunReservations(t *testing.T) {
	t.Run("missing", func(t *testing.T) {
		r := receipt("T1-r1-A", tables.ShapeNormalized, normalized(1000, 0, 0, 0, 100, 0))
		r.Reservation = nil
		s := runOn(testCampaign(r))
		if !hasCode(s.Rejections, rules.CodeReservationMissing) || s.Tokens.Collect()[0].WithinCeilings {
			t.Errorf("findings %v, token %+v", codes(s.Rejections), s.Tokens.Collect()[0])
		}
	})
	// Reservation 0.52: 4×90,000 + 20×8,000 = 0.36 + 0.16 = 0.52 exactly is within.
	for _, tc := range []struct {
		name    string
		in, out int64
		over    bool
	}{
		{"at the reserved bound", 90_000, 8_000, false},
		{"one input token over", 90_001, 8_000, true},
		{"one output token over", 90_000, 8_001, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := receipt("T1-r1-A", tables.ShapeNormalized, normalized(tc.in, 0, 0, 0, tc.out, 0))
			c := testCampaign(r)
			c.Manifest.Ceilings.Session = tables.SessionCeilings{WallMS: 240_000, InputTokens: 100_000, OutputTokens: 10_000}
			s := runOn(c)
			if got := hasCode(s.Rejections, rules.CodeReservationExceeded); got != tc.over {
				t.Errorf("reservation_exceeded = %v, want %v (%v)", got, tc.over, codes(s.Rejections))
			}
			if s.Tokens.Collect()[0].WithinCeilings == tc.over {
				t.Errorf("within ceilings = %v", s.Tokens.Collect()[0].WithinCeilings)
			}
		})
	}
}
