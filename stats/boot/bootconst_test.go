package boot

import (
	"math"
	"testing"
)

// tTwoSided is P(|T| ≤ t) for Student's t with df degrees of freedom by the
// finite series of Abramowitz & Stegun 26.7.3/26.7.4 — an independent
// computation from the incomplete beta the generator uses.
func tTwoSided(t float64, df int) float64 {
	theta := math.Atan(t / math.Sqrt(float64(df)))
	s, c := math.Sin(theta), math.Cos(theta)
	c2 := c * c
	if df%2 == 0 {
		term, sum := 1.0, 1.0
		for k := 1; k <= (df-2)/2; k++ {
			term *= float64(2*k-1) / float64(2*k) * c2
			sum += term
		}
		return s * sum
	}
	if df == 1 {
		return 2 * theta / math.Pi
	}
	term, sum := c, c
	for k := 1; k <= (df-3)/2; k++ {
		term *= float64(2*k) / float64(2*k+1) * c2
		sum += term
	}
	return 2 / math.Pi * (theta + s*sum)
}

func TestTQuantile975ClosedForms(t *testing.T) {
	// df=1: tan(π(p−½)); df=2: (2p−1)/sqrt(2p(1−p)) at p=0.975.
	cases := []struct {
		name string
		df   int
		want float64
	}{
		{"df1_cauchy", 1, math.Tan(math.Pi * 0.475)},
		{"df2", 2, 0.95 / math.Sqrt(2*0.975*0.025)},
		{"df10_textbook", 10, 2.228138851986274},
		{"df30_textbook", 30, 2.042272456301238},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := TQuantile975(c.df); math.Abs(got-c.want) > 1e-12*c.want {
				t.Errorf("TQuantile975(%d) = %.17g, want %.17g", c.df, got, c.want)
			}
		})
	}
	t.Run("df0_is_nan", func(t *testing.T) {
		if !math.IsNaN(TQuantile975(0)) {
			t.Error("TQuantile975(0) is not NaN")
		}
	})
}

// Every tabled and expanded quantile leaves 0.95 between ±t.
func TestTQuantile975Coverage(t *testing.T) {
	dfs := []int{}
	for df := 1; df <= bootTableMaxDF; df++ {
		dfs = append(dfs, df)
	}
	dfs = append(dfs, 1001, 1500, 5000) // the float64 series loses digits beyond
	for _, df := range dfs {
		if got := tTwoSided(TQuantile975(df), df); math.Abs(got-0.95) > 1e-12 {
			t.Errorf("df=%d: P(|T| ≤ %.17g) = %.17g, want 0.95", df, TQuantile975(df), got)
		}
	}
}

func TestCornishFisherMatchesTableAtEdge(t *testing.T) {
	for _, df := range []int{400, 700, bootTableMaxDF} {
		cf := cornishFisherT(bootZ0, float64(df))
		if math.Abs(cf-bootT975[df]) > 1e-13 {
			t.Errorf("df=%d: Cornish–Fisher %.17g, table %.17g", df, cf, bootT975[df])
		}
	}
}

func TestExpandedLowerP(t *testing.T) {
	ref := func(g int) float64 {
		x := TQuantile975(g-1) * math.Sqrt(float64(g)/float64(g-1))
		return 0.5 * math.Erfc(x/math.Sqrt2)
	}
	gs := []int{2, 3, 4, 5, 8, 20, 100, 1001, 1002, 2000, 10000, 1000000}
	for _, g := range gs {
		got, want := ExpandedLowerP(g), ref(g)
		if math.Abs(got-want) > 1e-10*want {
			t.Errorf("ExpandedLowerP(%d) = %.17g, want %.17g", g, got, want)
		}
	}
	t.Run("notes_value_at_G4", func(t *testing.T) {
		// Statistics notes §2.2: at G=4 the expanded lower probability is 0.000119.
		if got := ExpandedLowerP(4); math.Abs(got-0.000119) > 0.0000005 {
			t.Errorf("ExpandedLowerP(4) = %v, want ≈0.000119", got)
		}
	})
	t.Run("tends_to_0025", func(t *testing.T) {
		if got := ExpandedLowerP(1 << 30); math.Abs(got-0.025) > 1e-9 { // differs by ≈φ(z0)·(z0³+3z0)/(4G)
			t.Errorf("ExpandedLowerP(2^30) = %.17g, want ≈0.025", got)
		}
	})
	t.Run("g1_is_nan", func(t *testing.T) {
		if !math.IsNaN(ExpandedLowerP(1)) {
			t.Error("ExpandedLowerP(1) is not NaN")
		}
	})
}
