package boot

import (
	"errors"
	"fmt"
	"math"
	"sync"
)

// DefaultResamples is the number of bootstrap resamples when none is given.
const DefaultResamples = 10000

// MaxResamples bounds the resample count so a hostile manifest cannot ask
// for unbounded memory (one float64 per statistic per resample).
const MaxResamples = 1_000_000

// BootAlgorithmVersion names the exact algorithm below: any change to the
// draws, the seeding, the accumulation (counts, then count × row in family
// order), the statistic formulas or the quantile rule must change it.
const BootAlgorithmVersion = "famboot/v1"

// ErrBootInput is wrapped by every error FamilyBootstrap returns.
var ErrBootInput = errors.New("stats: invalid family bootstrap input")

// BootTerm is one signed column of the per-family sum vector.
type BootTerm struct {
	Column int
	Negate bool
}

// BootStatistic is a statistic g(T) = (Σ±T[Num])/T[Den] of the summed per-family
// vectors T = Σ_f w_f·s_f: a macro-average (Σ task medians / Σ tasks), a
// paired difference ((ΣB − ΣA)/Σ tasks), a ratio of sums (ΣB/ΣA) or a rate
// (Σ events / Σ attempts). Its value is NaN when T[Den] is 0.
type BootStatistic struct {
	Name string
	Num  []BootTerm
	Den  int
	// Rate marks an event rate: when every family's numerator is 0 the
	// status is no_events, never an interval [0, 0].
	Rate bool
	// Point, when not nil, is the caller's exact point estimate (for
	// example a correctly rounded rational), used instead of the float sum
	// so the printed estimate is bit-identical to the gate input.
	Point *float64
	// Range, when not nil, is the statistic's parameter space [lo, hi]
	// (for example [0, 1] for a proportion, [−1, 1] for a difference of
	// proportions, [0, +Inf] for a ratio of non-negative sums). A bound
	// outside it (the cluster t interval is not range-preserving) is moved
	// onto it and the method's BootBounds.Clipped is set. The true value
	// lies in the range, so clipping never lowers coverage.
	Range *[2]float64
}

// BootOptions are the knobs of FamilyBootstrap; the zero value is valid.
type BootOptions struct {
	Resamples int    // 0 means DefaultResamples; at most MaxResamples
	Seed      uint64 // the campaign's bootstrap seed
	Workers   int    // goroutines; ≤ 0 means 1. Results never depend on it.
}

// FamilyBootstrap resamples families with replacement and returns one
// Estimate per statistic, in the order of stats. sums[f] is family f's
// sufficient-statistic vector (all rows the same length, finite values);
// families must be given in a canonical order (evalgate sorts them by
// family ID) because resample draws are indices into sums.
func FamilyBootstrap(sums [][]float64, stats []BootStatistic, opt BootOptions) ([]BootEstimate, error) {
	flat, k, err := flattenSums(sums)
	if err != nil {
		return nil, err
	}
	if err := checkStatistics(stats, k); err != nil {
		return nil, err
	}
	b, err := resampleCount(opt.Resamples)
	if err != nil {
		return nil, err
	}
	if len(sums) == 0 {
		return noDataEstimates(stats, b), nil
	}
	fs := familySums{g: len(sums), k: k, data: flat}
	var reps [][]float64
	if fs.g >= 2 {
		reps = fs.replicates(stats, b, opt.Seed, opt.Workers)
	}
	out := make([]BootEstimate, len(stats))
	for i, st := range stats {
		var r []float64
		if reps != nil {
			r = reps[i]
		}
		out[i] = fs.estimate(st, r, b)
	}
	return out, nil
}

// noDataEstimates is the answer for zero families: no point, no interval.
func noDataEstimates(stats []BootStatistic, b int) []BootEstimate {
	out := make([]BootEstimate, len(stats))
	for i, st := range stats {
		e := BootEstimate{Statistic: st.Name, Point: math.NaN(), Status: StatusNoData, Resamples: b, BootSE: math.NaN(), SmallG: smallGFlag(0), Primary: PrimaryMethod(0)}
		e.Bounds = familySums{}.bounds(st, &e, nil)
		out[i] = e
	}
	return out
}

func resampleCount(n int) (int, error) {
	switch {
	case n == 0:
		return DefaultResamples, nil
	case n < 0 || n > MaxResamples:
		return 0, fmt.Errorf("%w: resamples %d outside 1..%d", ErrBootInput, n, MaxResamples)
	}
	return n, nil
}

func flattenSums(sums [][]float64) ([]float64, int, error) {
	if len(sums) == 0 {
		return nil, 0, nil
	}
	k := len(sums[0])
	flat := make([]float64, 0, len(sums)*k)
	for f, row := range sums {
		if len(row) != k {
			return nil, 0, fmt.Errorf("%w: family %d has %d sums, family 0 has %d", ErrBootInput, f, len(row), k)
		}
		for c, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, 0, fmt.Errorf("%w: family %d sum %d is %v", ErrBootInput, f, c, v)
			}
		}
		flat = append(flat, row...)
	}
	return flat, k, nil
}

func checkStatistics(stats []BootStatistic, k int) error {
	for _, st := range stats {
		if st.Den < 0 || k > 0 && st.Den >= k {
			return fmt.Errorf("%w: statistic %q: denominator column %d outside 0..%d", ErrBootInput, st.Name, st.Den, k-1)
		}
		for _, t := range st.Num {
			if t.Column < 0 || k > 0 && t.Column >= k {
				return fmt.Errorf("%w: statistic %q: numerator column %d outside 0..%d", ErrBootInput, st.Name, t.Column, k-1)
			}
		}
	}
	return nil
}

