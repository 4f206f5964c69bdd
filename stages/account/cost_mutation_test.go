package account_test

// Mutation tests of rule C2's cost mutations: "zero an MCP
// cost", "double-count shared D billing" and "omit one global
// reservation". Each test runs its owning control on the real pipeline
// (the control passes) and on the mutated behaviour (the control fails,
// for exactly the intended reason, with the rest of the setup intact).
// "Make a cost/time cap an OR condition" lives next to its control in
// stages/aggregate (or_mutation_test.go).

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// loadExample loads the embedded example campaign for editing.
func loadExample(t *testing.T) *tables.Campaign {
	t.Helper()
	fsys, _ := fixtures.Example(fixtures.DefaultExample)
	c, fs := load.Campaign(fsys, "example")
	if c == nil || fs.Rejected() {
		t.Fatalf("example not loaded: %v", fs)
	}
	return c
}

// pipeline runs validate → account → score → aggregate on c.
func pipeline(c *tables.Campaign) *tables.Set {
	return stages.RunCampaign(c, stages.Options{SkipIntervals: true})
}

// editReceipt changes the first receipt of a session in c.
func editReceipt(t *testing.T, c *tables.Campaign, session string, edit func(*tables.Receipt)) {
	t.Helper()
	found := false
	c.EditReceipts(func(rs []tables.Line[tables.Receipt]) []tables.Line[tables.Receipt] {
		for i := range rs {
			if rs[i].Record.SessionID == session {
				edit(&rs[i].Record)
				found = true
				break
			}
		}
		return rs
	})
	if !found {
		t.Fatalf("no receipt for %s", session)
	}
}

// mcpSession is the example's T2 repetition 1 review of arm B; its pair
// with arm A is T2/r1.
const mcpSession = "T2-r1-B"

// unattributableMCPViolations is the control "an MCP call whose charge
// cannot be attributed leaves the cost unknown, never zero" (rule A3:
// unknown is never zero): the session's tool_charges and its run's
// workflow cost are null, the campaign cost is reported unknown, and the
// paired cost gate cannot pass.
func unattributableMCPViolations(s *tables.Set) []string {
	var out []string
	for _, tok := range s.Tokens.Collect() {
		if tok.SessionID == mcpSession && tok.ToolCharges != nil {
			out = append(out, "tool_charges of "+mcpSession+" is "+tok.ToolCharges.String()+", want null for an unattributable MCP charge")
		}
	}
	for _, r := range s.Runs.Collect() {
		if r.ReviewSessionID == mcpSession && r.WorkflowCost != nil {
			out = append(out, "the workflow cost of "+mcpSession+"'s run is "+r.WorkflowCost.String()+", want null")
		}
	}
	if !slices.ContainsFunc(s.Rejections, func(f rules.Finding) bool { return f.Code == rules.CodeCampaignCostUnknown }) {
		out = append(out, "no campaign_cost_unknown finding: the campaign cost is shown as known")
	}
	for _, g := range s.Gates {
		if g.Gate == rules.GateCostPair && (g.Pass || g.Observed != "null") {
			out = append(out, "g5_cost_pair observed "+g.Observed+", want null (cannot pass)")
		}
	}
	return out
}

