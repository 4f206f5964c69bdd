package account

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/golden"
	"github.com/evalgate/evalgate/tables"
)

// TestData renders the stage's tables for a few receipts as text
// (testdata/account.txt; refresh with go test -update). Commands:
//
//	receipt session=S uncached=N cached=N out=N reasoning=N minutes=N
//	        status=response|interruption meter=none
//	                  appends a receipt of helpers_test.go's receipt on the
//	                  Codex card (4 / 0.40 / 20 USD per million tokens)
//	account           runs the stage on testCampaign's ceilings and prints
//	                  tokens, ledger, exceeded ceilings and findings; resets
//	                  the receipts
func TestData(t *testing.T) {
	var receipts []tables.Receipt
	golden.RunCommands(t, "testdata/account.txt", golden.Commands{
		"receipt": func(c *golden.Case) string {
			r := receipt(c.Arg("session", "T1-r1-A"), tables.ShapeNormalized,
				normalized(c.Int("uncached", 0), c.Int("cached", 0), 0, 0, c.Int("out", 0), c.Int("reasoning", 0)))
			end := r.StartedAt.Add(time.Duration(c.Int("minutes", 1)) * time.Minute)
			r.EndedAt = &end
			r.Status = c.Arg("status", tables.StatusResponse)
			if c.Arg("meter", "") == "none" {
				r.Meter = nil
			}
			receipts = append(receipts, r)
			return ""
		},
		"account": func(*golden.Case) string {
			out := Run(testCampaign(receipts...))
			receipts = nil
			return renderAccount(out)
		},
	})
}

func renderAccount(out Out) string {
	var b strings.Builder
	b.WriteString("tokens (session: status, uncached cached output reasoning, cost, seconds, within ceilings):\n")
	for _, r := range out.Tokens.Collect() {
		fmt.Fprintf(&b, "  %s: %s, %d %d %d %d, %s, %s, %t\n", r.SessionID, r.CostStatus,
			r.UncachedInput, r.CachedInput, r.Output, r.Reasoning, golden.OrNull(r.ReferenceCost), secondsOrNull(r.DurationNS), r.WithinCeilings)
	}
	b.WriteString("ledger (seq session: kind, input output, cost):\n")
	for e := range out.Ledger.All() {
		fmt.Fprintf(&b, "  %d %s: %s, %d %d, %s\n", e.Seq, e.SessionID, e.Kind, e.InputTokens, e.OutputTokens, golden.OrNull(e.ReferenceCost))
	}
	b.WriteString("ceilings (ceiling: use / limit, held):\n")
	for _, r := range out.Ceilings {
		use, limit := golden.OrNull(r.Use), golden.OrNull(r.Limit)
		unit := r.Unit
		switch unit {
		case "money":
			use, limit = golden.OrNull(r.UseCost), golden.OrNull(r.LimitCost)
		case "ns":
			use, limit, unit = secondsOrNull(r.Use), secondsOrNull(r.Limit), "s"
		}
		fmt.Fprintf(&b, "  %s: %s / %s %s, %s\n", r.Ceiling, use, limit, unit, strings.TrimSpace(golden.OrNull(r.Held)+" "+r.Code))
	}
	for _, f := range out.Findings {
		fmt.Fprintf(&b, "finding: %s %s line %d %s\n", f.Severity, f.Code, f.Line, f.Pointer)
	}
	return b.String()
}

func secondsOrNull(ns *int64) string {
	if ns == nil {
		return "null"
	}
	return strconv.FormatInt(*ns/1e9, 10)
}
