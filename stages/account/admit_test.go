package account

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// admitSet runs ceilingCampaign's first session only: the ledger holds
// 1 accounted session, 1,000 in / 100 out, reference 0.006, actual 0.01.
func admitSet(t *testing.T) (*tables.Campaign, *tables.Set) {
	t.Helper()
	c := ceilingCampaign()
	c.EditReceipts(func(rs []tables.Line[tables.Receipt]) []tables.Line[tables.Receipt] { return rs[:1] })
	s := runOn(c)
	if len(s.Rejections) != 0 {
		t.Fatalf("setup findings: %v", s.Rejections)
	}
	return c, s
}

// admitInto is Admit on s.Ledger, keeping the ledger after it in s.
func admitInto(c *tables.Campaign, s *tables.Set, r Request) Verdict {
	v, ledger := Admit(c, s.Ledger, r)
	s.Ledger = ledger
	return v
}

func request() Request {
	return Request{RequestID: "req-next", SessionID: "T1-r1-B", RateCard: "codex-2026-09-05",
		MaxInputTokens: 50_000, MaxOutputTokens: 5_000, ReservationID: "res-next",
		MeterShape: tables.ShapeOpenAIResponses}
}

// The worst-case bound of request() on the Codex card prices input at the
// dearest input bucket (4 > 0.40): 50,000 × 4 + 5,000 × 20 per million
// = 0.2 + 0.1 = 0.3 = 300,000,000,000 pico.
const requestBound = 50_000*4_000_000 + 5_000*20_000_000

// For every ceiling Admit checks: a remaining allowance just below the
// request's bound refuses it; exactly at it and just above admit it (C18).
func TestAdmitCeilings(t *testing.T) {
	cases := []struct {
		name   string
		code   rules.Code
		needed int64 // used + requested: the smallest ceiling that admits
		set    func(c *tables.Ceilings, v int64)
	}{
		{"session input", rules.CodeCeilingSessionInput, 50_000, func(c *tables.Ceilings, v int64) { c.Session.InputTokens = v }},
		{"session output", rules.CodeCeilingSessionOutput, 5_000, func(c *tables.Ceilings, v int64) { c.Session.OutputTokens = v }},
		{"total sessions", rules.CodeCeilingTotalSessions, 2, func(c *tables.Ceilings, v int64) { c.Campaign.TotalSessions = v }},
		{"campaign input", rules.CodeCeilingCampaignInput, 51_000, func(c *tables.Ceilings, v int64) { c.Campaign.InputTokens = v }},
		{"campaign output", rules.CodeCeilingCampaignOutput, 5_100, func(c *tables.Ceilings, v int64) { c.Campaign.OutputTokens = v }},
		{"reference cost", rules.CodeCeilingReferenceCost, 6_000_000_000 + requestBound,
			func(c *tables.Ceilings, v int64) { c.Campaign.ReferenceCost = tables.Money(v).String() }},
		{"actual cost", rules.CodeCeilingActualCost, 10_000_000_000 + requestBound,
			func(c *tables.Ceilings, v int64) { c.Campaign.ActualCost = tables.Money(v).String() }},
	}
	for _, tc := range cases {
		for _, step := range []struct {
			name     string
			delta    int64
			admitted bool
		}{{"just below", -1, false}, {"exactly at", 0, true}, {"just above", 1, true}} {
			t.Run(tc.name+"/"+step.name, func(t *testing.T) {
				c, s := admitSet(t)
				c.Manifest.Ceilings.Session = tables.SessionCeilings{WallMS: 240_000, InputTokens: 90_000, OutputTokens: 8_000}
				tc.set(&c.Manifest.Ceilings, tc.needed+step.delta)
				before := s.Ledger.Len()
				v := admitInto(c, s, request())
				if v.Admitted != step.admitted {
					t.Fatalf("verdict = %+v, want admitted %v", v, step.admitted)
				}
				if !step.admitted && v.Code != tc.code {
					t.Errorf("refusal code = %s, want %s", v.Code, tc.code)
				}
				if step.admitted {
					if v.Bound == nil || int64(*v.Bound) != requestBound || s.Ledger.Len() != before+1 || s.Ledger.Collect()[before].Kind != tables.LedgerReserved {
						t.Errorf("admitted verdict %+v, ledger %+v", v, s.Ledger.Collect())
					}
				} else if s.Ledger.Len() != before {
					t.Errorf("a refusal changed the ledger")
				}
			})
		}
	}
}

