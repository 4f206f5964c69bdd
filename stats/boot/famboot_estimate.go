package boot

import (
	"math"
	"slices"

	"github.com/evalgate/evalgate/stats"
)

// BootStatus says whether a statistic got an interval and, if not, why.
// The values are written into the intervals table and must not change.
type BootStatus string

const (
	StatusOK                 BootStatus = "ok"
	StatusNoData             BootStatus = "no_data"                  // no family carries the statistic
	StatusUndefinedStatistic BootStatus = "undefined_statistic"      // observed denominator is 0
	StatusTooFewFamilies     BootStatus = "too_few_families"         // G = 1: point only
	StatusNoEvents           BootStatus = "no_events"                // a rate with 0 events in every family
	StatusDegenerate         BootStatus = "degenerate_zero_variance" // every family gives the same value
	StatusUndefinedResamples BootStatus = "undefined_resamples"      // some resample has denominator 0
	StatusEmptyArm           BootStatus = "empty_arm"                // set by callers: an arm has no usable run
	StatusNoPairs            BootStatus = "no_pairs"                 // set by callers: no task has both arms
)

// BootMethod names an interval construction; written into the table.
type BootMethod string

const (
	// MethodExpandedPercentile is the primary interval: percentile
	// quantiles at Hesterberg's expanded probabilities.
	MethodExpandedPercentile BootMethod = "family_bootstrap_expanded_percentile"
	// MethodCR1T is the companion θ̂ ± t_{G−1}·SE_CR1 interval.
	MethodCR1T BootMethod = "cr1_t"
	// MethodPercentile is the plain percentile interval, a diagnostic
	// that under-covers badly at small G.
	MethodPercentile BootMethod = "family_bootstrap_percentile"
)

// BootMethods lists the methods in the order every BootEstimate holds them.
var BootMethods = []BootMethod{MethodExpandedPercentile, MethodCR1T, MethodPercentile}

// SwitchBelowFamilies is the primary interval's switch rule: below this
// many contributing families the primary interval is the cluster t
// interval (t on G−1 degrees of freedom), from this many on it is the
// expanded percentile. With G ≤ 5 families the expanded percentile's lower
// probability falls inside the atom of one family drawn G times
// (1/G^(G−1)), so its interval is the range of the per-family values,
// which covers the centre of a symmetric distribution with probability at
// most 1 − 2/2^G; TestCoverageS1 measures 0.874 at G = 4 and 0.915 at
// G = 5 for it against 0.947 for the cluster t interval, and 0.930 for the
// expanded percentile from G = 6 on.
const SwitchBelowFamilies = 6

// PrimaryMethod is the method whose interval is the primary one for a
// statistic carried by g families (the switch rule above).
func PrimaryMethod(g int) BootMethod {
	if g < SwitchBelowFamilies {
		return MethodCR1T
	}
	return MethodExpandedPercentile
}

// Small-G flags (statistics notes §3).
const (
	SmallGNone    = "none"
	SmallGFew     = "few_families"      // 5 ≤ G < 10
	SmallGVeryFew = "very_few_families" // 2 ≤ G ≤ 4: the expanded interval is the range of family values
	QuantileRule  = "type7"             // written in the quantile_rule column
)

// BootBounds is one method's interval. Lo and Hi are NaN unless the
// estimate's status is ok.
type BootBounds struct {
	Method BootMethod
	P      float64 // lower probability used (expanded: the table value; others 0.025)
	Lo, Hi float64
	// Clipped reports that a bound fell outside the statistic's Range and
	// was moved onto it.
	Clipped bool
}

// BootEstimate is the result for one statistic.
type BootEstimate struct {
	Statistic  string
	Point      float64 // NaN when undefined
	Status     BootStatus
	Families   int     // families whose numerator or denominator is non-zero
	Resamples  int     // B
	Undefined  int     // resamples whose denominator was 0
	BootSE     float64 // standard deviation (n−1) of the replicates; NaN unless all are finite
	SmallG     string
	Primary    BootMethod   // PrimaryMethod(Families): the method to read first
	Bounds     []BootBounds // one per BootMethods entry, in that order
	familyVals []float64
}

// estimate turns the replicates of one statistic into its BootEstimate.
func (fs familySums) estimate(st BootStatistic, reps []float64, b int) BootEstimate {
	total := fs.total()
	e := BootEstimate{Statistic: st.Name, Point: st.value(total), Resamples: b, BootSE: math.NaN()}
	if st.Point != nil {
		e.Point = *st.Point
	}
	e.Families, e.familyVals = fs.contributing(st)
	e.SmallG = smallGFlag(e.Families)
	e.Primary = PrimaryMethod(e.Families)
	for _, r := range reps {
		if math.IsNaN(r) {
			e.Undefined++
		}
	}
	if e.Undefined == 0 && len(reps) >= 2 {
		e.BootSE = sampleSD(reps)
	}
	e.Status = fs.status(st, &e, reps)
	e.Bounds = fs.bounds(st, &e, reps)
	return e
}

