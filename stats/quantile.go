package stats

import (
	"math"
	"slices"
)

// Quantile7 returns the type-7 (linear interpolation, numpy's default)
// quantile of sorted at probability p in [0,1]: with h = (n−1)p,
// x[⌊h⌋] + (h−⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]). sorted must be ascending and free
// of NaN; Quantile7 returns NaN for an empty slice or p outside [0,1].
func Quantile7(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 || !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	h := float64(n-1) * p
	lo := math.Floor(h)
	i := int(lo)
	if i >= n-1 {
		return sorted[n-1]
	}
	frac := h - lo
	if frac == 0 {
		return sorted[i]
	}
	return sorted[i] + float64(frac*(sorted[i+1]-sorted[i]))
}

// MedianFloat64 returns the median of xs: the middle value of an odd
// count, the mean of the two middle values of an even count, NaN for an
// empty slice. It sorts a copy; xs is not modified.
func MedianFloat64(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
