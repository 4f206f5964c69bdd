package account

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// Summarize sums amounts as values; refSummarize is the pointer-per-step
// sum it replaced. They agree on ledgers of null, zero, negative and
// overflowing amounts.

func refAddMoneyPtr(a, b *tables.Money) (*tables.Money, bool) {
	if a == nil || b == nil {
		return nil, true
	}
	s, ok := addChecked(int64(*a), int64(*b))
	if !ok {
		return nil, false
	}
	return ptrMoney(tables.Money(s)), true
}

func refSumMoney(ms ...*tables.Money) *tables.Money {
	total := ptrMoney(0)
	for _, m := range ms {
		var ok bool
		if total, ok = refAddMoneyPtr(total, m); !ok || total == nil {
			return nil
		}
	}
	return total
}

func refOrZero(m *tables.Money) *tables.Money {
	if m == nil {
		return ptrMoney(0)
	}
	return m
}

func refAdd(a *Allowance, in, out int64, ref, actual *tables.Money) {
	a.Sessions++
	a.InputTokens = saturatingAdd(a.InputTokens, in)
	a.OutputTokens = saturatingAdd(a.OutputTokens, out)
	a.ReferenceCost = refSumMoney(a.ReferenceCost, ref)
	a.ActualCost = refSumMoney(a.ActualCost, actual)
}

func refSummarize(entries []tables.LedgerEntry) Summary {
	var s Summary
	s.Accounted, s.Held, s.Reserved = zeroAllowance(), zeroAllowance(), zeroAllowance()
	for _, e := range entries {
		switch e.Kind {
		case tables.LedgerAccounted:
			actual := refSumMoney(refOrZero(e.ActualCost), refOrZero(e.ToolCharges))
			refAdd(&s.Accounted, e.InputTokens, e.OutputTokens, refSumMoney(e.ReferenceCost, e.ToolCharges), actual)
		case tables.LedgerHeld:
			worst := refSumMoney(e.ReferenceCost, e.ToolCharges)
			refAdd(&s.Held, e.InputTokens, e.OutputTokens, worst, worst)
		case tables.LedgerReserved:
			worst := refSumMoney(e.ReferenceCost, refOrZero(e.ToolCharges))
			refAdd(&s.Reserved, e.InputTokens, e.OutputTokens, worst, worst)
		}
	}
	s.Used = zeroAllowance()
	for _, part := range []Allowance{s.Accounted, s.Held, s.Reserved} {
		s.Used.Sessions += part.Sessions
		s.Used.InputTokens = saturatingAdd(s.Used.InputTokens, part.InputTokens)
		s.Used.OutputTokens = saturatingAdd(s.Used.OutputTokens, part.OutputTokens)
		s.Used.ReferenceCost = refSumMoney(s.Used.ReferenceCost, part.ReferenceCost)
		s.Used.ActualCost = refSumMoney(s.Used.ActualCost, part.ActualCost)
	}
	return s
}

func sameMoney(a, b *tables.Money) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func sameAllowance(a, b Allowance) bool {
	return a.Sessions == b.Sessions && a.InputTokens == b.InputTokens && a.OutputTokens == b.OutputTokens &&
		sameMoney(a.ReferenceCost, b.ReferenceCost) && sameMoney(a.ActualCost, b.ActualCost)
}

