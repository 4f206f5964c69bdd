package boot

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// macroStat is Σ col num / Σ col den, e.g. Σ task medians / Σ tasks.
func macroStat(name string, num, den int) BootStatistic {
	return BootStatistic{Name: name, Num: []BootTerm{{Column: num}}, Den: den}
}

// diffStat is (Σ b − Σ a)/Σ den.
func diffStat(name string, b, a, den int) BootStatistic {
	return BootStatistic{Name: name, Num: []BootTerm{{Column: b}, {Column: a, Negate: true}}, Den: den}
}

func mustBoot(t testing.TB, sums [][]float64, st []BootStatistic, opt BootOptions) []BootEstimate {
	t.Helper()
	est, err := FamilyBootstrap(sums, st, opt)
	if err != nil {
		t.Fatalf("FamilyBootstrap: %v", err)
	}
	return est
}

// One case per row of the degenerate-case table (statistics notes §3).
func TestFamilyBootstrapStatuses(t *testing.T) {
	rate := BootStatistic{Name: "rate", Num: []BootTerm{{Column: 0}}, Den: 1, Rate: true}
	cases := []struct {
		name   string
		sums   [][]float64 // columns: num, den
		stat   BootStatistic
		status BootStatus
		smallG string
	}{
		{"no_families", nil, macroStat("m", 0, 1), StatusNoData, SmallGVeryFew},
		{"families_carry_nothing", [][]float64{{0, 0}, {0, 0}}, macroStat("m", 0, 1), StatusNoData, SmallGVeryFew},
		{"one_family", [][]float64{{1.5, 2}}, macroStat("m", 0, 1), StatusTooFewFamilies, SmallGVeryFew},
		{"one_carrying_family_of_three", [][]float64{{0, 0}, {1, 2}, {0, 0}}, macroStat("m", 0, 1), StatusTooFewFamilies, SmallGVeryFew},
		{"zero_denominator", [][]float64{{1, 0}, {2, 0}}, macroStat("m", 0, 1), StatusUndefinedStatistic, SmallGVeryFew},
		{"all_families_equal", [][]float64{{0.5, 1}, {1, 2}, {1.5, 3}}, macroStat("m", 0, 1), StatusDegenerate, SmallGVeryFew},
		{"thirds_equal_up_to_rounding", [][]float64{{1.0 / 3, 1}, {1.0/3 + 1.0/3 + 1.0/3, 3}, {2.0 / 3, 2}}, macroStat("m", 0, 1), StatusDegenerate, SmallGVeryFew},
		{"some_resample_denominators_zero", [][]float64{{1, 1}, {2, 0}, {3, 2}}, macroStat("m", 0, 1), StatusUndefinedResamples, SmallGVeryFew},
		{"rate_without_events", [][]float64{{0, 2}, {0, 2}, {0, 1}}, rate, StatusNoEvents, SmallGVeryFew},
		{"ok_very_few", [][]float64{{0.1, 1}, {0.5, 1}, {0.9, 1}}, macroStat("m", 0, 1), StatusOK, SmallGVeryFew},
		{"ok_few", tenFamilies()[:6], macroStat("m", 0, 1), StatusOK, SmallGFew},
		{"ok_enough", tenFamilies(), macroStat("m", 0, 1), StatusOK, SmallGNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := mustBoot(t, c.sums, []BootStatistic{c.stat}, BootOptions{Resamples: 500, Seed: 1})[0]
			if e.Status != c.status {
				t.Errorf("status = %s, want %s", e.Status, c.status)
			}
			if e.SmallG != c.smallG {
				t.Errorf("small-G flag = %s, want %s", e.SmallG, c.smallG)
			}
			for _, b := range e.Bounds {
				hasBounds := !math.IsNaN(b.Lo) && !math.IsNaN(b.Hi)
				if hasBounds != (c.status == StatusOK) {
					t.Errorf("%s: bounds [%v, %v] with status %s", b.Method, b.Lo, b.Hi, e.Status)
				}
			}
		})
	}
}

func tenFamilies() [][]float64 {
	return [][]float64{{0.1, 1}, {0.5, 1}, {0.9, 1}, {1.2, 2}, {0.3, 1}, {2.1, 3}, {0.7, 1}, {0.2, 1}, {1.0, 2}, {0.6, 1}}
}

