package account

import (
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// Allowance is an amount of the campaign budget. A nil money amount is
// unknown: some charge in it has no tariff, meter or reservation.
type Allowance struct {
	Sessions      int64
	InputTokens   int64
	OutputTokens  int64
	ReferenceCost *tables.Money // reference cost plus tool charges
	ActualCost    *tables.Money // attributable actual charges plus tool charges; held and reserved at their worst case
}

// Summary is the ledger view of rule A7: what is accounted, what is held
// for uncertain charges, what admitted requests have reserved, and their
// sum, which admission and the campaign ceilings are checked against.
type Summary struct {
	Accounted, Held, Reserved, Used Allowance
}

// Summarize totals a ledger. Released and replayed entries charge nothing.
// Unavailable actual billing is not attributable and adds nothing to
// ActualCost of accounted entries (it is not zero; the Token row keeps it
// null); held and reserved entries count their reference bound as their
// worst-case actual charge.
func Summarize(ledger *spool.Spool[tables.LedgerEntry]) Summary {
	var s Summary
	s.Accounted, s.Held, s.Reserved = zeroAllowance(), zeroAllowance(), zeroAllowance()
	for e := range ledger.All() {
		switch e.Kind {
		case tables.LedgerAccounted:
			// Only attributable charges count as actual: unavailable
			// billing and unattributable tool charges add nothing here.
			actual := sumMoney(orZero(e.ActualCost), orZero(e.ToolCharges))
			s.Accounted.add(e.InputTokens, e.OutputTokens, sumMoney(e.ReferenceCost, e.ToolCharges), actual)
		case tables.LedgerHeld:
			worst := sumMoney(e.ReferenceCost, e.ToolCharges)
			s.Held.add(e.InputTokens, e.OutputTokens, worst, worst)
		case tables.LedgerReserved:
			worst := sumMoney(e.ReferenceCost, orZero(e.ToolCharges))
			s.Reserved.add(e.InputTokens, e.OutputTokens, worst, worst)
		}
	}
	s.Used = zeroAllowance()
	for _, part := range []Allowance{s.Accounted, s.Held, s.Reserved} {
		s.Used.Sessions += part.Sessions
		s.Used.InputTokens = saturatingAdd(s.Used.InputTokens, part.InputTokens)
		s.Used.OutputTokens = saturatingAdd(s.Used.OutputTokens, part.OutputTokens)
		s.Used.ReferenceCost = sumMoney(s.Used.ReferenceCost, part.ReferenceCost)
		s.Used.ActualCost = sumMoney(s.Used.ActualCost, part.ActualCost)
	}
	return s
}

func orZero(m *tables.Money) *tables.Money {
	if m == nil {
		return ptrMoney(0)
	}
	return m
}

func zeroAllowance() Allowance {
	return Allowance{ReferenceCost: ptrMoney(0), ActualCost: ptrMoney(0)}
}

// add adds one charge. Token sums saturate rather than wrap (an absurd
// total still exceeds every ceiling); money sums become unknown on
// overflow.
func (a *Allowance) add(in, out int64, ref, actual *tables.Money) {
	a.Sessions++
	a.InputTokens = saturatingAdd(a.InputTokens, in)
	a.OutputTokens = saturatingAdd(a.OutputTokens, out)
	a.ReferenceCost = sumMoney(a.ReferenceCost, ref)
	a.ActualCost = sumMoney(a.ActualCost, actual)
}

func sumMoney(ms ...*tables.Money) *tables.Money {
	total := ptrMoney(0)
	for _, m := range ms {
		var ok bool
		if total, ok = addMoneyPtr(total, m); !ok || total == nil {
			return nil
		}
	}
	return total
}

func saturatingAdd(a, b int64) int64 {
	if s, ok := addChecked(max(a, 0), max(b, 0)); ok {
		return s
	}
	return 1<<63 - 1
}