func TestSummarizeMatchesPointerSums(t *testing.T) {
	amounts := []int64{0, 1, 7, -1, math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64 / 2, math.MaxInt64/2 + 1, math.MinInt64, 1_000_000_000_000}
	kinds := []string{tables.LedgerAccounted, tables.LedgerHeld, tables.LedgerReserved, tables.LedgerReleased}
	r := rand.New(rand.NewPCG(5, 6))
	money := func() *tables.Money {
		if r.IntN(6) == 0 {
			return nil
		}
		m := tables.Money(amounts[r.IntN(len(amounts))])
		if r.IntN(2) == 0 {
			m = tables.Money(r.Int64N(1_000_000_000_000))
		}
		return &m
	}
	for trial := range 3000 {
		var entries []tables.LedgerEntry
		for range r.IntN(6) {
			entries = append(entries, tables.LedgerEntry{Kind: kinds[r.IntN(len(kinds))],
				InputTokens: r.Int64N(1 << 62), OutputTokens: r.Int64N(1 << 62),
				ReferenceCost: money(), ActualCost: money(), ToolCharges: money()})
		}
		ledger := spool.New[tables.LedgerEntry](nil)
		ledger.Add(entries...)
		got, want := Summarize(ledger), refSummarize(entries)
		for i, pair := range [][2]Allowance{{got.Accounted, want.Accounted}, {got.Held, want.Held}, {got.Reserved, want.Reserved}, {got.Used, want.Used}} {
			if !sameAllowance(pair[0], pair[1]) {
				t.Fatalf("trial %d, part %d: Summarize = %+v, want %+v (entries %+v)", trial, i, pair[0], pair[1], entries)
			}
		}
	}
	for _, ms := range [][]*tables.Money{nil, {nil}, {ptrMoney(-1)}, {ptrMoney(math.MaxInt64), ptrMoney(1)}, {ptrMoney(math.MaxInt64), ptrMoney(0)}, {ptrMoney(3), ptrMoney(4), nil}} {
		got, want := sumMoney(ms...), refSumMoney(ms...)
		if !sameMoney(got, want) {
			t.Fatalf("sumMoney(%v) = %v, want %v", ms, got, want)
		}
		for _, m := range ms {
			if got != nil && got == m {
				t.Fatalf("sumMoney returned one of its inputs")
			}
		}
	}
}

// refTools is accountant.tools as it summed with a pointer per charge.
func refTools(a *accountant, line tables.Line[tables.Receipt], row *tables.Token) {
	charges := ptrMoney(0)
	for i, call := range line.Record.ToolCalls {
		base := "/tool_calls/" + strconv.Itoa(i)
		if call.InputTokens < 0 || call.OutputTokens < 0 || call.InputTokens > maxTokens || call.OutputTokens > maxTokens {
			a.add(line, rules.CodeToolTokensInvalid, rules.Reject, base, "The tool call's token counts are negative or beyond 10^15.")
		} else {
			row.ToolInput += call.InputTokens
			row.ToolOutput += call.OutputTokens
		}
		if call.Charge == nil {
			charges = nil
			continue
		}
		m, err := tables.ParseMoney(*call.Charge)
		if err != nil {
			a.add(line, rules.CodeToolChargeInvalid, rules.Reject, base+"/charge", "The tool call's charge is not an exact non-negative decimal.")
			charges = nil
			continue
		}
		var ok bool
		if charges, ok = refAddMoneyPtr(charges, &m); !ok {
			a.add(line, rules.CodeMoneyOverflow, rules.Reject, base+"/charge", "The session's tool charges do not fit in 64 bits.")
		}
	}
	row.ToolCharges = charges
}

func TestToolsMatchesPointerSums(t *testing.T) {
	charges := []string{"0", "1", "0.000000000001", "4611686.018427387904", "9223372.036854775807", "9223372.036854775808", "-1", "x", ""}
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 3000 {
		var calls []tables.ToolCall
		for range r.IntN(5) {
			c := tables.ToolCall{InputTokens: r.Int64N(10) - 1, OutputTokens: r.Int64N(3) * 500_000_000_000_000}
			if k := r.IntN(len(charges) + 1); k < len(charges) {
				c.Charge = &charges[k]
			}
			calls = append(calls, c)
		}
		line := tables.Line[tables.Receipt]{Line: int64(trial), Record: tables.Receipt{SessionID: "s", ToolCalls: calls}}
		var got, want accountant
		var gotRow, wantRow tables.Token
		got.tools(line, &gotRow)
		refTools(&want, line, &wantRow)
		if !sameMoney(gotRow.ToolCharges, wantRow.ToolCharges) || gotRow.ToolInput != wantRow.ToolInput || gotRow.ToolOutput != wantRow.ToolOutput ||
			!reflect.DeepEqual(got.findings, want.findings) {
			t.Fatalf("tools(%+v) = %v %+v, want %v %+v", calls, gotRow.ToolCharges, got.findings, wantRow.ToolCharges, want.findings)
		}
	}
}
