package spool

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortStable: sortStable gives exactly slices.SortStableFunc's order,
// ties in their first order, on sorted, reversed and random rows with
// many equal keys.
func TestSortStable(t *testing.T) {
	type row struct{ key, seq int }
	byKey := func(a, b row) int { return cmp.Compare(a.key, b.key) }
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 20, 100, 1000, 5000} {
		for _, keys := range []int{1, 3, n + 1} {
			for shape := range 3 {
				rows := make([]row, n)
				for i := range rows {
					switch shape {
					case 0:
						rows[i] = row{i * keys / max(n, 1), i}
					case 1:
						rows[i] = row{(n - i) * keys / max(n, 1), i}
					default:
						rows[i] = row{rng.IntN(keys), i}
					}
				}
				want := slices.Clone(rows)
				slices.SortStableFunc(want, byKey)
				sortStable(rows, byKey)
				if !slices.Equal(rows, want) {
					t.Fatalf("%d rows, %d keys, shape %d: not the stable order", n, keys, shape)
				}
			}
		}
	}
}
