package stats

import (
	"math"
	"slices"
	"testing"
)

func TestQuantile7(t *testing.T) {
	// Expected values are numpy.quantile(x, p) (type 7), computed by hand:
	// h = (n−1)p, x[⌊h⌋] + frac·(x[⌊h⌋+1] − x[⌊h⌋]).
	cases := []struct {
		name string
		x    []float64
		p    float64
		want float64
	}{
		{"median_of_odd", []float64{1, 2, 3, 4, 5}, 0.5, 3},
		{"quarter_of_five", []float64{1, 2, 3, 4, 5}, 0.25, 2},   // h=1
		{"median_of_even", []float64{1, 2, 3, 4}, 0.5, 2.5},      // h=1.5
		{"tenth_of_four", []float64{10, 20, 30, 40}, 0.1, 13},    // h=0.3 → 10+0.3·10
		{"p_zero_is_min", []float64{-3, 0, 8}, 0, -3},            // h=0
		{"p_one_is_max", []float64{-3, 0, 8}, 1, 8},              // h=2
		{"single_value", []float64{7}, 0.975, 7},                 // n=1
		{"two_values_0975", []float64{0, 1}, 0.975, 0.975},       // h=0.975
		{"ties", []float64{1, 1, 1, 2}, 0.9, 1.7000000000000002}, // h=2.7 → 1+0.7·1 in float
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Quantile7(c.x, c.p); got != c.want {
				t.Errorf("Quantile7(%v, %v) = %v, want %v", c.x, c.p, got, c.want)
			}
		})
	}
	t.Run("empty_is_nan", func(t *testing.T) {
		if got := Quantile7(nil, 0.5); !math.IsNaN(got) {
			t.Errorf("Quantile7(nil) = %v, want NaN", got)
		}
	})
	t.Run("p_out_of_range_is_nan", func(t *testing.T) {
		for _, p := range []float64{-0.1, 1.1, math.NaN()} {
			if got := Quantile7([]float64{1, 2}, p); !math.IsNaN(got) {
				t.Errorf("Quantile7(p=%v) = %v, want NaN", p, got)
			}
		}
	})
}

func TestMedianFloat64(t *testing.T) {
	cases := []struct {
		name string
		x    []float64
		want float64
	}{
		{"odd_unsorted", []float64{3, 1, 2}, 2},
		{"even_is_mean_of_middles", []float64{4, 1, 3, 2}, 2.5}, // not 2 or 3 (lm-eval pitfall)
		{"two", []float64{10, 20}, 15},
		{"one", []float64{0.25}, 0.25},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := slices.Clone(c.x)
			if got := MedianFloat64(in); got != c.want {
				t.Errorf("MedianFloat64(%v) = %v, want %v", c.x, got, c.want)
			}
			if !slices.Equal(in, c.x) {
				t.Errorf("MedianFloat64 modified its input: %v", in)
			}
		})
	}
	t.Run("empty_is_nan", func(t *testing.T) {
		if !math.IsNaN(MedianFloat64(nil)) {
			t.Error("MedianFloat64(nil) is not NaN")
		}
	})
}
