package account

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

func strp(s string) *string { return &s }

// codexCard is the paired-review example's frozen Codex card: 4 / 0.40 / 20 USD per million,
// no cache-write prices.
func codexCard() tables.RateCard {
	return tables.RateCard{ID: "codex-2026-09-05", Model: "gpt-5.6-sol", DateChecked: "2026-09-05", Source: "paired-review contract", Currency: "USD",
		Prices: tables.RatePrices{UncachedInput: "4", CachedInput: strp("0.40"), Output: "20"}}
}

// sonnetCard is Sonnet 4.6 with its published cache rates.
func sonnetCard() tables.RateCard {
	return tables.RateCard{ID: "sonnet-4.6", Model: "claude-sonnet-4-6", DateChecked: "2026-10-16", Source: "reviewer-benchmark pilot", Currency: "USD",
		Prices: tables.RatePrices{UncachedInput: "3", CachedInput: strp("0.30"), CacheWrite5m: strp("3.75"), CacheWrite1h: strp("6"), Output: "15"}}
}

// testCampaign is a one-task, two-arm, one-repetition campaign (3 planned
// sessions) with the example's ceilings (rule A2 prices them at exactly US$24.00).
func testCampaign(receipts ...tables.Receipt) *tables.Campaign {
	c := &tables.Campaign{Name: "test", Manifest: tables.Manifest{
		RateCards: []tables.RateCard{codexCard(), sonnetCard()},
		Ceilings: tables.Ceilings{
			Session: tables.SessionCeilings{WallMS: 240_000, InputTokens: 90_000, OutputTokens: 8_000},
			Campaign: tables.CampaignCeilings{PlannedSessions: 90, TotalSessions: 90, WallMS: 8 * 3_600_000,
				InputTokens: 3_000_000, OutputTokens: 600_000, ReferenceCost: "30", ActualCost: "30"},
		},
		Design: tables.Design{Repetitions: 1, Arms: []tables.Arm{{ID: "A"}, {ID: "B"}},
			Tasks:    []tables.TaskSpec{{ID: "T1"}},
			Schedule: []tables.Slot{{Task: "T1", Repetition: 1, Order: []string{"A", "B"}}}},
	}}
	c.Receipts = spool.New[tables.Line[tables.Receipt]](nil)
	for i, r := range receipts {
		c.Receipts.Add(tables.Line[tables.Receipt]{Line: int64(i + 1), Record: r})
	}
	return c
}

var t0 = time.Date(2026, 9, 5, 10, 0, 0, 0, time.UTC)

// receipt is a metered response receipt on the Codex card, 60 s long,
// reserved at 90,000 / 8,000 tokens and US$0.52.
func receipt(session string, shape tables.UsageShape, usage string) tables.Receipt {
	end := t0.Add(time.Minute)
	return tables.Receipt{
		SessionID: session, RequestID: "req-" + session, Attempt: 1, TaskID: "T1", Repetition: 1, Role: tables.RoleReview,
		StartedAt: t0, EndedAt: &end, Status: tables.StatusResponse,
		Meter:       &tables.Meter{Shape: shape, RateCard: "codex-2026-09-05", Usage: jsontext.Value(usage)},
		Reservation: &tables.Reservation{ID: "res-" + session, InputTokens: 90_000, OutputTokens: 8_000, Cost: "0.52"},
		Billing:     tables.Billing{Basis: tables.BillingUnavailable},
	}
}

// normalized renders a normalized usage object.
func normalized(uncached, cached, w5, w1, out, reasoning int64) string {
	return `{"uncached_input":` + itoa(uncached) + `,"cached_input":` + itoa(cached) +
		`,"cache_write_5m":` + itoa(w5) + `,"cache_write_1h":` + itoa(w1) +
		`,"output":` + itoa(out) + `,"reasoning":` + itoa(reasoning) + `}`
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func codes(fs []rules.Finding) []rules.Code {
	var out []rules.Code
	for _, f := range fs {
		out = append(out, f.Code)
	}
	return out
}

func hasCode(fs []rules.Finding, c rules.Code) bool { return slices.Contains(codes(fs), c) }

func money(t *testing.T, s string) tables.Money {
	t.Helper()
	m, err := tables.ParseMoney(s)
	if err != nil {
		t.Fatalf("ParseMoney(%q): %v", s, err)
	}
	return m
}
