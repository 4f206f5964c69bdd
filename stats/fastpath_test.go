package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// The int64 and uint64 fast paths of lowestRat, Float64, RoundHalfEven
// and TerminatingDigits against the big.Rat and big.Int computations they
// replace, on edge values (zero, signs, the int64 and 2^53 boundaries,
// 32-bit word boundaries) and on values too big for them.

// edgeInt64s are the numerators the tests combine.
var edgeInt64s = func() []int64 {
	xs := []int64{0, 1, 2, 3, 5, 7, 10, 1000, 1<<31 - 1, 1 << 31, 1<<32 - 1, 1 << 32, 1<<32 + 1,
		1<<53 - 1, 1 << 53, 1<<53 + 1, 1<<62 - 1, 1 << 62, 999_999_999_999_999_999,
		math.MaxInt64 - 1, math.MaxInt64}
	for _, x := range append([]int64(nil), xs...) {
		xs = append(xs, -x)
	}
	return append(xs, math.MinInt64, math.MinInt64+1)
}()

// edgeDens are the positive denominators the tests combine.
var edgeDens = []int64{1, 2, 3, 4, 5, 8, 10, 16, 20, 25, 40, 125, 1 << 20, 3 << 20, 1_000_000_000_000,
	1<<31 - 1, 1 << 31, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1<<53 - 1, 1 << 53, 1<<53 + 1,
	1 << 62, 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5 * 5,
	math.MaxInt64 - 1, math.MaxInt64}

// randomPairs are n/d pairs over several magnitudes.
func randomPairs(r *rand.Rand, count int) [][2]int64 {
	var out [][2]int64
	for range count {
		nb, db := r.IntN(64), r.IntN(63)
		n := r.Int64() >> nb
		if r.IntN(2) == 0 {
			n = -n
		}
		d := r.Int64()>>db | 1
		if r.IntN(3) == 0 {
			d = 1 << r.IntN(63)
		}
		out = append(out, [2]int64{n, d})
	}
	return out
}

func allPairs(t *testing.T) [][2]int64 {
	t.Helper()
	var out [][2]int64
	for _, n := range edgeInt64s {
		for _, d := range edgeDens {
			out = append(out, [2]int64{n, d})
		}
	}
	return append(out, randomPairs(rand.New(rand.NewPCG(1, 2)), 20000)...)
}

func sameLowest(a, b *big.Rat) bool {
	return a.Num().Cmp(b.Num()) == 0 && a.Denom().Cmp(b.Denom()) == 0 && a.RatString() == b.RatString()
}

func TestLowestRatMatchesSetFrac64(t *testing.T) {
	for _, p := range allPairs(t) {
		n, d := p[0], p[1]
		got, want := lowestRat(n, d), new(big.Rat).SetFrac64(n, d)
		if !sameLowest(got, want) || got.IsInt() != want.IsInt() || got.Sign() != want.Sign() {
			t.Fatalf("lowestRat(%d, %d) = %s, want %s", n, d, got.RatString(), want.RatString())
		}
		if d1, d2 := got.Denom(), got.Denom(); d1 != d2 { // a reference, not a new Int per call
			t.Fatalf("lowestRat(%d, %d): Denom is not a reference", n, d)
		}
		// The returned value is the caller's to change: arithmetic on it
		// gives what it gives on SetFrac64's value, and a second value of
		// the same fraction is not changed with it.
		other := lowestRat(n, d)
		x := big.NewRat(7, 3)
		got.Add(got, x)
		want.Add(want, x)
		if !sameLowest(got, want) || !sameLowest(other, new(big.Rat).SetFrac64(n, d)) {
			t.Fatalf("lowestRat(%d, %d) + 7/3 = %s, want %s (other %s)", n, d, got.RatString(), want.RatString(), other.RatString())
		}
		got.Num().Neg(got.Num())
		if !sameLowest(other, new(big.Rat).SetFrac64(n, d)) {
			t.Fatalf("lowestRat(%d, %d): changing one result changed another", n, d)
		}
	}
}

// refFloat64 is big.Rat's nearest float64.
func refFloat64(r *big.Rat) float64 { f, _ := r.Float64(); return f }

