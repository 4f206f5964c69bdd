package spool_test

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/spool"
)

// citation has the shape of a citations table row: strings, integers, a
// list and a flag.
type citation struct {
	SessionID  string
	Index      int64
	EvidenceID string
	Path       string
	StartLine  int64
	EndLine    int64
	Supports   []string
	Valid      bool
	Code       string
}

// spoolRows returns n citation rows in a scrambled order with many equal
// keys (session, index), told apart by Path, so that only a stable merge
// gives slices.SortStableFunc's order.
func spoolRows(n int) []citation {
	rows := make([]citation, n)
	for i := range rows {
		k := (i * 7919) % 997 // scrambled, repeating keys
		rows[i] = citation{
			SessionID:  fmt.Sprintf("s%04d", k%131),
			Index:      int64(k % 3),
			EvidenceID: fmt.Sprintf("E%d", k%5),
			Path:       fmt.Sprintf("p%07d", i), // the order added, to see ties
			StartLine:  int64(i),
			EndLine:    int64(i + k),
			Supports:   []string{fmt.Sprintf("C%d", k%4), "V1"}[:1+i%2],
			Valid:      i%3 != 0,
		}
		if i%5 == 0 {
			rows[i].Code = "citation_range_inverted"
		}
	}
	return rows
}

func orderCitations(a, b citation) int {
	return cmp.Or(cmp.Compare(a.SessionID, b.SessionID), cmp.Compare(a.Index, b.Index))
}

// chunk is the chunk size of the spools bothStores makes: small, so that
// a few thousand rows make many chunks (TestSpoolDefaultChunk covers
// spool.ChunkRows itself).
const chunk = 1000

// bothStores runs test with a spool's chunks of chunk rows in memory and
// in a temporary file from the first chunk on (chunks moved to the file
// after a few are tested in file_test.go); test makes its spools with
// newSpool.
func bothStores(t *testing.T, test func(t *testing.T, newSpool func() *spool.Spool[citation])) {
	for name, c := range map[string]spool.Config{"memory": {ChunkRows: chunk, FileAfter: 1 << 62}, "file": {ChunkRows: chunk, FileAfter: -1}} {
		t.Run(name, func(t *testing.T) {
			test(t, func() *spool.Spool[citation] { return spool.NewWith(orderCitations, c) })
		})
	}
}

// TestSpoolEqualsStableSort: All gives what a stable sort of every added
// row gives, at 0 rows, within one chunk, at a chunk boundary and across
// many chunks (13,007 rows: 14 chunks, the last one short).
func TestSpoolEqualsStableSort(t *testing.T) {
	bothStores(t, func(t *testing.T, newSpool func() *spool.Spool[citation]) {
		for _, n := range []int{0, 1, chunk - 1, chunk, chunk + 1, 13*chunk + 7} {
			t.Run(fmt.Sprint(n), func(t *testing.T) {
				rows := spoolRows(n)
				sp := newSpool()
				for i := 0; i < len(rows); i += 777 { // uneven Add calls
					sp.Add(rows[i:min(i+777, len(rows))]...)
				}
				want := slices.Clone(rows)
				slices.SortStableFunc(want, orderCitations)
				if sp.Len() != n {
					t.Fatalf("Len %d, want %d", sp.Len(), n)
				}
				got := sp.Collect()
				if len(got) != len(want) {
					t.Fatalf("All gave %d rows, want %d", len(got), len(want))
				}
				for i := range want {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Fatalf("row %d: %+v, want %+v", i, got[i], want[i])
					}
				}
			})
		}
	})
}

// TestSpoolAddAfterAll: rows added after an iteration still come back as
// one stable sort of everything added; a spool without an order keeps the
// order added.
func TestSpoolAddAfterAll(t *testing.T) {
	bothStores(t, func(t *testing.T, newSpool func() *spool.Spool[citation]) {
		rows := spoolRows(3*chunk + 5)
		sp := newSpool()
		sp.Add(rows[:100]...)
		sp.Collect()
		sp.Add(rows[100:]...)
		want := slices.Clone(rows)
		slices.SortStableFunc(want, orderCitations)
		if got := sp.Collect(); !reflect.DeepEqual(got, want) {
			t.Errorf("after a second Add, All is not the stable sort of every row")
		}
		if got := spool.Of(rows...).Collect(); !reflect.DeepEqual(got, rows) {
			t.Errorf("Of does not keep the order added")
		}
		var empty *spool.Spool[citation]
		if empty.Len() != 0 || len(empty.Collect()) != 0 {
			t.Errorf("a nil spool is not empty")
		}
	})
}

// TestSpoolEarlyBreak: leaving an iteration early is allowed and the spool
// still iterates in full afterwards.
func TestSpoolEarlyBreak(t *testing.T) {
	bothStores(t, func(t *testing.T, newSpool func() *spool.Spool[citation]) {
		rows := spoolRows(2*chunk + 3)
		sp := newSpool()
		sp.Add(rows...)
		k := 0
		for range sp.All() {
			if k++; k == 10 {
				break
			}
		}
		if got := len(sp.Collect()); got != len(rows) {
			t.Errorf("after an early break All gave %d rows, want %d", got, len(rows))
		}
	})
}

// TestSpoolCompact: compacting a spool (after some rows, at a chunk
// boundary, twice, then adding more) changes neither its rows nor their
// stable order, and a small spool is left as it is.
func TestSpoolCompact(t *testing.T) {
	bothStores(t, func(t *testing.T, newSpool func() *spool.Spool[citation]) {
		rows := spoolRows(3*chunk + 5)
		sp := newSpool()
		sp.Compact() // empty: nothing to do
		sp.Add(rows[:100]...)
		sp.Compact() // no chunk yet: stays as values
		sp.Add(rows[100:chunk]...)
		sp.Compact() // the tail was just encoded: releases it
		sp.Add(rows[chunk : 2*chunk+7]...)
		sp.Compact()
		sp.Compact()
		sp.Add(rows[2*chunk+7:]...)
		want := slices.Clone(rows)
		slices.SortStableFunc(want, orderCitations)
		if got := sp.Collect(); !reflect.DeepEqual(got, want) {
			t.Errorf("after Compact and more Adds, All is not the stable sort of every row")
		}
		if got := sp.Collect(); !reflect.DeepEqual(got, want) {
			t.Errorf("a second iteration differs from the first")
		}
		if sp.Len() != len(rows) {
			t.Errorf("Len %d, want %d", sp.Len(), len(rows))
		}
	})
}

// TestSpoolDefaultChunk: a spool of the default configuration encodes a
// chunk at spool.ChunkRows rows and gives back the stable sort, in memory.
func TestSpoolDefaultChunk(t *testing.T) {
	rows := spoolRows(spool.ChunkRows + 1)
	sp := spool.New(orderCitations)
	sp.Add(rows...)
	want := slices.Clone(rows)
	slices.SortStableFunc(want, orderCitations)
	if got := sp.Collect(); sp.Err() != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("the default spool is not the stable sort of its %d rows (err %v)", len(rows), sp.Err())
	}
}