// contributing returns how many families carry the statistic (non-zero
// numerator or denominator) and the per-family values Y_f/X_f of those
// with X_f ≠ 0.
func (fs familySums) contributing(st BootStatistic) (int, []float64) {
	n := 0
	var vals []float64
	for f := range fs.g {
		row := fs.row(f)
		y, x := st.numerator(row), row[st.Den]
		if y != 0 || x != 0 {
			n++
		}
		if x != 0 {
			vals = append(vals, y/x)
		}
	}
	return n, vals
}

func (fs familySums) status(st BootStatistic, e *BootEstimate, reps []float64) BootStatus {
	total := fs.total()
	switch {
	case e.Families == 0:
		return StatusNoData
	case total[st.Den] == 0 || math.IsNaN(e.Point):
		return StatusUndefinedStatistic
	case e.Families < 2:
		return StatusTooFewFamilies
	case st.Rate && st.numerator(total) == 0 && allZeroNumerators(fs, st):
		return StatusNoEvents
	case allNearlyEqual(e.familyVals, e.Point) && len(e.familyVals) == e.Families || allNearlyEqual(reps, e.Point):
		return StatusDegenerate
	case e.Undefined > 0:
		return StatusUndefinedResamples
	}
	return StatusOK
}

func allZeroNumerators(fs familySums, st BootStatistic) bool {
	for f := range fs.g {
		if st.numerator(fs.row(f)) != 0 {
			return false
		}
	}
	return true
}

// allNearlyEqual reports whether every value equals ref to within a
// relative 1e-12 (absolute 1e-300 near zero): the per-family values or
// replicates differ only by summation rounding. NaNs are never equal.
func allNearlyEqual(vals []float64, ref float64) bool {
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		scale := max(math.Abs(v), math.Abs(ref))
		if !(math.Abs(v-ref) <= 1e-12*scale || math.Abs(v-ref) <= 1e-300) {
			return false
		}
	}
	return true
}

func smallGFlag(g int) string {
	switch {
	case g <= 4:
		return SmallGVeryFew
	case g < 10:
		return SmallGFew
	}
	return SmallGNone
}

// bounds computes every method's interval when the status is ok and
// returns NaN bounds otherwise.
func (fs familySums) bounds(st BootStatistic, e *BootEstimate, reps []float64) []BootBounds {
	pExp := ExpandedLowerP(e.Families)
	out := []BootBounds{
		{Method: MethodExpandedPercentile, P: pExp, Lo: math.NaN(), Hi: math.NaN()},
		{Method: MethodCR1T, P: bootAlphaHalf, Lo: math.NaN(), Hi: math.NaN()},
		{Method: MethodPercentile, P: bootAlphaHalf, Lo: math.NaN(), Hi: math.NaN()},
	}
	if e.Status != StatusOK {
		return out
	}
	sorted := slices.Clone(reps)
	slices.Sort(sorted)
	out[0].Lo, out[0].Hi = stats.Quantile7(sorted, pExp), stats.Quantile7(sorted, 1-pExp)
	out[1].Lo, out[1].Hi = fs.cr1T(st, e.Point, e.Families)
	out[2].Lo, out[2].Hi = stats.Quantile7(sorted, bootAlphaHalf), stats.Quantile7(sorted, 1-bootAlphaHalf)
	if st.Range != nil {
		for i := range out {
			out[i].clip(st.Range[0], st.Range[1])
		}
	}
	return out
}

// clip moves bounds outside [lo, hi] onto it.
func (b *BootBounds) clip(lo, hi float64) {
	for _, v := range []*float64{&b.Lo, &b.Hi} {
		if c := min(max(*v, lo), hi); c != *v {
			*v, b.Clipped = c, true
		}
	}
}

// cr1T returns θ̂ ∓ t_{0.975,G−1}·SE with the CR1 linearised standard error
// SE = sqrt(G/(G−1)·Σ_f (Y_f − θ̂·X_f)²) / Σ_f X_f over the g contributing
// families (non-contributing families add 0 to every sum).
func (fs familySums) cr1T(st BootStatistic, theta float64, g int) (lo, hi float64) {
	ss, sx := 0.0, 0.0
	for f := range fs.g {
		row := fs.row(f)
		x := row[st.Den]
		u := st.numerator(row) - float64(theta*x)
		ss += float64(u * u)
		sx += x
	}
	gf := float64(g)
	se := math.Sqrt(float64(gf/(gf-1))*ss) / math.Abs(sx)
	half := float64(TQuantile975(g-1) * se)
	return theta - half, theta + half
}

// sampleSD is the n−1 standard deviation of xs (all finite, len ≥ 2).
func sampleSD(xs []float64) float64 {
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		d := x - mean
		ss += float64(d * d)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}