func TestFloat64MatchesBig(t *testing.T) {
	check := func(r *big.Rat) {
		t.Helper()
		got, want := Float64(r), refFloat64(r)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Float64(%s) = %v (%x), want %v (%x)", r.RatString(), got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
	for _, p := range allPairs(t) {
		check(new(big.Rat).SetFrac64(p[0], p[1]))
	}
	// Ties: odd numerators just above 2^53 over powers of two fall half
	// way between floats.
	for _, n := range []int64{1<<53 + 1, 1<<53 + 3, 1<<54 + 2, 1<<54 + 6, -(1<<53 + 1), 1<<53 - 1} {
		for _, d := range []int64{1, 2, 4, 1 << 53} {
			check(new(big.Rat).SetFrac64(n, d))
		}
	}
	huge, _ := new(big.Rat).SetString("1267650600228229401496703205377/3")
	check(huge)
	check(new(big.Rat).Neg(huge))
	check(new(big.Rat).Inv(huge))
	check(new(big.Rat)) // the zero value
	if f := Float(nil); f != nil {
		t.Fatalf("Float(nil) = %v", *f)
	}
}

func TestRoundHalfEvenMatchesBig(t *testing.T) {
	check := func(r *big.Rat) {
		t.Helper()
		got, gotOK := RoundHalfEven(r)
		want, wantOK := roundHalfEvenBig(r)
		if got != want || gotOK != wantOK {
			t.Fatalf("RoundHalfEven(%s) = %d, %v; want %d, %v", r.RatString(), got, gotOK, want, wantOK)
		}
	}
	for _, p := range allPairs(t) {
		check(new(big.Rat).SetFrac64(p[0], p[1]))
	}
	for _, n := range edgeInt64s { // halves and near-halves of every edge value
		for _, k := range []int64{-3, -1, 1, 3} {
			r := new(big.Rat).SetFrac(new(big.Int).Add(new(big.Int).Mul(big.NewInt(n), big.NewInt(2)), big.NewInt(k)), big.NewInt(2))
			check(r)
		}
	}
	huge, _ := new(big.Rat).SetString("18446744073709551617/2") // beyond int64: falls back, does not fit
	check(huge)
	check(new(big.Rat).Neg(huge))
	check(new(big.Rat).SetFrac(big.NewInt(5), new(big.Int).Lsh(big.NewInt(1), 70)))
	check(new(big.Rat)) // the zero value
}

func TestTerminatingDigitsMatchesBig(t *testing.T) {
	var dens []*big.Int
	for _, d := range append(append([]int64(nil), edgeInt64s...), edgeDens...) {
		dens = append(dens, big.NewInt(d))
	}
	for a := range 64 {
		for b := 0; b < 28; b++ {
			d := new(big.Int).Lsh(big.NewInt(1), uint(a))
			d.Mul(d, new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(b)), nil))
			dens = append(dens, d, new(big.Int).Mul(d, big.NewInt(3)))
		}
	}
	dens = append(dens, new(big.Int).SetUint64(math.MaxUint64), new(big.Int).SetUint64(1<<63))
	// by hand: 1/8 = 0.125, 1/40 = 0.025, 1/625 = 0.0016, 1/1 = 1, 1/3 and
	// 1/6 do not terminate, 2^70 (beyond a uint64) needs 70 digits
	for _, c := range []struct {
		den    *big.Int
		digits int
		ok     bool
	}{{big.NewInt(8), 3, true}, {big.NewInt(40), 3, true}, {big.NewInt(625), 4, true}, {big.NewInt(1), 0, true},
		{big.NewInt(3), 0, false}, {big.NewInt(6), 0, false}, {new(big.Int).Lsh(big.NewInt(1), 70), 70, true}} {
		for _, f := range []func(*big.Int) (int, bool){TerminatingDigits, terminatingDigitsBig} {
			if n, ok := f(c.den); n != c.digits || ok != c.ok {
				t.Errorf("digits of 1/%s = %d, %v; want %d, %v", c.den, n, ok, c.digits, c.ok)
			}
		}
	}
	for _, d := range dens {
		got, gotOK := TerminatingDigits(d)
		want, wantOK := terminatingDigitsBig(d)
		if got != want || gotOK != wantOK {
			t.Fatalf("TerminatingDigits(%s) = %d, %v; want %d, %v", d, got, gotOK, want, wantOK)
		}
	}
}

func TestMedianSortedInt64(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := range 2000 {
		xs := make([]int64, r.IntN(7))
		for i := range xs {
			xs[i] = edgeInt64s[r.IntN(len(edgeInt64s))]
		}
		sorted := slices.Sorted(slices.Values(xs))
		kept := slices.Clone(sorted)
		got, want := MedianSortedInt64(sorted), MedianInt64(xs)
		if (got == nil) != (want == nil) || (got != nil && !sameLowest(got, want)) || !slices.Equal(sorted, kept) {
			t.Fatalf("trial %d: MedianSortedInt64(%v) = %v, want %v", trial, sorted, got, want)
		}
	}
}

func TestFloatStringMatchesBig(t *testing.T) {
	check := func(r *big.Rat) {
		t.Helper()
		for _, prec := range []int{-1, 0, 1, 2, 3, 6, 12, 17, 18, 19, 30} {
			if got, want := FloatString(r, prec), r.FloatString(prec); got != want {
				t.Fatalf("FloatString(%s, %d) = %q, want %q", r.RatString(), prec, got, want)
			}
		}
		if got, want := RatString(r), r.RatString(); got != want {
			t.Fatalf("RatString(%s) = %q", want, got)
		}
	}
	for _, p := range allPairs(t) {
		check(new(big.Rat).SetFrac64(p[0], p[1]))
	}
	// Halves at the last digit, and carries into the integer part.
	for _, s := range []string{"1/8", "-1/8", "5/16", "1/2", "-1/2", "3/2", "-5/2", "1999999999999999999/2000000000000000000",
		"-1999999999999999999/2000000000000000000", "9223372036854775807/9223372036854775806", "1/3", "-2/3",
		"18446744073709551617/2", "1/18446744073709551617"} {
		r, _ := new(big.Rat).SetString(s)
		check(r)
	}
	check(new(big.Rat)) // the zero value
}

func TestGCDMatchesBig(t *testing.T) {
	var vals []uint64
	for _, x := range edgeInt64s {
		vals = append(vals, absUint64(x))
	}
	vals = append(vals, math.MaxUint64, math.MaxUint64-1, 1<<63+1, 6, 10, 12, 100, 1_000_000_000_000)
	r := rand.New(rand.NewPCG(15, 16))
	for range 2000 {
		vals = append(vals, r.Uint64()>>r.IntN(64))
	}
	for i, a := range vals {
		for _, b := range vals[:min(len(vals), i+60)] {
			want := new(big.Int).GCD(nil, nil, new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
			if got := gcd(a, b); got != want.Uint64() || gcd(b, a) != got {
				t.Fatalf("gcd(%d, %d) = %d, want %s", a, b, got, want)
			}
		}
	}
}
