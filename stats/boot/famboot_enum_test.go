package boot

import (
	"cmp"
	"math"
	"slices"
	"testing"
)

// atom is one value of the exact bootstrap distribution and its probability.
type atom struct{ theta, p float64 }

// exactBootstrap enumerates every multiset of G families (counts c with
// Σc = G), each with multinomial probability G!/∏c_i!/G^G, and returns the
// distribution of ΣcY/ΣcX with equal values (within 1e-12) merged.
func exactBootstrap(y, x []float64) []atom {
	g := len(y)
	var atoms []atom
	counts := make([]int, g)
	var rec func(i, left int)
	rec = func(i, left int) {
		if i == g-1 {
			counts[i] = left
			p := factorial(g) / math.Pow(float64(g), float64(g))
			num, den := 0.0, 0.0
			for j, c := range counts {
				p /= factorial(c)
				num += float64(c) * y[j]
				den += float64(c) * x[j]
			}
			atoms = append(atoms, atom{num / den, p})
			return
		}
		for c := 0; c <= left; c++ {
			counts[i] = c
			rec(i+1, left-c)
		}
	}
	rec(0, g)
	slices.SortFunc(atoms, func(a, b atom) int { return cmp.Compare(a.theta, b.theta) })
	var merged []atom
	for _, a := range atoms {
		if n := len(merged); n > 0 && math.Abs(merged[n-1].theta-a.theta) <= 1e-12 {
			merged[n-1].p += a.p
			continue
		}
		merged = append(merged, a)
	}
	return merged
}

func factorial(n int) float64 {
	f := 1.0
	for i := 2; i <= n; i++ {
		f *= float64(i)
	}
	return f
}

// exactQuantileAtom returns the smallest atom whose CDF reaches q and the
// distance of q from the CDF steps on either side of it.
func exactQuantileAtom(atoms []atom, q float64) (theta, margin float64) {
	cdf := 0.0
	for _, a := range atoms {
		prev := cdf
		cdf += a.p
		if cdf >= q {
			return a.theta, min(q-prev, cdf-q)
		}
	}
	return math.NaN(), 0
}

// The sampled plain-percentile endpoints (B = 200,000) equal the exact
// bootstrap distribution's 2.5% and 97.5% atoms (statistics notes §5.1).
// Data are chosen so that the CDF steps are ≥ 0.003 away from 0.025 and
// 0.975, where a sampled type-7 quantile falls on the atom with
// overwhelming probability.
func TestExactEnumeration(t *testing.T) {
	cases := []struct {
		name string
		y, x []float64
	}{
		{"g4", []float64{-0.5, 0.25, 0.75, 1.5}, []float64{2, 1, 3, 2}},
		{"g5", []float64{0.22, 0.62, -0.82, -0.56, 0.62}, []float64{2, 1, 2, 3, 1}},
		// At G=6 the CDF steps are small; tied family values keep 49 atoms
		// with steps wide enough.
		{"g6_ties", []float64{0, 0, 0, 0, 1, 2}, []float64{1, 1, 2, 1, 2, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			atoms := exactBootstrap(c.y, c.x)
			total := 0.0
			for _, a := range atoms {
				total += a.p
			}
			if math.Abs(total-1) > 1e-12 {
				t.Fatalf("total probability %v, want 1", total)
			}
			lo, mlo := exactQuantileAtom(atoms, 0.025)
			hi, mhi := exactQuantileAtom(atoms, 0.975)
			if mlo < 0.003 || mhi < 0.003 {
				t.Fatalf("data too close to a CDF step (margins %v, %v): pick other data", mlo, mhi)
			}
			sums := make([][]float64, len(c.y))
			for i := range c.y {
				sums[i] = []float64{c.y[i], c.x[i]}
			}
			e := mustBoot(t, sums, []BootStatistic{macroStat("m", 0, 1)}, BootOptions{Resamples: 200000, Seed: 20241101, Workers: 2})[0]
			pct := e.Bounds[2]
			if !near(pct.Lo, lo) || !near(pct.Hi, hi) {
				t.Errorf("percentile [%v, %v], exact atoms [%v, %v]", pct.Lo, pct.Hi, lo, hi)
			}
			t.Logf("%d atoms; exact 2.5%%/97.5%% atoms %.12g / %.12g", len(atoms), lo, hi)
		})
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(b)) }
