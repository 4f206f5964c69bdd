package load_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// linesOf returns the records of a campaign's JSONL file whether the
// campaign holds them as a slice or as a spool.
func linesOf[T any](v any) []tables.Line[T] {
	switch x := v.(type) {
	case []tables.Line[T]:
		return x
	case *spool.Spool[tables.Line[T]]:
		return x.Collect()
	}
	panic("linesOf: neither a slice nor a spool of lines")
}

// TestSpoolLoadedRecords: every embedded example's receipts and ratings,
// as the loader decodes them (time.Time and *time.Time: the loader accepts
// only timestamps ending in Z, which time.Time.UnmarshalText puts in UTC;
// other zones are tested in spool/time_test.go), come back from a spool
// reflect.DeepEqual, in file order, through encoded chunks of a few rows.
func TestSpoolLoadedRecords(t *testing.T) {
	small := spool.Config{ChunkRows: 7} // several chunks, one short, for a campaign of a few dozen lines
	var rated int
	for _, name := range fixtures.Examples() {
		ex, _ := fixtures.Example(name)
		c, _ := load.Campaign(ex, name)
		receipts := linesOf[tables.Receipt](c.Receipts)
		ratings := linesOf[tables.Adjudication](c.Adjudications)
		if len(receipts) <= 7 {
			t.Fatalf("%s: %d receipts loaded, too few to fill a chunk", name, len(receipts))
		}
		rated += len(ratings)
		if at := receipts[0].Record.StartedAt; at.IsZero() || at.Location() != time.UTC {
			t.Errorf("%s: the first receipt started at %v: not a time the loader builds in UTC", name, at)
		}
		rs, as := spool.NewWith[tables.Line[tables.Receipt]](nil, small), spool.NewWith[tables.Line[tables.Adjudication]](nil, small)
		rs.Add(receipts...)
		as.Add(ratings...)
		if got := rs.Collect(); rs.Err() != nil || !reflect.DeepEqual(got, receipts) {
			t.Errorf("%s: the receipts did not come back from a spool as loaded (%v)", name, rs.Err())
		}
		if got := as.Collect(); as.Err() != nil || len(ratings) > 0 && !reflect.DeepEqual(got, ratings) {
			t.Errorf("%s: the adjudications did not come back from a spool as loaded (%v)", name, as.Err())
		}
	}
	if rated <= 7 {
		t.Errorf("the examples hold %d ratings, too few to fill a chunk", rated)
	}
}