func TestAdmitRefusals(t *testing.T) {
	cases := []struct {
		name string
		edit func(c *tables.Campaign, r *Request)
		code rules.Code
	}{
		{"missing reservation identity", func(_ *tables.Campaign, r *Request) { r.ReservationID = "" }, rules.CodeAdmissionNoReservation},
		{"unknown rate card", func(_ *tables.Campaign, r *Request) { r.RateCard = "gpt-9" }, rules.CodeAdmissionUnknownCard},
		{"missing tariff", func(c *tables.Campaign, _ *Request) { c.Manifest.RateCards[0].Prices.Output = "" }, rules.CodeAdmissionMissingTariff},
		{"no request id", func(_ *tables.Campaign, r *Request) { r.RequestID = "" }, rules.CodeAdmissionInvalidRequest},
		{"negative bound", func(_ *tables.Campaign, r *Request) { r.MaxOutputTokens = -1 }, rules.CodeAdmissionInvalidRequest},
		{"invalid ceiling", func(c *tables.Campaign, _ *Request) { c.Manifest.Ceilings.Campaign.ActualCost = "-1" }, rules.CodeAdmissionInvalidCeiling},
		{"exhausted budget", func(c *tables.Campaign, _ *Request) { c.Manifest.Ceilings.Campaign.ReferenceCost = "0.006" }, rules.CodeCeilingReferenceCost},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, s := admitSet(t)
			r := request()
			tc.edit(c, &r)
			if v := admitInto(c, s, r); v.Admitted || v.Code != tc.code || v.Message == "" {
				t.Errorf("verdict = %+v, want refusal %s", v, tc.code)
			}
		})
	}
	t.Run("unknown ledger charge", func(t *testing.T) {
		c, s := admitSet(t)
		rows := s.Ledger.Collect()
		rows[0].ReferenceCost = nil
		s.Ledger = spool.Of(rows...)
		if v := admitInto(c, s, request()); v.Admitted || v.Code != rules.CodeAdmissionInvalidCeiling {
			t.Errorf("verdict = %+v", v)
		}
	})
}

func TestAdmitReplay(t *testing.T) {
	t.Run("accounted request", func(t *testing.T) {
		c, s := admitSet(t)
		r := request()
		r.RequestID, r.SessionID = "req-T1-r1-D", "T1-r1-D" // already accounted by Run
		r.MaxInputTokens, r.MaxOutputTokens = 90_000, 8_000 // its reservation's bound
		c.Manifest.Ceilings.Campaign.TotalSessions = 1      // no room for a new session
		before := Summarize(s.Ledger).Used
		v := admitInto(c, s, r)
		if !v.Admitted || !v.Replay || s.Ledger.Len() != 1 || v.Used.Sessions != before.Sessions || *v.Used.ReferenceCost != *before.ReferenceCost {
			t.Errorf("verdict = %+v, ledger %d entries", v, s.Ledger.Len())
		}
	})
	t.Run("admitted twice", func(t *testing.T) {
		c, s := admitSet(t)
		first := admitInto(c, s, request())
		second := admitInto(c, s, request())
		if !first.Admitted || first.Replay || !second.Admitted || !second.Replay || s.Ledger.Len() != 2 {
			t.Errorf("first %+v second %+v ledger %d", first, second, s.Ledger.Len())
		}
		// 0.006 accounted + 0.3 reserved, counted once.
		if got := Summarize(s.Ledger).Used.ReferenceCost.String(); got != "0.306" {
			t.Errorf("used reference cost = %s, want 0.306", got)
		}
	})
	for _, tc := range []struct {
		name string
		edit func(*Request)
	}{
		{"same request ID for another session", func(r *Request) { r.SessionID = "T1-r2-B" }},
		{"same request ID with another input bound", func(r *Request) { r.MaxInputTokens++ }},
		{"same request ID with another output bound", func(r *Request) { r.MaxOutputTokens-- }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, s := admitSet(t)
			if first := admitInto(c, s, request()); !first.Admitted {
				t.Fatalf("first %+v", first)
			}
			r := request()
			tc.edit(&r)
			v := admitInto(c, s, r)
			if v.Admitted || v.Replay || v.Code != rules.CodeAdmissionRequestReused || s.Ledger.Len() != 2 {
				t.Errorf("verdict %+v, ledger %d entries; want refusal admission_request_reused", v, s.Ledger.Len())
			}
		})
	}
	t.Run("reservation of a receipt of another request", func(t *testing.T) {
		c, s := admitSet(t)
		r := request()
		r.ReservationID = "res-T1-r1-D" // T1-r1-D's receipt (line 1) names it
		v := admitInto(c, s, r)
		if v.Admitted || v.Code != rules.CodeAdmissionReservationReused || !strings.Contains(v.Message, "line 1 of receipts.jsonl by request req-T1-r1-D") || s.Ledger.Len() != 1 {
			t.Errorf("verdict %+v, ledger %d entries; want refusal admission_reservation_reused naming line 1", v, s.Ledger.Len())
		}
	})
	t.Run("accounted request for another session", func(t *testing.T) {
		c, s := admitSet(t)
		r := request()
		r.RequestID = "req-T1-r1-D" // accounted by Run for T1-r1-D
		if v := admitInto(c, s, r); v.Admitted || v.Code != rules.CodeAdmissionRequestReused {
			t.Errorf("verdict %+v, want refusal admission_request_reused", v)
		}
	})
}
