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
	// The amounts are summed as values (amount) and made pointers once, at
	// the end: what summing them with sumMoney entry by entry gives, without
	// a pointer per step.
	accounted, held, reserved := allowanceSum{ref: zeroAmount, actual: zeroAmount},
		allowanceSum{ref: zeroAmount, actual: zeroAmount}, allowanceSum{ref: zeroAmount, actual: zeroAmount}
	for e := range ledger.All() {
		switch e.Kind {
		case tables.LedgerAccounted:
			// Only attributable charges count as actual: unavailable
			// billing and unattributable tool charges add nothing here.
			actual := orZeroAmount(e.ActualCost).plus(orZeroAmount(e.ToolCharges))
			accounted.add(e.InputTokens, e.OutputTokens, amountOf(e.ReferenceCost).plus(amountOf(e.ToolCharges)), actual)
		case tables.LedgerHeld:
			worst := amountOf(e.ReferenceCost).plus(amountOf(e.ToolCharges))
			held.add(e.InputTokens, e.OutputTokens, worst, worst)
		case tables.LedgerReserved:
			worst := amountOf(e.ReferenceCost).plus(orZeroAmount(e.ToolCharges))
			reserved.add(e.InputTokens, e.OutputTokens, worst, worst)
		}
	}
	var s Summary
	s.Accounted, s.Held, s.Reserved = accounted.allowance(), held.allowance(), reserved.allowance()
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

// amount is a nullable amount of money as a value: unknown where
// sumMoney's sum is nil (an amount is null, negative, or the sum
// overflows).
type amount struct {
	v     int64
	known bool
}

var zeroAmount = amount{known: true}

// amountOf is m as an amount, unknown for nil.
func amountOf(m *tables.Money) amount {
	if m == nil {
		return amount{}
	}
	return amount{v: int64(*m), known: true}
}

// orZeroAmount is m as an amount, zero for nil.
func orZeroAmount(m *tables.Money) amount {
	if m == nil {
		return zeroAmount
	}
	return amountOf(m)
}

// plus is sumMoney(a, b) as an amount.
func (a amount) plus(b amount) amount {
	if !a.known || !b.known {
		return amount{}
	}
	s, ok := addChecked(a.v, b.v)
	return amount{v: s, known: ok}
}

// ptr is the amount as a new pointer, nil when unknown.
func (a amount) ptr() *tables.Money {
	if !a.known {
		return nil
	}
	return ptrMoney(tables.Money(a.v))
}

func zeroAllowance() Allowance {
	return Allowance{ReferenceCost: ptrMoney(0), ActualCost: ptrMoney(0)}
}

// allowanceSum is an Allowance being summed, its money as amounts.
type allowanceSum struct {
	a           Allowance // Sessions and tokens
	ref, actual amount
}

// add adds one charge. Token sums saturate rather than wrap (an absurd
// total still exceeds every ceiling); money sums become unknown on
// overflow.
func (s *allowanceSum) add(in, out int64, ref, actual amount) {
	s.a.Sessions++
	s.a.InputTokens = saturatingAdd(s.a.InputTokens, in)
	s.a.OutputTokens = saturatingAdd(s.a.OutputTokens, out)
	s.ref = s.ref.plus(ref)
	s.actual = s.actual.plus(actual)
}

// allowance is the sum as an Allowance.
func (s *allowanceSum) allowance() Allowance {
	a := s.a
	a.ReferenceCost, a.ActualCost = s.ref.ptr(), s.actual.ptr()
	return a
}

// sumMoney is the sum of ms, nil when one is nil or negative or the sum
// overflows; always a new pointer.
func sumMoney(ms ...*tables.Money) *tables.Money {
	total := zeroAmount
	for _, m := range ms {
		if total = total.plus(amountOf(m)); !total.known {
			return nil
		}
	}
	return total.ptr()
}

func saturatingAdd(a, b int64) int64 {
	if s, ok := addChecked(max(a, 0), max(b, 0)); ok {
		return s
	}
	return 1<<63 - 1
}
