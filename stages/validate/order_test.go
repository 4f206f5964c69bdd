package validate

import (
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// TestRunReceiptOrder validates every example with its receipts reversed,
// so that in a paired review every review comes before its draft (its
// rendering check waits for the end of the pass), through the prefetching
// reader: the rows and findings are the example's own, since every table
// and finding is sorted and each receipt keeps its line. It also counts
// the answer files opened (see the comment inside).
func TestRunReceiptOrder(t *testing.T) {
	for _, name := range fixtures.Examples() {
		t.Run(name, func(t *testing.T) {
			c := loadedExample(t, name)
			roles := map[string]string{} // answer file → its session's role
			for l := range c.Receipts.All() {
				if l.Record.Output != nil {
					roles[l.Record.Output.Path] = l.Record.Role
				}
			}
			opened := &openCounter{FS: c.FS, n: map[string]int{}}
			c.FS = opened
			want := validated(c)
			if want.Sessions.Len() == 0 {
				t.Fatal("no session rows to compare")
			}
			// A paired review reads each answer once in file order (a
			// draft's bytes serve its reviews' renderings); reversed, only
			// a draft is read again, by its reviews' checks at the end of
			// the pass, never an answer the reader had to skip.
			paired := c.Manifest.Kind == rules.KindPairedReview
			for name, n := range opened.n {
				if paired && roles[name] != "" && n != 1 {
					t.Errorf("in file order %s (%s) was opened %d times, want once", name, roles[name], n)
				}
			}
			clear(opened.n)
			c.EditReceipts(func(rs []tables.Line[tables.Receipt]) []tables.Line[tables.Receipt] { slices.Reverse(rs); return rs })
			got := validated(c)
			for name, n := range opened.n {
				if paired && roles[name] != "" && roles[name] != tables.RoleDraft && n != 1 {
					t.Errorf("reversed, %s (%s) was opened %d times, want once", name, roles[name], n)
				}
			}
			gotRows, wantRows := got.Sessions.Collect(), want.Sessions.Collect()
			if len(gotRows) != len(wantRows) {
				t.Fatalf("%d session rows, want %d", len(gotRows), len(wantRows))
			}
			for i := range gotRows {
				if !reflect.DeepEqual(gotRows[i], wantRows[i]) { // nullable columns compare by value
					t.Errorf("session row %d:\n%+v\nwant\n%+v", i, gotRows[i], wantRows[i])
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

// validated runs validate on c through the prefetching reader.
func validated(c *tables.Campaign) Out {
	p := load.Prefetched(c, 2, 8)
	defer p.Close()
	return Run(c, p)
}

// openCounter counts how often each file of a campaign is opened.
type openCounter struct {
	fs.FS
	mu sync.Mutex
	n  map[string]int
}

func (o *openCounter) Open(name string) (fs.File, error) {
	o.mu.Lock()
	o.n[name]++
	o.mu.Unlock()
	return o.FS.Open(name)
}

// loadedExample loads the embedded example name, which must load without
// a rejecting finding.
func loadedExample(t *testing.T, name string) *tables.Campaign {
	t.Helper()
	fsys, _ := fixtures.Example(name)
	c, found := load.Campaign(fsys, name)
	if c == nil || found.Rejected() {
		t.Fatalf("example %s does not load: %v", name, found)
	}
	return c
}
