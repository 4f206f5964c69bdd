package boot

import "math"

// BootLevel is the nominal level of every exploratory interval. The tabled
// constants in bootconst_table.go are for this level only.
const BootLevel = 0.95

// bootAlphaHalf is (1 − BootLevel)/2, the plain percentile's lower probability.
const bootAlphaHalf = 0.025

// TQuantile975 returns Student's t quantile at 0.975 with df ≥ 1 degrees of
// freedom: tabled for df ≤ 1000, and beyond that the Cornish–Fisher
// expansion (Abramowitz & Stegun 26.7.5) to order df⁻⁴, whose error there is
// below 1e-14. It returns NaN for df < 1.
func TQuantile975(df int) float64 {
	switch {
	case df < 1:
		return math.NaN()
	case df <= bootTableMaxDF:
		return bootT975[df]
	}
	return cornishFisherT(bootZ0, float64(df))
}

// cornishFisherT evaluates t ≈ z + g1/ν + g2/ν² + g3/ν³ + g4/ν⁴ with every
// product rounded on its own (no fused multiply-add).
func cornishFisherT(z, nu float64) float64 {
	z2 := float64(z * z)
	g1 := float64(z*(z2+1)) / 4
	g2 := float64(z*poly(z2, 3, 16, 5)) / 96
	g3 := float64(z*poly(z2, -15, 17, 19, 3)) / 384
	g4 := float64(z*poly(z2, -945, -1920, 1482, 776, 79)) / 92160
	inv := 1 / nu
	// Horner in 1/ν: z + inv·(g1 + inv·(g2 + inv·(g3 + inv·g4))).
	acc := g4
	for _, g := range []float64{g3, g2, g1} {
		acc = g + float64(inv*acc)
	}
	return z + float64(inv*acc)
}

// poly evaluates c[0] + c[1]·x + c[2]·x² + … by Horner's rule without FMA.
func poly(x float64, c ...float64) float64 {
	acc := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		acc = c[i] + float64(x*acc)
	}
	return acc
}

// ExpandedLowerP returns the lower probability of Hesterberg's expanded
// percentile interval for g families at level 0.95:
// p = Φ(−t_{0.975,g−1}·sqrt(g/(g−1))), so that the percentile interval of a
// mean has the width of the t interval on g−1 degrees of freedom. The upper
// probability is 1 − p. Tabled for g ≤ 1001; beyond, a Taylor series of
// the normal tail around bootZ0 (|x − z0| < 0.004 there). NaN for g < 2.
func ExpandedLowerP(g int) float64 {
	switch {
	case g < 2:
		return math.NaN()
	case g-1 <= bootTableMaxDF:
		return bootExpandedP[g-1]
	}
	x := TQuantile975(g-1) * math.Sqrt(float64(g)/float64(g-1))
	return upperNormalNearZ0(x)
}

// upperNormalNearZ0 returns Q(x) = 1 − Φ(x) for x close to bootZ0:
// Q(z0+d) = Q(z0) − φ(z0)·Σ_{n≥1} (−1)^{n−1} He_{n−1}(z0) dⁿ/n!, with the
// probabilists' Hermite polynomials He. Ten terms are exact to 1e-17 for
// |d| < 0.01.
func upperNormalNearZ0(x float64) float64 {
	d := x - bootZ0
	// He_0 = 1, He_1 = z, He_{k+1} = z·He_k − k·He_{k−1}.
	hePrev, he := 0.0, 1.0
	term, sum := 1.0, 0.0 // term = dⁿ/n!
	sign := 1.0
	for n := 1; n <= 10; n++ {
		term = float64(term*d) / float64(n)
		sum += float64(sign * float64(he*term))
		// advance He_{n−1} → He_n
		hePrev, he = he, float64(bootZ0*he)-float64(float64(n-1)*hePrev)
		sign = -sign
	}
	return bootQZ0 - float64(bootPhiZ0*sum)
}
