package stats

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The int64 fast paths of Sum, Mean, Ratio and Cmp against plain big.Rat
// arithmetic, computed independently here: the expected values never come
// from the code under test.

func refSum(xs []*big.Rat) *big.Rat {
	total := new(big.Rat)
	for _, x := range xs {
		total.Add(total, x)
	}
	return total
}

func refMean(xs []*big.Rat) *big.Rat {
	m := refSum(xs)
	return m.Quo(m, new(big.Rat).SetInt64(int64(len(xs))))
}

// sameRat fails unless got is want in lowest terms with the same sign:
// numerator and denominator equal as integers, not only as values.
func sameRat(t *testing.T, what string, got, want *big.Rat) {
	t.Helper()
	if got == nil || want == nil {
		if got != want {
			t.Fatalf("%s = %v, want %v", what, got, want)
		}
		return
	}
	if got.Num().Cmp(want.Num()) != 0 || got.Denom().Cmp(want.Denom()) != 0 || got.RatString() != want.RatString() {
		t.Fatalf("%s = %s, want %s", what, got.RatString(), want.RatString())
	}
	// The result is a usable big.Rat: arithmetic on it agrees too.
	if d := new(big.Rat).Sub(got, want); d.Sign() != 0 {
		t.Fatalf("%s - want = %s", what, d.RatString())
	}
}

// checkAll compares every fast path on xs with big.Rat, and that the input
// is left as it was.
func checkAll(t *testing.T, xs []*big.Rat) {
	t.Helper()
	before := make([]string, len(xs))
	for i, x := range xs {
		before[i] = x.RatString()
	}
	sum := Sum(xs)
	sameRat(t, fmt.Sprintf("Sum(%v)", xs), sum, refSum(xs))
	if len(xs) > 0 {
		sameRat(t, fmt.Sprintf("Mean(%v)", xs), Mean(xs), refMean(xs))
		sum.Add(sum, big.NewRat(1, 3)) // the result is the caller's, never an input
	}
	for i, x := range xs {
		if x.RatString() != before[i] {
			t.Fatalf("input %d changed from %s to %s", i, before[i], x.RatString())
		}
	}
	for i := 1; i < len(xs); i++ {
		x, y := xs[i-1], xs[i]
		if got, want := Cmp(x, y), x.Cmp(y); got != want {
			t.Fatalf("Cmp(%s, %s) = %d, want %d", x.RatString(), y.RatString(), got, want)
		}
		if got, want := Cmp(x, x), 0; got != want {
			t.Fatalf("Cmp(%s, itself) = %d", x.RatString(), got)
		}
		var want *big.Rat
		if y.Sign() > 0 {
			want = new(big.Rat).Quo(x, y)
		}
		sameRat(t, fmt.Sprintf("Ratio(%s, %s)", x.RatString(), y.RatString()), Ratio(x, y), want)
	}
}

// edges are values at the int64 limits and beyond them.
func edges() []*big.Rat {
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	two63 := new(big.Int).Lsh(big.NewInt(1), 63)
	return []*big.Rat{
		new(big.Rat), // the zero value: denominator 1 without a stored word
		big.NewRat(0, 7),
		big.NewRat(1, 1),
		big.NewRat(-1, 1),
		big.NewRat(1, 2),
		big.NewRat(-1, 2),
		big.NewRat(math.MaxInt64, 1),
		big.NewRat(math.MinInt64, 1),
		big.NewRat(math.MinInt64+1, 1),
		big.NewRat(1, math.MaxInt64),
		big.NewRat(-1, math.MaxInt64),
		big.NewRat(math.MaxInt64, math.MaxInt64-1),
		big.NewRat(math.MinInt64, math.MaxInt64),
		big.NewRat(1, 3037000493),          // a prime near √MaxInt64
		big.NewRat(1, 3037000453),          // another: their lcm overflows
		big.NewRat(1, 4611686018427387847), // a prime near 2^62
		new(big.Rat).SetInt(two63),         // one past MaxInt64
		new(big.Rat).SetInt(new(big.Int).Neg(two63)),
		new(big.Rat).SetInt(new(big.Int).Neg(new(big.Int).Add(two63, big.NewInt(1)))),
		new(big.Rat).SetFrac(big.NewInt(1), two63), // a denominator past MaxInt64
		new(big.Rat).SetFrac(two64, big.NewInt(3)),
		new(big.Rat).SetFrac(big.NewInt(-5), new(big.Int).Add(two64, big.NewInt(1))),
	}
}

