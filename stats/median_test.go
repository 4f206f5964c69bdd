package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

func rats(t *testing.T, xs ...string) []*big.Rat {
	t.Helper()
	out := make([]*big.Rat, len(xs))
	for i, x := range xs {
		r, ok := new(big.Rat).SetString(x)
		if !ok {
			t.Fatalf("bad test rational %q", x)
		}
		out[i] = r
	}
	return out
}

func TestMedianRat(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want string // hand computed; "" means nil
	}{
		{"even count is the mean of the two middle values", []string{"1", "2", "3", "4"}, "5/2"},
		{"two values", []string{"10", "20"}, "15"},
		{"odd count is the middle value", []string{"5", "1", "3"}, "3"},
		{"unsorted even count", []string{"4", "1", "3", "2"}, "5/2"},
		{"single value", []string{"7/8"}, "7/8"},
		{"thirds: (1/3 + 2/3) / 2", []string{"1/3", "2/3"}, "1/2"},
		{"R values of three repetitions", []string{"3/4", "1", "1/2"}, "3/4"},
		{"ties", []string{"1", "1", "0", "0"}, "1/2"},
		{"empty", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := rats(t, tc.in...)
			before := make([]string, len(in))
			for i, r := range in {
				before[i] = r.RatString()
			}
			got := MedianRat(in)
			if tc.want == "" {
				if got != nil {
					t.Fatalf("MedianRat(%v) = %v, want nil", tc.in, got)
				}
				return
			}
			if got == nil || got.RatString() != tc.want {
				t.Fatalf("MedianRat(%v) = %v, want %s", tc.in, got, tc.want)
			}
			for i, r := range in {
				if r.RatString() != before[i] {
					t.Fatalf("MedianRat mutated its input at %d: %s, was %s", i, r.RatString(), before[i])
				}
			}
		})
	}
	t.Run("a nil value makes the median unknown", func(t *testing.T) {
		if got := MedianRat([]*big.Rat{big.NewRat(1, 1), nil, big.NewRat(2, 1)}); got != nil {
			t.Fatalf("got %v, want nil", got)
		}
	})
}

func TestMedianInt64(t *testing.T) {
	tests := []struct {
		name string
		in   []int64
		want string
	}{
		{"vector 1 2 3 4", []int64{1, 2, 3, 4}, "5/2"},
		{"vector 10 20", []int64{10, 20}, "15"},
		{"odd sum of middles falls on a half", []int64{1, 2}, "3/2"},
		{"large values do not overflow", []int64{9223372036854775807, 9223372036854775807}, "9223372036854775807"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := MedianInt64(tc.in)
			if got == nil || got.RatString() != tc.want {
				t.Fatalf("MedianInt64(%v) = %v, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestFraction(t *testing.T) {
	t.Run("positive denominator", func(t *testing.T) {
		if got := Fraction(5, 6); got.RatString() != "5/6" {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("zero denominator is unknown", func(t *testing.T) {
		if got := Fraction(0, 0); got != nil {
			t.Fatalf("got %v, want nil", got)
		}
	})
}

// TestSortRatsMatchesCmp checks the 128-bit comparison against
// big.Rat.Cmp on values at the edges of 64 bits, both signs, and values
// too large for the fast path (which falls back to Cmp).
func TestSortRatsMatchesCmp(t *testing.T) {
	edges := []int64{0, 1, -1, 2, -2, 3, 7, -7, 1 << 31, -(1 << 31), 1<<62 + 1, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	var vals []*big.Rat
	for _, n := range edges {
		for _, d := range []int64{1, 2, 3, 7, 1<<32 + 1, math.MaxInt64} {
			vals = append(vals, big.NewRat(n, d))
		}
	}
	huge, _ := new(big.Rat).SetString("340282366920938463463374607431768211457/3")
	r := rand.New(rand.NewPCG(741, 1))
	for range 2000 {
		vals = append(vals, big.NewRat(r.Int64()-r.Int64()/2, 1+r.Int64N(math.MaxInt64)))
	}
	for _, withHuge := range []bool{false, true} {
		xs := slices.Clone(vals)
		if withHuge {
			xs = append(xs, huge, new(big.Rat).Neg(huge))
		}
		r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		sortRats(xs)
		for i := 1; i < len(xs); i++ {
			if xs[i-1].Cmp(xs[i]) > 0 {
				t.Fatalf("withHuge=%v: %s before %s", withHuge, xs[i-1].RatString(), xs[i].RatString())
			}
		}
		if len(xs) != len(vals)+map[bool]int{false: 0, true: 2}[withHuge] {
			t.Fatalf("lost values")
		}
	}
}

// TestMedianInt64Overflow: the mean of two middle values whose sum
// overflows int64 is still exact.
func TestMedianInt64Overflow(t *testing.T) {
	got := MedianInt64([]int64{math.MaxInt64, math.MaxInt64 - 2})
	want, _ := new(big.Rat).SetString("9223372036854775806")
	if got.Cmp(want) != 0 {
		t.Fatalf("got %s, want %s", got.RatString(), want.RatString())
	}
	if got := MedianInt64([]int64{3, 1, 2, 4}); got.Cmp(big.NewRat(5, 2)) != 0 {
		t.Fatalf("got %s, want 5/2", got.RatString())
	}
}