func TestMutationZeroAnMCPCost(t *testing.T) {
	withMCP := func(t *testing.T, charge *string) *tables.Set {
		c := loadExample(t)
		editReceipt(t, c, mcpSession, func(r *tables.Receipt) {
			r.ToolCalls = append(r.ToolCalls, tables.ToolCall{Kind: "mcp", Name: "lsp.references", InputTokens: 120, OutputTokens: 40, Charge: charge})
		})
		return pipeline(c)
	}
	t.Run("control passes on an unattributable MCP charge", func(t *testing.T) {
		if v := unattributableMCPViolations(withMCP(t, nil)); len(v) > 0 {
			t.Fatalf("control fails on the real pipeline: %v", v)
		}
	})
	t.Run("mutation: the unattributable charge zeroed", func(t *testing.T) {
		zero := "0"
		v := unattributableMCPViolations(withMCP(t, &zero))
		want := []string{
			"tool_charges of T2-r1-B is 0.00, want null for an unattributable MCP charge",
			"no campaign_cost_unknown finding: the campaign cost is shown as known",
		}
		for _, w := range want {
			if !slices.Contains(v, w) {
				t.Errorf("control did not report %q; it reported %v", w, v)
			}
		}
		if !slices.ContainsFunc(v, func(s string) bool { return strings.HasPrefix(s, "the workflow cost of T2-r1-B's run is ") }) {
			t.Errorf("control did not report the run's known workflow cost: %v", v)
		}
	})
	// An attributable MCP charge is part of the complete workflow cost:
	// zeroing it must change the run's cost by exactly that charge.
	t.Run("attributable charge counts in the workflow cost; zeroing it is detected", func(t *testing.T) {
		base := runCost(t, pipeline(loadExample(t)), mcpSession)
		charge, zero := "0.05", "0"
		for _, tc := range []struct {
			name   string
			charge *string
			detect bool
		}{{"real charge", &charge, false}, {"zeroed charge", &zero, true}} {
			t.Run(tc.name, func(t *testing.T) {
				got := runCost(t, withMCP(t, tc.charge), mcpSession)
				want := new(big.Rat).Add(base, big.NewRat(5, 100)) // + 0.05
				if mismatch := got.Cmp(want) != 0; mismatch != tc.detect {
					t.Errorf("workflow cost %s, want %s (detection expected: %v)", got.FloatString(12), want.FloatString(12), tc.detect)
				}
			})
		}
	})
}

// runCost is the workflow cost of the run whose review is session.
func runCost(t *testing.T, s *tables.Set, session string) *big.Rat {
	t.Helper()
	for _, r := range s.Runs.Collect() {
		if r.ReviewSessionID == session {
			if r.WorkflowCost == nil {
				t.Fatalf("run of %s has no cost", session)
			}
			return rat(*r.WorkflowCost)
		}
	}
	t.Fatalf("no run reviews %s", session)
	return nil
}

func TestMutationDoubleCountSharedDBilling(t *testing.T) {
	fsys, _ := fixtures.Example(fixtures.DefaultExample)
	c, _ := load.Campaign(fsys, "example")
	s := pipeline(c)
	want, _ := new(big.Rat).SetString(exampleReferenceCost)
	t.Run("control passes on the real tables", func(t *testing.T) {
		if v := c20Violations(c, s, want); len(v) > 0 {
			t.Fatalf("C20 fails on the real pipeline: %v", v)
		}
	})
	t.Run("mutation: D billed once per arm", func(t *testing.T) {
		// Physical billing that charges each draft to every arm: one
		// extra draft row per additional arm.
		mutated := *s
		mutated.Tokens = spool.Of(s.Tokens.Collect()...)
		drafts := map[string]bool{}
		for _, r := range s.Runs.Collect() {
			drafts[r.DraftSessionID] = true
		}
		for tok := range s.Tokens.All() {
			if drafts[tok.SessionID] {
				mutated.Tokens.Add(tok)
			}
		}
		v := c20Violations(c, &mutated, want)
		if len(v) != 2 || !strings.HasPrefix(v[0], "physical billing Σ tokens = ") ||
			!strings.HasSuffix(v[1], "D is not billed exactly once") {
			t.Fatalf("control reported %q, want exactly the billing and identity violations", v)
		}
	})
	t.Run("mutation: allocation without D in one arm", func(t *testing.T) {
		// The converse: a comparative allocation that leaves D out of a
		// run breaks the per-run sum and the identity.
		mutated := *s
		runs := s.Runs.Collect()
		runs[0].WorkflowCost = runs[0].ReviewCost
		mutated.Runs = spool.Of(runs...)
		v := c20Violations(c, &mutated, want)
		if len(v) != 2 || !strings.Contains(v[0], "want draft + review") || !strings.HasSuffix(v[1], "D is not billed exactly once") {
			t.Fatalf("control reported %q", v)
		}
	})
}

