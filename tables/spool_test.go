package tables_test

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// spoolRows returns n citation rows in a scrambled order with many equal
// keys (session, index), told apart by Path, so that only a stable merge
// gives slices.SortStableFunc's order.
func spoolRows(n int) []tables.CitationRow {
	rows := make([]tables.CitationRow, n)
	for i := range rows {
		k := (i * 7919) % 997 // scrambled, repeating keys
		rows[i] = tables.CitationRow{
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

func orderCitations(a, b tables.CitationRow) int {
	return cmp.Or(cmp.Compare(a.SessionID, b.SessionID), cmp.Compare(a.Index, b.Index))
}

// bothStores runs test with a spool's chunks in memory and in a temporary
// file from the first chunk on (chunks moved to the file after a few are
// tested in spool_file_test.go).
func bothStores(t *testing.T, test func(t *testing.T)) {
	for _, after := range []int64{math.MaxInt64, 0} {
		t.Run(fmt.Sprintf("file after %d bytes", after), func(t *testing.T) {
			old := tables.SpoolFileAfter
			tables.SpoolFileAfter = after
			t.Cleanup(func() { tables.SpoolFileAfter = old })
			test(t)
		})
	}
}

// TestSpoolEqualsStableSort: All and WriteSpool give what a stable sort of
// every added row gives, at 0 rows, within one chunk, at a chunk boundary
// and across several row groups (200,000 rows: 4 row groups, 13 chunks).
func TestSpoolEqualsStableSort(t *testing.T) {
	bothStores(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 1000, tables.SpoolChunkRows, tables.SpoolChunkRows + 1, 200_000} {
			t.Run(fmt.Sprint(n), func(t *testing.T) {
				rows := spoolRows(n)
				sp := tables.NewSpool(orderCitations)
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
				dir := t.TempDir()
				if err := tables.WriteSpool(filepath.Join(dir, "spool.parquet"), sp, testMeta); err != nil {
					t.Fatal(err)
				}
				if err := tables.WriteParquet(filepath.Join(dir, "slice.parquet"), want, testMeta); err != nil {
					t.Fatal(err)
				}
				a, _ := os.ReadFile(filepath.Join(dir, "spool.parquet"))
				b, _ := os.ReadFile(filepath.Join(dir, "slice.parquet"))
				if !bytes.Equal(a, b) {
					t.Fatalf("WriteSpool wrote %d bytes, WriteParquet of the sorted rows %d: not identical", len(a), len(b))
				}
			})
		}
	})
}

// TestSpoolAddAfterAll: rows added after an iteration still come back as
// one stable sort of everything added; a spool without an order keeps the
// order added.
func TestSpoolAddAfterAll(t *testing.T) {
	bothStores(t, func(t *testing.T) {
		rows := spoolRows(3*tables.SpoolChunkRows + 5)
		sp := tables.NewSpool(orderCitations)
		sp.Add(rows[:100]...)
		sp.Collect()
		sp.Add(rows[100:]...)
		want := slices.Clone(rows)
		slices.SortStableFunc(want, orderCitations)
		if got := sp.Collect(); !reflect.DeepEqual(got, want) {
			t.Errorf("after a second Add, All is not the stable sort of every row")
		}
		if got := tables.SpoolOf(rows...).Collect(); !reflect.DeepEqual(got, rows) {
			t.Errorf("SpoolOf does not keep the order added")
		}
		var empty *tables.Spool[tables.CitationRow]
		if empty.Len() != 0 || len(empty.Collect()) != 0 {
			t.Errorf("a nil spool is not empty")
		}
	})
}

// TestSpoolEarlyBreak: leaving an iteration early is allowed and the spool
// still iterates in full afterwards.
func TestSpoolEarlyBreak(t *testing.T) {
	bothStores(t, func(t *testing.T) {
		rows := spoolRows(2*tables.SpoolChunkRows + 3)
		sp := tables.NewSpool(orderCitations)
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
	bothStores(t, func(t *testing.T) {
		rows := spoolRows(3*tables.SpoolChunkRows + 5)
		sp := tables.NewSpool(orderCitations)
		sp.Compact() // empty: nothing to do
		sp.Add(rows[:100]...)
		sp.Compact() // no chunk yet: stays as values
		sp.Add(rows[100:tables.SpoolChunkRows]...)
		sp.Compact() // the tail was just encoded: releases it
		sp.Add(rows[tables.SpoolChunkRows : 2*tables.SpoolChunkRows+7]...)
		sp.Compact()
		sp.Compact()
		sp.Add(rows[2*tables.SpoolChunkRows+7:]...)
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
