package tables_test

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// TestSpoolCodecRegistry: every output table's row type can be spooled.
func TestSpoolCodecRegistry(t *testing.T) {
	for _, tb := range tables.Registry() {
		if err := spool.CheckType(tb.RowType); err != nil {
			t.Errorf("table %s: %v", tb.Name, err)
		}
	}
}

// citations returns n citation rows in a scrambled order with repeated
// keys (session, index), told apart by Path, and the order they come back
// in.
func citations(n int) ([]tables.CitationRow, func(a, b tables.CitationRow) int) {
	rows := make([]tables.CitationRow, n)
	for i := range rows {
		k := (i * 7919) % 997
		rows[i] = tables.CitationRow{SessionID: fmt.Sprintf("s%04d", k%131), Index: int64(k % 3), EvidenceID: fmt.Sprintf("E%d", k%5),
			Path: fmt.Sprintf("p%07d", i), StartLine: int64(i), Supports: []string{"C1", "V1"}[:i%3], Valid: i%3 != 0}
	}
	return rows, func(a, b tables.CitationRow) int {
		return cmp.Or(cmp.Compare(a.SessionID, b.SessionID), cmp.Compare(a.Index, b.Index))
	}
}

// TestWriteSpoolEqualsWriteParquet: WriteSpool writes the bytes WriteParquet
// writes of the stable sort of every row added, at 0 rows, within one
// chunk, past a chunk and across two row groups (70,000 rows: 5 chunks),
// with the chunks in memory and on file.
func TestWriteSpoolEqualsWriteParquet(t *testing.T) {
	for name, c := range map[string]spool.Config{"memory": {FileAfter: 1 << 62}, "file": {FileAfter: -1}} {
		for _, n := range []int{0, 1000, spool.ChunkRows + 1, tables.MaxRowsPerRowGroup + 4464} {
			t.Run(fmt.Sprint(name, n), func(t *testing.T) {
				rows, order := citations(n)
				sp := spool.NewWith(order, c)
				for i := 0; i < len(rows); i += 777 { // uneven Add calls
					sp.Add(rows[i:min(i+777, len(rows))]...)
				}
				want := slices.Clone(rows)
				slices.SortStableFunc(want, order)
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
	}
}

// unreadable is a spool file in memory whose reads fail once bad is set.
type unreadable struct {
	mu   sync.Mutex
	data []byte
	bad  bool
}

func (f *unreadable) WriteAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if end := int(off) + len(p); end > len(f.data) {
		f.data = append(f.data, make([]byte, end-len(f.data))...)
	}
	return copy(f.data[off:], p), nil
}

func (f *unreadable) ReadAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.bad {
		return 0, errors.New("input/output error")
	}
	return copy(p, f.data[min(int(off), len(f.data)):]), nil
}

// onFile is the config of a spool of chunkRows-row chunks, every one on f.
func (f *unreadable) onFile(chunkRows int) spool.Config {
	return spool.Config{ChunkRows: chunkRows, FileAfter: -1, File: func() (spool.File, error) { return f, nil }}
}

// count is how many values seq yields.
func count[T any](seq iter.Seq[T]) int {
	n := 0
	for range seq {
		n++
	}
	return n
}

// TestWriteSpoolReadFails: a spool whose chunk cannot be read back is an
// error of WriteSpool, never a table with rows missing.
func TestWriteSpoolReadFails(t *testing.T) {
	f := &unreadable{}
	rows, order := citations(2*1000 + 3)
	sp := spool.NewWith(order, f.onFile(1000))
	sp.Add(rows...)
	f.bad = true
	if err := tables.WriteSpool(filepath.Join(t.TempDir(), "t.parquet"), sp, testMeta); err == nil || !strings.Contains(err.Error(), "input/output error") {
		t.Errorf("WriteSpool of an unreadable spool: err %v", err)
	}
}

// TestSetErrSpoolReadFails: a table set is in error as soon as one of its
// spools could not read a chunk back, so that the pipeline reports the
// failure instead of a verdict on the rows that were read.
func TestSetErrSpoolReadFails(t *testing.T) {
	f := &unreadable{}
	rows, order := citations(2*1000 + 3)
	set := &tables.Set{Citations: spool.NewWith(order, f.onFile(1000)), Runs: spool.Of(tables.Run{TaskID: "T1"})}
	set.Citations.Add(rows...)
	if err := set.Err(); err != nil {
		t.Fatalf("a readable set has Err %v", err)
	}
	f.bad = true
	n := count(set.Citations.All())
	if n >= len(rows) || set.Err() == nil || !strings.Contains(set.Err().Error(), "input/output error") {
		t.Fatalf("an unreadable spool gave %d of %d rows and the set's Err %v", n, len(rows), set.Err())
	}
}

// TestCampaignErrSurvivesDrop: a receipts spool that could not read a
// chunk back is the campaign's error, still after the pipeline dropped it.
func TestCampaignErrSurvivesDrop(t *testing.T) {
	f := &unreadable{}
	c := &tables.Campaign{
		Receipts:      spool.NewWith[tables.Line[tables.Receipt]](nil, f.onFile(10)),
		Adjudications: spool.Of(tables.Line[tables.Adjudication]{Line: 1}),
	}
	for i := range 25 {
		c.Receipts.Add(tables.Line[tables.Receipt]{Line: int64(i + 1), Record: tables.Receipt{SessionID: fmt.Sprint("s", i)}})
	}
	if err := c.Err(); err != nil {
		t.Fatalf("a readable campaign has Err %v", err)
	}
	f.bad = true
	n := count(c.Receipts.All())
	c.DropReceipts()
	c.DropAdjudications()
	if n >= 25 || c.Receipts != nil || c.Err() == nil || !strings.Contains(c.Err().Error(), "input/output error") {
		t.Fatalf("an unreadable receipts spool gave %d of 25 records; after the drops Err is %v", n, c.Err())
	}
}
