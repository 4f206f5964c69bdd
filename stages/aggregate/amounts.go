package aggregate

import (
	"math/big"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// exactSum is the exact sum of amounts (money in pico-units), unknown once
// one is null: the value stats.Sum gives over the amounts as rationals,
// without a rational per amount.
type exactSum struct {
	sum     big.Int
	unknown bool
}

func (s *exactSum) add(m *tables.Money) {
	if m == nil {
		s.unknown = true
		return
	}
	s.addInt(int64(*m))
}

func (s *exactSum) addInt(v int64) {
	var x big.Int
	s.sum.Add(&s.sum, x.SetInt64(v))
}

// total is the sum, nil when an amount was null.
func (s *exactSum) total() *big.Rat {
	if s.unknown {
		return nil
	}
	return new(big.Rat).SetInt(&s.sum)
}

// amounts holds integer amounts (money in pico-units, nanoseconds) for
// their exact sum and median: the values stats.Sum and stats.MedianRat
// give over the amounts as rationals, without a rational per amount.
type amounts struct {
	xs      []int64
	unknown bool // an amount was null
}

func (a *amounts) add(m *tables.Money) {
	if m == nil {
		a.unknown = true
		return
	}
	a.xs = append(a.xs, int64(*m))
}

// median is the exact median (the mean of the two middle amounts of an
// even count), nil when there is none or one was null.
func (a *amounts) median() *big.Rat {
	if a.unknown {
		return nil
	}
	return stats.MedianInt64(a.xs) // nil when empty
}

// total is the exact sum (0 when there is none), nil when one was null.
func (a *amounts) total() *big.Rat {
	var s exactSum
	s.unknown = a.unknown
	for _, x := range a.xs {
		s.addInt(x)
	}
	return s.total()
}
