package spool

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
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

// TestSortStableRuns: on rows added in runs already in order (each group
// of rows by seq, the groups in any order, keys shared across groups,
// groups that overlap), and on every sequence of 8 to 10 keys from
// {0, 1, 2}, sortStable gives exactly slices.SortStableFunc's order,
// whether it merges the runs (few of them) or sorts the rows; both ways
// are taken.
func TestSortStableRuns(t *testing.T) {
	type row struct{ key, seq, at int }
	byKey := func(a, b row) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	}
	byKeyOnly := func(a, b row) int { return cmp.Compare(a.key, b.key) }
	merged, sorted := 0, 0
	check := func(what string, rows []row, order func(a, b row) int) {
		t.Helper()
		for i := range rows {
			rows[i].at = i
		}
		if bounds, few := ascendingRuns(rows, order); few && len(bounds) > 2 {
			merged++
		} else if !few {
			sorted++
		}
		want := slices.Clone(rows)
		slices.SortStableFunc(want, order)
		sortStable(rows, order)
		if !slices.Equal(rows, want) {
			t.Fatalf("%s: not the stable order:\n got %v\nwant %v", what, rows, want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, groups := range []int{2, 5, 50, 1000} {
		for _, size := range []int{4, 10} {
			for _, keys := range []int{1, 3, groups} {
				rows := make([]row, 0, groups*size)
				for range groups {
					k := rng.IntN(keys)
					for s := range size {
						rows = append(rows, row{key: k, seq: s})
					}
				}
				check("groups", slices.Clone(rows), byKey)
				check("groups, key only", slices.Clone(rows), byKeyOnly)
				// runs that overlap: a group's seq shifted by its number
				for i := range rows {
					rows[i].seq += i / size
				}
				check("overlapping groups", rows, byKey)
			}
		}
	}
	for n := 8; n <= 10; n++ {
		keys := make([]int, n)
		for {
			rows := make([]row, n)
			for i, k := range keys {
				rows[i] = row{key: k, seq: 0}
			}
			check("small", rows, byKeyOnly)
			i := 0
			for i < n && keys[i] == 2 {
				keys[i] = 0
				i++
			}
			if i == n {
				break
			}
			keys[i]++
		}
	}
	if merged == 0 || sorted == 0 {
		t.Fatalf("runs merged %d times, rows sorted %d times: want both", merged, sorted)
	}
}

// BenchmarkSortStableRuns sorts rows shaped like a chunk of citation
// rows: 1,600 sessions of 10 rows each, in order within a session, the
// sessions in random order.
func BenchmarkSortStableRuns(b *testing.B) {
	type row struct {
		session string
		index   int64
		_       [96]byte // the size of a citation row
	}
	order := func(a, b row) int {
		if c := cmp.Compare(a.session, b.session); c != 0 {
			return c
		}
		return cmp.Compare(a.index, b.index)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var rows []row
	for _, s := range rng.Perm(1600) {
		for i := range 10 {
			rows = append(rows, row{session: "T" + strconv.Itoa(s%8) + "-r" + strconv.Itoa(s), index: int64(i)})
		}
	}
	work := make([]row, len(rows))
	b.ReportAllocs()
	for b.Loop() {
		copy(work, rows)
		sortStable(work, order)
	}
}

// TestTouchPages: touching the room a tail grows by leaves every row of
// it the zero row (pointers nil), for rows of many sizes, rows of no
// size and no rows.
func TestTouchPages(t *testing.T) {
	type wide struct {
		s   string
		p   *int
		l   []string
		pad [5000]byte
	}
	narrow := make([]struct {
		s string
		p *int
	}, 100000)
	touchPages(narrow)
	for i, r := range narrow {
		if r.s != "" || r.p != nil {
			t.Fatalf("narrow row %d changed: %+v", i, r)
		}
	}
	rows := make([]wide, 7)
	touchPages(rows[2:])
	for i := range rows {
		if rows[i].s != "" || rows[i].p != nil || rows[i].l != nil || rows[i].pad != [5000]byte{} {
			t.Fatalf("wide row %d changed", i)
		}
	}
	touchPages(make([]struct{}, 10))
	touchPages([]int(nil))
}
