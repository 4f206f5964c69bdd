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
	golden.RunData(t, "testdata/account.txt", func(t *testing.T, c *golden.Case) string {
		num := func(key, def string) int64 {
			n, err := strconv.ParseInt(c.Arg(key, def), 10, 64)
			if err != nil {
				t.Fatalf("%s: %s=%q: %v", c.Pos, key, c.Arg(key, ""), err)
			}
			return n
		}
		switch c.Cmd {
		case "receipt":
			r := receipt(c.Arg("session", "T1-r1-A"), tables.ShapeNormalized,
				normalized(num("uncached", "0"), num("cached", "0"), 0, 0, num("out", "0"), num("reasoning", "0")))
			end := r.StartedAt.Add(time.Duration(num("minutes", "1")) * time.Minute)
			r.EndedAt = &end
			r.Status = c.Arg("status", tables.StatusResponse)
			if c.Arg("meter", "") == "none" {
				r.Meter = nil
			}
			receipts = append(receipts, r)
			return ""
		case "account":
			out := Run(testCampaign(receipts...))
			receipts = nil
			return renderAccount(out)
		}
		t.Fatalf("%s: unknown command %s", c.Pos, c.Cmd)
		return ""
	})
}

func renderAccount(out Out) string {
	var b strings.Builder
	b.WriteString("tokens (session: status, uncached cached output reasoning, cost, seconds, within ceilings):\n")
	for _, r := range out.Tokens {
		secs := "null"
		if r.DurationNS != nil {
			secs = strconv.FormatInt(*r.DurationNS/1e9, 10)
		}
		fmt.Fprintf(&b, "  %s: %s, %d %d %d %d, %s, %s, %t\n", r.SessionID, r.CostStatus,
			r.UncachedInput, r.CachedInput, r.Output, r.Reasoning, moneyOrNull(r.ReferenceCost), secs, r.WithinCeilings)
	}
	b.WriteString("ledger (seq session: kind, input output, cost):\n")
	for _, e := range out.Ledger {
		fmt.Fprintf(&b, "  %d %s: %s, %d %d, %s\n", e.Seq, e.SessionID, e.Kind, e.InputTokens, e.OutputTokens, moneyOrNull(e.ReferenceCost))
	}
	b.WriteString("ceilings (ceiling: use / limit, held):\n")
	for _, r := range out.Ceilings {
		use, limit := intOrNull(r.Use), intOrNull(r.Limit)
		unit := r.Unit
		switch unit {
		case "money":
			use, limit = moneyOrNull(r.UseCost), moneyOrNull(r.LimitCost)
		case "ns":
			use, limit, unit = secondsOrNull(r.Use), secondsOrNull(r.Limit), "s"
		}
		held := "null"
		if r.Held != nil {
			held = strconv.FormatBool(*r.Held)
		}
		fmt.Fprintf(&b, "  %s: %s / %s %s, %s\n", r.Ceiling, use, limit, unit, strings.TrimSpace(held+" "+r.Code))
	}
	for _, f := range out.Findings {
		fmt.Fprintf(&b, "finding: %s %s line %d %s\n", f.Severity, f.Code, f.Line, f.Pointer)
	}
	return b.String()
}

func moneyOrNull(m *tables.Money) string {
	if m == nil {
		return "null"
	}
	return m.String()
}

func intOrNull(v *int64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatInt(*v, 10)
}

func secondsOrNull(ns *int64) string {
	if ns == nil {
		return "null"
	}
	return strconv.FormatInt(*ns/1e9, 10)
}
