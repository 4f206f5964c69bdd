package account

import (
	"fmt"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// systemCampaign is testCampaign as a system comparison.
func systemCampaign(receipts ...tables.Receipt) *tables.Campaign {
	c := testCampaign(receipts...)
	c.Manifest.Kind = rules.KindSystemComparison
	return c
}

func preparation(session string) tables.Receipt {
	r := receipt(session, tables.ShapeNormalized, `{"uncached_input":5000,"cached_input":0,"cache_write_5m":0,"cache_write_1h":0,"output":100,"reasoning":0}`)
	r.Role = tables.RolePreparation
	return r
}

// TestSetupConsumesBudgetWithoutAnyTask: a system comparison whose only
// receipts are cold setups (no workflow ran, none completed) still
// charges them to the global allowance.
func TestSetupConsumesBudgetWithoutAnyTask(t *testing.T) {
	out := Run(systemCampaign(preparation("setup-a"), preparation("setup-b")))
	used := Summarize(out.Ledger).Used
	// By hand: 2 × (5000 × 4 + 100 × 20) / 1e6 USD = 2 × 0.022 = 0.044.
	want, _ := tables.ParseMoney("0.044")
	if used.Sessions != 2 || used.InputTokens != 10_000 || used.OutputTokens != 200 || used.ReferenceCost == nil || *used.ReferenceCost != want {
		t.Fatalf("used %+v (reference %v), want 2 sessions, 10000 in, 200 out, 0.044", used, used.ReferenceCost)
	}
}

// TestSystemSessionCap: a system comparison is capped at 90 model
// sessions whatever its manifest allows; 90 passes, 91 exceeds.
func TestSystemSessionCap(t *testing.T) {
	for _, n := range []int{90, 91} {
		var rs []tables.Receipt
		for i := range n {
			rs = append(rs, preparation(fmt.Sprintf("s%d", i)))
		}
		c := systemCampaign(rs...)
		c.Manifest.Ceilings.Campaign.TotalSessions = 120
		c.Manifest.Ceilings.Campaign.InputTokens = 1 << 40
		c.Manifest.Ceilings.Campaign.OutputTokens = 1 << 40
		out := Run(c)
		var codes []rules.Code
		for _, f := range out.Findings {
			codes = append(codes, f.Code)
		}
		if !slices.Contains(codes, rules.CodeSystemSessionCeiling) {
			t.Errorf("%d sessions: no %s in %v", n, rules.CodeSystemSessionCeiling, codes)
		}
		if over := slices.Contains(codes, rules.CodeCeilingTotalSessions); over != (n > 90) {
			t.Errorf("%d sessions: ceiling_total_sessions %v, want %v (%v)", n, over, n > 90, codes)
		}
	}
}
