package aggregate

import (
	"cmp"
	"math/big"
	"math/bits"
	"slices"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// exactSum is the exact sum of amounts (money in pico-units), unknown once
// one is null: the value stats.Sum gives over the amounts as rationals,
// without a rational per amount.
type exactSum struct {
	small   int64   // the sum is small + big: small while it fits in 64 bits,
	big     big.Int // big takes over what would overflow it
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
	if t, ok := stats.AddInt64(s.small, v); ok {
		s.small = t
		return
	}
	var x big.Int
	s.big.Add(&s.big, x.SetInt64(s.small))
	s.small = v
}

// merge adds the amounts o summed: unknown when either is.
func (s *exactSum) merge(o *exactSum) {
	s.unknown = s.unknown || o.unknown
	s.big.Add(&s.big, &o.big)
	s.addInt(o.small)
}

// total is the sum, nil when an amount was null.
func (s *exactSum) total() *big.Rat {
	if s.unknown {
		return nil
	}
	if s.big.Sign() == 0 {
		return new(big.Rat).SetInt64(s.small)
	}
	var x big.Int
	return new(big.Rat).SetInt(x.Add(&s.big, x.SetInt64(s.small)))
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

// sortedMedian is median, sorting the amounts in place: for amounts that
// are dropped once their median is known.
func (a *amounts) sortedMedian() *big.Rat {
	if a.unknown {
		return nil
	}
	slices.Sort(a.xs)
	return stats.MedianSortedInt64(a.xs) // nil when empty
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

// fractions holds exact fractions num/den for their median: the value
// stats.MedianRat gives over stats.Fraction of each, without a rational
// per fraction.
type fractions struct {
	xs      []fraction
	unknown bool // a fraction was unknown (not given, or its den not positive)
}

type fraction struct{ num, den int64 } // den > 0

// add adds num/den, or an unknown value when !known or den is not
// positive (stats.Fraction's nil).
func (f *fractions) add(num, den int64, known bool) {
	if !known || den <= 0 {
		f.unknown = true
		return
	}
	f.xs = append(f.xs, fraction{num, den})
}

// median is the exact median (the mean of the two middle values of an
// even count), nil when there is none or one was unknown. It sorts the
// fractions in place: they are dropped once their median is known.
func (f *fractions) median() *big.Rat {
	n := len(f.xs)
	if f.unknown || n == 0 {
		return nil
	}
	sorted := f.xs
	slices.SortFunc(sorted, compareFractions)
	mid := sorted[n/2]
	if n%2 == 1 {
		return stats.Fraction(mid.num, mid.den)
	}
	lo := sorted[n/2-1]
	return stats.MidFraction(lo.num, lo.den, mid.num, mid.den)
}

// compareFractions orders p and q by value exactly: the sign of
// p.num·q.den − q.num·p.den (both dens positive), compared as 128-bit
// products.
func compareFractions(p, q fraction) int {
	lNeg, lHi, lLo := signedProduct(p.num, q.den)
	rNeg, rHi, rLo := signedProduct(q.num, p.den)
	switch {
	case lNeg && !rNeg:
		return -1
	case !lNeg && rNeg:
		return 1
	}
	c := cmp.Or(cmp.Compare(lHi, rHi), cmp.Compare(lLo, rLo)) // magnitudes
	if lNeg {
		return -c
	}
	return c
}

// signedProduct is x·y as a sign and a 128-bit magnitude; zero is not
// negative.
func signedProduct(x, y int64) (neg bool, hi, lo uint64) {
	hi, lo = bits.Mul64(absInt64(x), absInt64(y))
	return (x < 0) != (y < 0) && (hi|lo) != 0, hi, lo
}

// absInt64 is |x| as a uint64 (exact for math.MinInt64).
func absInt64(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}