func TestFamilyBootstrapRejectsBadInput(t *testing.T) {
	cases := []struct {
		name string
		sums [][]float64
		stat BootStatistic
		opt  BootOptions
	}{
		{"nan_sum", [][]float64{{math.NaN(), 1}, {1, 1}}, macroStat("m", 0, 1), BootOptions{}},
		{"inf_sum", [][]float64{{math.Inf(1), 1}, {1, 1}}, macroStat("m", 0, 1), BootOptions{}},
		{"ragged_rows", [][]float64{{1, 1}, {1}}, macroStat("m", 0, 1), BootOptions{}},
		{"den_column_out_of_range", [][]float64{{1, 1}, {1, 1}}, macroStat("m", 0, 2), BootOptions{}},
		{"num_column_negative", [][]float64{{1, 1}, {1, 1}}, macroStat("m", -1, 1), BootOptions{}},
		{"negative_resamples", [][]float64{{1, 1}, {1, 1}}, macroStat("m", 0, 1), BootOptions{Resamples: -1}},
		{"too_many_resamples", [][]float64{{1, 1}, {1, 1}}, macroStat("m", 0, 1), BootOptions{Resamples: MaxResamples + 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FamilyBootstrap(c.sums, []BootStatistic{c.stat}, c.opt)
			if !errors.Is(err, ErrBootInput) {
				t.Errorf("err = %v, want ErrBootInput", err)
			}
		})
	}
}

// goldenData is a fixed dataset of 7 families × (n, ΣA, ΣB, costA, costB).
func goldenData() ([][]float64, []BootStatistic) {
	sums := [][]float64{
		{2, 1.25, 1.5, 10, 12}, {1, 0.5, 0.75, 4, 3}, {3, 2, 2.5, 9, 13},
		{1, 0.25, 0.5, 5, 5}, {2, 1, 1.75, 8, 11}, {1, 1, 0.75, 2, 3}, {2, 0.5, 1, 7, 6},
	}
	st := []BootStatistic{
		macroStat("macro_a", 1, 0), macroStat("macro_b", 2, 0),
		diffStat("diff", 2, 1, 0), macroStat("cost_ratio", 4, 3),
	}
	return sums, st
}

