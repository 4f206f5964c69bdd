package validate

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// TestRunReceiptOrder validates every paired-review example with its
// receipts reversed, so that every review comes before its draft (its
// rendering check waits for the end of the pass), through the prefetching
// reader: the rows and findings are the example's own, since every table
// and finding is sorted and each receipt keeps its line.
func TestRunReceiptOrder(t *testing.T) {
	for _, name := range fixtures.Examples() {
		t.Run(name, func(t *testing.T) {
			fsys, _ := fixtures.Example(name)
			c, found := load.Campaign(fsys, name)
			if c == nil || found.Rejected() {
				t.Fatalf("example %s does not load: %v", name, found)
			}
			if c.Manifest.Kind != tables.KindPairedReview {
				t.Skip("not a paired review")
			}
			want := Run(c, load.Answers(c))
			slices.Reverse(c.Receipts)
			p := load.Prefetched(c, 2, 8)
			defer p.Close()
			got := Run(c, p)
			if len(got.Sessions) != len(want.Sessions) {
				t.Fatalf("%d session rows, want %d", len(got.Sessions), len(want.Sessions))
			}
			for i := range got.Sessions {
				if !reflect.DeepEqual(got.Sessions[i], want.Sessions[i]) { // nullable columns compare by value
					t.Errorf("session row %d:\n%+v\nwant\n%+v", i, got.Sessions[i], want.Sessions[i])
				}
			}
			if !reflect.DeepEqual(slices.Collect(got.Citations.All()), slices.Collect(want.Citations.All())) {
				t.Error("citation rows differ")
			}
			if !reflect.DeepEqual(slices.Collect(got.Dispositions.All()), slices.Collect(want.Dispositions.All())) {
				t.Error("disposition rows differ")
			}
			if fmt.Sprint(got.Findings) != fmt.Sprint(want.Findings) {
				t.Errorf("findings differ:\n%v\nwant\n%v", got.Findings, want.Findings)
			}
		})
	}
}