// nextDispatchProhibited is C18's control on an exactly exhausted global
// budget: the next dispatch must be refused for the reference-cost
// ceiling. It returns "" when the control passes.
func nextDispatchProhibited(c *tables.Campaign, ledger *spool.Spool[tables.LedgerEntry]) string {
	v, _ := account.Admit(c, ledger, account.Request{RequestID: "req-next", SessionID: "T9-r1-D", RateCard: "codex-work-2026-09-05",
		MeterShape: tables.ShapeOpenAIResponses, ReservationID: "res-next", MaxInputTokens: 1, MaxOutputTokens: 0})
	if v.Admitted {
		return "the next dispatch was admitted against an exhausted global budget: " + v.Message
	}
	if v.Code != rules.CodeCeilingReferenceCost {
		return "refused for " + string(v.Code) + ", not for the exhausted reference-cost ceiling"
	}
	return ""
}

func TestMutationOmitOneGlobalReservation(t *testing.T) {
	// Two admitted requests of 10,000 in / 1,000 out reserve 0.06 each
	// (10,000 × 4 + 1,000 × 20 per million); with the example's 5.110872
	// accounted, a ceiling of 5.230872 is exactly exhausted.
	c := loadExample(t)
	s := &tables.Set{Ledger: account.Run(c).Ledger}
	for _, id := range []string{"1", "2"} {
		var v account.Verdict
		v, s.Ledger = account.Admit(c, s.Ledger, account.Request{RequestID: "req-" + id, SessionID: "T9-r" + id + "-D", RateCard: "codex-work-2026-09-05",
			MeterShape: tables.ShapeOpenAIResponses, ReservationID: "res-" + id, MaxInputTokens: 10_000, MaxOutputTokens: 1_000})
		if !v.Admitted || v.Bound == nil || v.Bound.String() != "0.06" {
			t.Fatalf("setup admission %s: %+v", id, v)
		}
	}
	c.Manifest.Ceilings.Campaign.ReferenceCost = "5.230872"
	t.Run("control passes with every reservation in the ledger", func(t *testing.T) {
		if msg := nextDispatchProhibited(c, s.Ledger); msg != "" {
			t.Fatal(msg)
		}
	})
	t.Run("mutation: one reservation omitted from the global ledger", func(t *testing.T) {
		rows := s.Ledger.Collect()
		last := len(rows) - 1
		if rows[last].Kind != tables.LedgerReserved {
			t.Fatalf("setup: last entry %+v", rows[last])
		}
		msg := nextDispatchProhibited(c, spool.Of(rows[:last]...))
		if !strings.HasPrefix(msg, "the next dispatch was admitted against an exhausted global budget") {
			t.Fatalf("control reported %q, want an admission against the exhausted budget", msg)
		}
	})
	t.Run("mutation: a dispatched receipt without its reservation", func(t *testing.T) {
		c := loadExample(t)
		editReceipt(t, c, mcpSession, func(r *tables.Receipt) { r.Reservation = nil })
		s := pipeline(c)
		var hits []rules.Finding
		for _, f := range s.Rejections {
			if f.Code == rules.CodeReservationMissing {
				hits = append(hits, f)
			}
		}
		if len(hits) != 1 || hits[0].Session != mcpSession || hits[0].File != "receipts.jsonl" {
			t.Fatalf("reservation_missing findings %v, want one for %s", hits, mcpSession)
		}
		if !rules.CostGateBlocking(hits[0].Code) {
			t.Error("reservation_missing does not block the cost gate")
		}
		for _, tok := range s.Tokens.Collect() {
			if tok.SessionID == mcpSession && tok.WithinCeilings {
				t.Error("an unreserved session is shown within its ceilings")
			}
		}
	})
}