func replicateDigest(reps [][]float64) string {
	h := sha256.New()
	for _, r := range reps {
		for _, v := range r {
			h.Write(strconv.AppendFloat(nil, v, 'x', -1, 64))
			h.Write([]byte{'\n'})
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestReplicatesIndependentOfWorkers(t *testing.T) {
	sums, st := goldenData()
	fs := familySums{g: len(sums), k: len(sums[0]), data: slices.Concat(sums...)}
	want := replicateDigest(fs.replicates(st, 3001, 20241101, 1))
	for _, w := range []int{2, 8, 5000} {
		t.Run(fmt.Sprintf("workers_%d", w), func(t *testing.T) {
			if got := replicateDigest(fs.replicates(st, 3001, 20241101, w)); got != want {
				t.Errorf("digest with %d workers %s, with 1 worker %s", w, got, want)
			}
		})
	}
}

// The golden digest pins the replicate bytes for seed 20241101: any change
// to seeding, draw order or accumulation must bump BootAlgorithmVersion and
// this value together.
func TestReplicatesGolden(t *testing.T) {
	const want = "f468779c746fe892e917857f7bcde792cb5ff9fd13d0f4a8d1dc61bb3020a429"
	sums, st := goldenData()
	fs := familySums{g: len(sums), k: len(sums[0]), data: slices.Concat(sums...)}
	if got := replicateDigest(fs.replicates(st, 1000, 20241101, 2)); got != want {
		t.Errorf("replicate digest = %s, want %s", got, want)
	}
}

// TestReplicatesFollowSpec recomputes a few resamples straight from the
// notes' pseudo-code (the counts variant): fresh PCG from ResampleSeeds, G
// draws of IntN(G) counted per family, then Σ float64(count·row) in family
// order, every statistic from the same T*.
func TestReplicatesFollowSpec(t *testing.T) {
	sums, st := goldenData()
	fs := familySums{g: len(sums), k: len(sums[0]), data: slices.Concat(sums...)}
	reps := fs.replicates(st, 50, 99, 3)
	for _, b := range []int{0, 1, 17, 49} {
		r := rand.New(rand.NewPCG(ResampleSeeds(99, uint64(b))))
		counts := make([]float64, len(sums))
		for range len(sums) {
			counts[r.IntN(len(sums))]++
		}
		var n, sa, sb, ca, cb float64
		for f, row := range sums {
			c := counts[f]
			n, sa, sb = n+float64(c*row[0]), sa+float64(c*row[1]), sb+float64(c*row[2])
			ca, cb = ca+float64(c*row[3]), cb+float64(c*row[4])
		}
		want := []float64{sa / n, sb / n, (sb - sa) / n, cb / ca}
		for i := range st {
			if reps[i][b] != want[i] {
				t.Errorf("resample %d %s = %v, want %v", b, st[i].Name, reps[i][b], want[i])
			}
		}
	}
}

// Arms share one family multiset per resample: a statistic on a copy of
// column A equals the statistic on A in every resample, and the paired
// difference equals B − A computed from the same draw.
func TestArmsShareResample(t *testing.T) {
	sums := [][]float64{{1, 0.2, 0.2, 0.9}, {2, 1.1, 1.1, 1.0}, {1, 0.7, 0.7, 0.1}, {3, 2.0, 2.0, 2.5}}
	st := []BootStatistic{macroStat("a", 1, 0), macroStat("a_copy", 2, 0), diffStat("b_minus_a", 3, 1, 0)}
	fs := familySums{g: 4, k: 4, data: slices.Concat(sums...)}
	reps := fs.replicates(st, 2000, 5, 2)
	if !slices.Equal(reps[0], reps[1]) {
		t.Error("the two copies of arm A got different replicates: arms were resampled independently")
	}
}

func TestEstimateDoesNotDependOnWorkers(t *testing.T) {
	sums, st := goldenData()
	one := mustBoot(t, sums, st, BootOptions{Resamples: 2000, Seed: 3, Workers: 1})
	for _, w := range []int{2, 8} {
		got := mustBoot(t, sums, st, BootOptions{Resamples: 2000, Seed: 3, Workers: w})
		if fmt.Sprint(got) != fmt.Sprint(one) {
			t.Errorf("workers=%d: %v, want %v", w, got, one)
		}
	}
}

// Hand-computed point estimates and CR1 bounds for three families.
func TestPointAndCR1(t *testing.T) {
	// Families (Y, X) = (1,2), (2,2), (6,4): θ̂ = 9/8 = 1.125.
	// Residuals Y − θ̂X: 1−2.25 = −1.25, 2−2.25 = −0.25, 6−4.5 = 1.5;
	// Σ² = 1.5625+0.0625+2.25 = 3.875; SE = sqrt(3/2·3.875)/8 = sqrt(5.8125)/8.
	sums := [][]float64{{1, 2}, {2, 2}, {6, 4}}
	e := mustBoot(t, sums, []BootStatistic{macroStat("m", 0, 1)}, BootOptions{Resamples: 1000, Seed: 1})[0]
	if e.Point != 1.125 {
		t.Errorf("point = %v, want 1.125", e.Point)
	}
	se := math.Sqrt(5.8125) / 8
	t2 := 4.302652729749464 // t_{0.975,2}
	lo, hi := e.Bounds[1].Lo, e.Bounds[1].Hi
	if math.Abs(lo-(1.125-t2*se)) > 1e-12 || math.Abs(hi-(1.125+t2*se)) > 1e-12 {
		t.Errorf("cr1_t = [%v, %v], want 1.125 ∓ %v", lo, hi, t2*se)
	}
	// Expanded percentile at G=3 is essentially the range of family values
	// [0.5, 1.5] (p = ExpandedLowerP(3) ≈ 1e-4 < 1/27 per single-family resample).
	if got := e.Bounds[0]; got.Lo != 0.5 || got.Hi != 1.5 {
		t.Errorf("expanded = [%v, %v], want [0.5, 1.5]", got.Lo, got.Hi)
	}
	p := 3.5
	e = mustBoot(t, sums, []BootStatistic{{Name: "m", Num: []BootTerm{{Column: 0}}, Den: 1, Point: &p}}, BootOptions{Resamples: 10})[0]
	if e.Point != 3.5 {
		t.Errorf("caller's point = %v, want 3.5", e.Point)
	}
}

func FuzzFamilyBootstrap(f *testing.F) {
	f.Add(1.0, 2.0, 0.0, 1.0, -3.0, 0.5, uint8(3), uint64(7))
	f.Add(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, uint8(1), uint64(0))
	f.Fuzz(func(t *testing.T, a, b, c, d, e, g float64, nfam uint8, seed uint64) {
		vals := []float64{a, b, c, d, e, g}
		var sums [][]float64
		for i := range int(nfam % 8) {
			sums = append(sums, []float64{vals[i%6], vals[(i+1)%6], vals[(i+2)%6]})
		}
		st := []BootStatistic{macroStat("m", 0, 1), diffStat("d", 2, 0, 1), {Name: "r", Num: []BootTerm{{Column: 2}}, Den: 1, Rate: true}}
		est, err := FamilyBootstrap(sums, st, BootOptions{Resamples: 50, Seed: seed, Workers: 2})
		if err != nil {
			return
		}
		for _, x := range est {
			if len(x.Bounds) != len(BootMethods) {
				t.Fatalf("%d bounds, want %d", len(x.Bounds), len(BootMethods))
			}
			if x.Status == StatusOK && (math.IsNaN(x.Bounds[0].Lo) || x.Bounds[0].Lo > x.Bounds[0].Hi) {
				t.Fatalf("ok status with bounds [%v, %v]", x.Bounds[0].Lo, x.Bounds[0].Hi)
			}
		}
	})
}

// TestReplicatesFollowSpecInexact repeats the spec check on values that
// are not exact binary fractions (0.1, 0.7, ...), where the accumulation
// order shows in the last bits: the replicates must equal the counts
// variant bit for bit.
func TestReplicatesFollowSpecInexact(t *testing.T) {
	sums := [][]float64{{1, 0.1, 0.7}, {2, 0.3, 1.1}, {1, 0.7, 0.2}, {3, 2.9, 0.3}, {1, 0.6, 0.9}}
	st := []BootStatistic{macroStat("macro_a", 1, 0), macroStat("macro_b", 2, 0)}
	fs := familySums{g: len(sums), k: len(sums[0]), data: slices.Concat(sums...)}
	reps := fs.replicates(st, 200, 7, 2)
	for b := range 200 {
		r := rand.New(rand.NewPCG(ResampleSeeds(7, uint64(b))))
		counts := make([]float64, len(sums))
		for range len(sums) {
			counts[r.IntN(len(sums))]++
		}
		var n, sa, sb float64
		for f, row := range sums {
			n, sa, sb = n+float64(counts[f]*row[0]), sa+float64(counts[f]*row[1]), sb+float64(counts[f]*row[2])
		}
		if reps[0][b] != sa/n || reps[1][b] != sb/n {
			t.Fatalf("resample %d = %v, %v; counts variant gives %v, %v", b, reps[0][b], reps[1][b], sa/n, sb/n)
		}
	}
}

// TestPrimarySwitchAndClipping: at G = 4 the primary interval is the
// cluster t interval; a rate of 15/16 over families (4/4, 4/4, 3/4, 4/4)
// has CR1 SE sqrt(4/3 · (3·0.25² + 0.75²))/16 = 1/16, so t_{0.975,3}·SE
// puts the upper bound at 0.9375 + 3.1824…/16 ≈ 1.136: with the range
// [0, 1] it is clipped to 1 and flagged, the lower bound is untouched and
// the range-preserving percentile methods are not flagged.
func TestPrimarySwitchAndClipping(t *testing.T) {
	for g, want := range map[int]BootMethod{0: MethodCR1T, 2: MethodCR1T, 4: MethodCR1T, 5: MethodCR1T,
		SwitchBelowFamilies: MethodExpandedPercentile, 20: MethodExpandedPercentile} {
		if got := PrimaryMethod(g); got != want {
			t.Errorf("PrimaryMethod(%d) = %s, want %s", g, got, want)
		}
	}
	sums := [][]float64{{4, 4}, {4, 4}, {3, 4}, {4, 4}}
	rate := BootStatistic{Name: "rate", Num: []BootTerm{{Column: 0}}, Den: 1, Rate: true}
	bounded := rate
	bounded.Range = &[2]float64{0, 1}
	est := mustBoot(t, sums, []BootStatistic{rate, bounded}, BootOptions{Resamples: 2000, Seed: 3})
	raw, clipped := est[0], est[1]
	if clipped.Primary != MethodCR1T || clipped.Status != StatusOK {
		t.Fatalf("primary %s status %s, want cr1_t ok", clipped.Primary, clipped.Status)
	}
	lo, hi := 0.9375-3.1824463052837095/16, 0.9375+3.1824463052837095/16
	if r := raw.Bounds[1]; math.Abs(r.Lo-lo) > 1e-12 || math.Abs(r.Hi-hi) > 1e-12 || r.Clipped {
		t.Errorf("unclipped cr1_t = [%v, %v] clipped=%v, want [%v, %v] false", r.Lo, r.Hi, r.Clipped, lo, hi)
	}
	if c := clipped.Bounds[1]; math.Abs(c.Lo-lo) > 1e-12 || c.Hi != 1 || !c.Clipped {
		t.Errorf("clipped cr1_t = [%v, %v] clipped=%v, want [%v, 1] true", c.Lo, c.Hi, c.Clipped, lo)
	}
	for _, i := range []int{0, 2} {
		if b := clipped.Bounds[i]; b.Clipped || b.Lo < 0.75 || b.Hi > 1 {
			t.Errorf("%s = [%v, %v] clipped=%v: a percentile interval stays inside the family values", b.Method, b.Lo, b.Hi, b.Clipped)
		}
	}
}

// TestReplicatesSumDistinctColumns: replicates sums only the distinct
// columns that are not zero everywhere (familySums.compact), and must give
// the bits of summing every column in family order. The matrix has copies
// of a column, columns of +0, a column of −0, a column zero in all but one
// family, negative and inexact values, and statistics reading each kind.
func TestReplicatesSumDistinctColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const g = 37
	sums := make([][]float64, g)
	for f := range sums {
		a, b := float64(1+r.IntN(3)), r.Float64()*7-2
		lone := 0.0
		if f == 20 {
			lone = 0.1
		}
		sums[f] = []float64{a, b, 0, b, math.Copysign(0, -1), a, lone, b * 0.3, 0}
	}
	st := []BootStatistic{
		macroStat("b", 1, 0), macroStat("b_copy", 3, 5), diffStat("b_minus_copy", 1, 3, 0),
		macroStat("zero_num", 2, 0), macroStat("neg_zero", 4, 0), macroStat("lone", 6, 0),
		diffStat("inexact", 7, 8, 5), macroStat("zero_den", 1, 8),
	}
	fs := familySums{g: g, k: len(sums[0]), data: slices.Concat(sums...)}
	got := fs.replicates(st, 500, 11, 2)
	// the sum of every column, as before the compaction
	tv := make([]float64, fs.k)
	counts := make([]int32, g)
	for b := range 500 {
		rr := newResampleRand()
		rr.reset(11, uint64(b))
		clear(tv)
		clear(counts)
		ix := newIndexer(g)
		for range g {
			counts[ix.draw(rr.pcg)]++
		}
		for f, c := range counts {
			if c == 0 {
				continue
			}
			for j, v := range fs.row(f) {
				tv[j] += float64(float64(c) * v)
			}
		}
		for i := range st {
			want := st[i].value(tv)
			if math.Float64bits(got[i][b]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(got[i][b])) {
				t.Fatalf("resample %d %s = %v (%#x), summing every column gives %v (%#x)", b, st[i].Name, got[i][b], math.Float64bits(got[i][b]), want, math.Float64bits(want))
			}
		}
	}
	cs, _ := fs.compact(st)
	if cs.k != 5 { // a, b, −0, lone, b·0.3
		t.Errorf("compact keeps %d columns, want 5", cs.k)
	}
}
