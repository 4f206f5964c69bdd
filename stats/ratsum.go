package stats

import "math/big"

// RatSum is an exact running sum of rationals, the accumulator of Sum and
// Mean: an int64 numerator over an int64 common denominator while the sum
// and every value added fit, a big.Rat from the first step that does not.
// Its value is always exactly the sum of the values added. The zero value
// is the sum 0, ready to use.
type RatSum struct {
	num, den int64 // num/den, den > 0 (0 stands for 1), while big is nil
	big      *big.Rat
}

// Add adds x (not nil) to s. x is only read.
func (s *RatSum) Add(x *big.Rat) {
	if s.big == nil {
		if n, d, ok := small(x); ok && s.addSmall(n, d) {
			return
		}
		s.big = s.lowest()
	}
	s.big.Add(s.big, x)
}

// Rat returns the sum as a new big.Rat; s can go on summing.
func (s *RatSum) Rat() *big.Rat {
	if s.big != nil {
		return new(big.Rat).Set(s.big)
	}
	return s.lowest()
}

// addSmall adds n/d (d > 0) to the int64 sum and reports whether the
// result fits; when it does not, s keeps its value.
func (s *RatSum) addSmall(n, d int64) bool {
	if s.den == 0 {
		s.den = 1
	}
	for {
		if d == s.den {
			if v, ok := AddInt64(s.num, n); ok {
				s.num = v
				return true
			}
		} else {
			// Over the lcm: num/den + n/d = (num·(d/g) + n·(den/g)) / (den/g·d).
			g := int64(gcd(uint64(s.den), uint64(d)))
			l, okL := mulInt64(s.den/g, d)
			p, okP := mulInt64(s.num, d/g)
			q, okQ := mulInt64(n, s.den/g)
			if v, okV := AddInt64(p, q); okL && okP && okQ && okV {
				s.num, s.den = v, l
				return true
			}
		}
		if !s.reduce() { // already in lowest terms: it does not fit
			return false
		}
	}
}

// reduce divides num and den by their gcd and reports whether it was more
// than 1.
func (s *RatSum) reduce() bool {
	if s.den == 0 {
		s.den = 1
	}
	g := int64(gcd(absUint64(s.num), uint64(s.den)))
	if g <= 1 {
		return false
	}
	s.num, s.den = s.num/g, s.den/g
	return true
}

// lowest returns the int64 sum as a new big.Rat.
func (s *RatSum) lowest() *big.Rat {
	s.reduce()
	return lowestRat(s.num, s.den)
}

// take returns the sum as a big.Rat that s no longer uses; s is spent.
func (s *RatSum) take() *big.Rat {
	if s.big != nil {
		return s.big
	}
	return s.lowest()
}

// takeQuo returns the sum divided by k > 0 as a big.Rat that s no longer
// uses; s is spent.
func (s *RatSum) takeQuo(k int64) *big.Rat {
	if s.big == nil {
		s.reduce()
		if d, ok := mulInt64(s.den, k); ok {
			s.den = d
			return s.lowest()
		}
	}
	r := s.take()
	return r.Quo(r, new(big.Rat).SetInt64(k))
}
