package stats

import (
	"math/big"
	"slices"
)

// Exact medians. evalgate's median of an even count is the mean of the two
// middle values (numpy, R, DuckDB), never the lower middle value that
// gonum's stat.Quantile returns. Every function here works on exact
// rationals, copies its input and never mutates the caller's slice.

// MedianRat returns the median of xs: the middle value of an odd count, the
// mean of the two middle values of an even count. It returns nil for an
// empty or nil-containing slice: a median over a set with a hole is unknown,
// never a median of the rest.
func MedianRat(xs []*big.Rat) *big.Rat {
	if len(xs) == 0 || slices.Contains(xs, nil) {
		return nil
	}
	sorted := slices.Clone(xs)
	slices.SortFunc(sorted, func(a, b *big.Rat) int { return a.Cmp(b) })
	n := len(sorted)
	if n%2 == 1 {
		return new(big.Rat).Set(sorted[n/2])
	}
	sum := new(big.Rat).Add(sorted[n/2-1], sorted[n/2])
	return sum.Quo(sum, big.NewRat(2, 1))
}

// MedianInt64 returns the exact median of integer values (durations in
// nanoseconds, money in pico-units) as a rational: the mean of two middle
// integers may be a half. It returns nil for an empty slice.
func MedianInt64(xs []int64) *big.Rat {
	return MedianRat(Int64Rats(xs))
}

// Fraction returns num/den as an exact rational, or nil when den is not
// positive (an undefined ratio is unknown, never zero).
func Fraction(num, den int64) *big.Rat {
	if den <= 0 {
		return nil
	}
	return big.NewRat(num, den)
}