// familySums is the G×K matrix of per-family sums, row-major.
type familySums struct {
	g, k int
	data []float64
}

func (fs familySums) row(f int) []float64 { return fs.data[f*fs.k : (f+1)*fs.k] }

// value returns g(T) for one vector T: NaN when the denominator is 0.
func (st *BootStatistic) value(t []float64) float64 {
	den := t[st.Den]
	if den == 0 {
		return math.NaN()
	}
	return st.numerator(t) / den
}

func (st *BootStatistic) numerator(t []float64) float64 {
	num := 0.0
	for _, term := range st.Num {
		if term.Negate {
			num -= t[term.Column]
		} else {
			num += t[term.Column]
		}
	}
	return num
}

// total returns Σ_f s_f in family order.
func (fs familySums) total() []float64 {
	t := make([]float64, fs.k)
	for f := range fs.g {
		for c, v := range fs.row(f) {
			t[c] += v
		}
	}
	return t
}

// replicates returns theta*[stat][b] for b in 0..B−1. Resample b draws G
// indices with a PCG seeded from (seed, b), counts the draws per family and
// adds count × row in family order; workers own disjoint ranges of b and
// write into preallocated slots.
//
// Only the distinct columns that are not zero in every family are summed
// (see compact): a column equal, bit for bit, to another in every family
// has, bit for bit, the same sum, since its sum is the same additions in
// the same order; and a column zero in every family sums to +0, what the
// vector starts at. The replicates are those of summing every column.
func (fs familySums) replicates(stats []BootStatistic, b int, seed uint64, workers int) [][]float64 {
	reps := make([][]float64, len(stats))
	for i := range reps {
		reps[i] = make([]float64, b)
	}
	cs, cstats := fs.compact(stats)
	workers = max(1, min(workers, b))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*b/workers, (w+1)*b/workers
		wg.Go(func() { cs.resampleRange(cstats, reps, lo, hi, seed) })
	}
	wg.Wait()
	return reps
}

// compact returns the matrix of the distinct columns of fs that are not
// zero in every family, and stats with their columns renumbered into it: a
// column equal in every family (by its float64 bits) to an earlier one
// reads that one's, and a column zero in every family reads the column
// one past the last, which resampleRange holds at +0.
func (fs familySums) compact(stats []BootStatistic) (familySums, []BootStatistic) {
	zeroCol := -1 // sentinel: marks a column +0 in every family, pointed at the shared zero column below
	to := make([]int, fs.k)
	var keep []int // original column of each compact column but the last
	for j := range fs.k {
		to[j] = zeroCol
		if fs.zeroColumn(j) {
			continue
		}
		for ci, o := range keep {
			if fs.sameColumn(j, o) {
				to[j] = ci
				break
			}
		}
		if to[j] == zeroCol {
			to[j] = len(keep)
			keep = append(keep, j)
		}
	}
	k := len(keep)
	for j := range to {
		if to[j] == zeroCol {
			to[j] = k
		}
	}
	data := make([]float64, fs.g*k)
	for f := range fs.g {
		row := fs.row(f)
		for ci, o := range keep {
			data[f*k+ci] = row[o]
		}
	}
	out := make([]BootStatistic, len(stats))
	for i, st := range stats {
		out[i] = st
		out[i].Den = to[st.Den]
		out[i].Num = make([]BootTerm, len(st.Num))
		for n, t := range st.Num {
			out[i].Num[n] = BootTerm{Column: to[t.Column], Negate: t.Negate}
		}
	}
	return familySums{g: fs.g, k: k, data: data}, out
}

// zeroColumn reports whether column j is +0 in every family.
func (fs familySums) zeroColumn(j int) bool {
	for f := range fs.g {
		if math.Float64bits(fs.data[f*fs.k+j]) != 0 {
			return false
		}
	}
	return true
}

// sameColumn reports whether columns a and b hold the same float64 bits in
// every family.
func (fs familySums) sameColumn(a, b int) bool {
	for f := range fs.g {
		if math.Float64bits(fs.data[f*fs.k+a]) != math.Float64bits(fs.data[f*fs.k+b]) {
			return false
		}
	}
	return true
}

func (fs familySums) resampleRange(stats []BootStatistic, reps [][]float64, lo, hi int, seed uint64) {
	rr := newResampleRand()
	data, g, k := fs.data, fs.g, fs.k
	t := make([]float64, k+1) // and t[k] stays +0 (see compact)
	counts := make([]int32, g)
	drawn := make([]int32, g) // the families drawn at least once, in family order
	ix := newIndexer(g)
	for b := lo; b < hi; b++ {
		rr.reset(seed, uint64(b))
		clear(t)
		clear(counts)
		for range g {
			counts[ix.draw(rr.pcg)]++
		}
		n := 0
		for f, c := range counts { // without a branch: which families are drawn is random
			drawn[n] = int32(f)
			n += int(uint32(-c) >> 31) // 1 when c > 0
		}
		for _, f := range drawn[:n] {
			w := float64(counts[f])
			row := data[int(f)*k : int(f)*k+k : int(f)*k+k]
			t := t[:len(row)]
			for j := range row {
				t[j] += float64(w * row[j])
			}
		}
		for i := range stats {
			reps[i][b] = stats[i].value(t)
		}
	}
}
