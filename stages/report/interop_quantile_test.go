package report

import (
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/internal/interop"
	"github.com/evalgate/evalgate/stats"
)

// TestQuantilesAgreeWithDuckDB checks evalgate's own type-7 quantile and
// exact median against a real engine's quantile_cont and median (DuckDB,
// which agrees with numpy's default and R's type 7), on vectors where a
// wrong rule shows: even counts (mean of the two middle values, not the
// lower one gonum's stat.Quantile gives), p = 0.25 on [1..5] (numpy 2.0,
// not 1.25) and unsorted input.
func TestQuantilesAgreeWithDuckDB(t *testing.T) {
	script := filepath.Join(filepath.Dir(requireInterop(t)), "quantile.mjs")
	cases := []struct {
		values []float64
		p      float64
	}{
		{[]float64{1, 2, 3, 4}, 0.5},
		{[]float64{1, 2, 3, 4, 5}, 0.25},
		{[]float64{10, 20}, 0.5},
		{[]float64{4, 1, 3, 2}, 0.75},
		{[]float64{0.8, 2.0 / 3, 1, 0.75, 0.5, 0.8}, 0.025},
		{[]float64{3.5}, 0.975},
		{[]float64{1.25, -2, 7, 7, 0.1, 9.75, 3}, 0.9},
	}
	type item struct {
		Values []float64 `json:"values"`
		P      float64   `json:"p"`
	}
	var items []item
	for _, c := range cases {
		items = append(items, item{c.values, c.p})
	}
	var got []struct{ Quantile, Median float64 }
	interop.Node(t, "", items, &got, script)
	if len(got) != len(cases) {
		t.Fatalf("quantile.mjs answered %d vectors, want %d", len(got), len(cases))
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%v@%v", c.values, c.p), func(t *testing.T) {
			sorted := append([]float64(nil), c.values...)
			slices.Sort(sorted)
			if q := stats.Quantile7(sorted, c.p); math.Abs(q-got[i].Quantile) > 1e-12 {
				t.Errorf("Quantile7(%v, %v) = %v, DuckDB quantile_cont %v", c.values, c.p, q, got[i].Quantile)
			}
			rats := make([]*big.Rat, len(c.values))
			for j, v := range c.values {
				rats[j] = new(big.Rat).SetFloat64(v)
			}
			m, _ := stats.MedianRat(rats).Float64()
			if math.Abs(m-got[i].Median) > 1e-12 {
				t.Errorf("MedianRat(%v) = %v, DuckDB median %v", c.values, m, got[i].Median)
			}
		})
	}
}