func TestSumMatchesBigRat(t *testing.T) {
	e := edges()
	t.Run("empty", func(t *testing.T) {
		sameRat(t, "Sum(nil)", Sum(nil), new(big.Rat))
		if Mean(nil) != nil || Mean([]*big.Rat{}) != nil {
			t.Fatal("Mean of no values is not nil")
		}
	})
	t.Run("nil value", func(t *testing.T) {
		if Sum([]*big.Rat{big.NewRat(1, 2), nil}) != nil || Mean([]*big.Rat{nil}) != nil {
			t.Fatal("a nil value gave a sum")
		}
		if Ratio(nil, big.NewRat(1, 1)) != nil || Ratio(big.NewRat(1, 1), nil) != nil {
			t.Fatal("a nil operand gave a ratio")
		}
	})
	t.Run("each edge alone, in pairs and in triples", func(t *testing.T) {
		for _, x := range e {
			checkAll(t, []*big.Rat{x})
			for _, y := range e {
				checkAll(t, []*big.Rat{x, y})
				for _, z := range e {
					checkAll(t, []*big.Rat{x, y, z})
				}
			}
		}
	})
	t.Run("overflow and back", func(t *testing.T) {
		max, min := big.NewRat(math.MaxInt64, 1), big.NewRat(math.MinInt64, 1)
		checkAll(t, []*big.Rat{max, max, min, min, max})
		checkAll(t, []*big.Rat{min, big.NewRat(-1, 1), big.NewRat(1, 1)})
		// lcm growth: 1/p for the primes up to 100 passes 2^63 on the way.
		var xs []*big.Rat
		for p := int64(2); p < 100; p++ {
			if big.NewInt(p).ProbablyPrime(0) {
				xs = append(xs, big.NewRat(1, p), big.NewRat(-1, p*p))
			}
		}
		checkAll(t, xs)
		// A reducible running sum: halves that cancel to integers.
		xs = xs[:0]
		for range 200 {
			xs = append(xs, big.NewRat(math.MaxInt64/3, 2), big.NewRat(-math.MaxInt64/3, 2))
		}
		checkAll(t, xs)
	})
	t.Run("random", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(741, 29))
		for range 3000 {
			xs := make([]*big.Rat, rng.IntN(12))
			kind := rng.IntN(5)
			for i := range xs {
				xs[i] = randomRat(rng, kind, e)
			}
			checkAll(t, xs)
		}
	})
}

// randomRat draws a rational of one of several shapes: evalgate's (pico-
// unit integers, halves, scores over small denominators), full-range
// int64 fractions, and any of those mixed with the edges.
func randomRat(rng *rand.Rand, kind int, e []*big.Rat) *big.Rat {
	switch kind {
	case 0: // money and time: integers and the halves of even-count medians
		return big.NewRat(rng.Int64N(1e13)-1e12, int64(1+rng.IntN(2)))
	case 1: // scores
		d := 1 + rng.Int64N(40)
		return big.NewRat(rng.Int64N(d+1), d)
	case 2: // anything that fits
		d := int64(rng.Uint64() >> 1)
		if d == 0 {
			d = 1
		}
		return big.NewRat(int64(rng.Uint64()), d)
	case 3: // large denominators of a few bits less
		return big.NewRat(rng.Int64()>>rng.IntN(63), 1+rng.Int64()>>rng.IntN(63))
	default:
		return e[rng.IntN(len(e))]
	}
}

// FuzzSum reads values as (numerator, denominator, shift) triples: the
// numerator shifted left by shift%80 bits reaches past 64 bits. A zero
// denominator cannot make a big.Rat and is skipped.
func FuzzSum(f *testing.F) {
	put := func(vals ...int64) []byte {
		var b []byte
		for i := 0; i+1 < len(vals); i += 2 {
			b = binary.LittleEndian.AppendUint64(b, uint64(vals[i]))
			b = binary.LittleEndian.AppendUint64(b, uint64(vals[i+1]))
			b = append(b, 0)
		}
		return b
	}
	f.Add(put(1, 2, 1, 3))
	f.Add(put(math.MaxInt64, 1, math.MaxInt64, 1, math.MinInt64, 1))
	f.Add(put(1, 3037000493, 1, 3037000453, -1, 7))
	f.Add(put(math.MinInt64, math.MaxInt64, -1, 1))
	f.Add(append(put(5, 2), 0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 70))
	f.Fuzz(func(t *testing.T, data []byte) {
		var xs []*big.Rat
		for len(data) >= 17 && len(xs) < 64 {
			n := int64(binary.LittleEndian.Uint64(data))
			d := int64(binary.LittleEndian.Uint64(data[8:]))
			shift := uint(data[16]) % 80
			data = data[17:]
			if d == 0 {
				continue
			}
			num := new(big.Int).Lsh(big.NewInt(n), shift)
			xs = append(xs, new(big.Rat).SetFrac(num, big.NewInt(d)))
		}
		checkAll(t, xs)
	})
}
