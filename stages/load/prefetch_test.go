package load

import (
	"reflect"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/tables"
)

// TestPrefetchSameAsAnswers: whatever order the caller asks in (every
// output in order, every other one, backwards, each twice), the prefetched
// reader returns exactly what the plain reader returns.
func TestPrefetchSameAsAnswers(t *testing.T) {
	fsys, _ := fixtures.Example("paired-review")
	c, _ := Campaign(fsys, "example")
	var outs []*tables.OutputRef
	for l := range c.Receipts.All() {
		if out := l.Record.Output; out != nil {
			outs = append(outs, out)
		}
	}
	if len(outs) < 10 {
		t.Fatalf("example has %d outputs", len(outs))
	}
	orders := map[string][]int{}
	for i := range outs {
		orders["in order"] = append(orders["in order"], i)
		if i%2 == 1 {
			orders["every other"] = append(orders["every other"], i)
		}
		orders["backwards"] = append(orders["backwards"], len(outs)-1-i)
		orders["twice"] = append(orders["twice"], i, i)
	}
	plain := Answers(c)
	for name, order := range orders {
		t.Run(name, func(t *testing.T) {
			for _, workers := range []int{1, 2, 4} {
				p := Prefetched(c, workers, 3)
				for _, i := range order {
					wantData, wantOK, wantErr := plain.Read(outs[i])
					data, ok, err := p.Read(outs[i])
					if string(data) != string(wantData) || ok != wantOK || (err == nil) != (wantErr == nil) {
						t.Fatalf("workers %d, output %d: read differs", workers, i)
					}
					wantA, wantF := plain.Decode(outs[i].Path, wantData)
					a, f := p.Decode(outs[i].Path, data)
					if !reflect.DeepEqual(a, wantA) || !reflect.DeepEqual(f, wantF) {
						t.Fatalf("workers %d, output %d: decode differs", workers, i)
					}
				}
				p.Close()
			}
		})
	}
}

// TestPrefetchReceipts: walked through Receipts, the prefetcher yields
// exactly the campaign's receipts, and the outputs read along the way are
// the plain reader's, whether the caller reads every output, every other
// one or none (with a lookahead of two outputs: a caller skipping many
// outputs in a row never waits on a pass that waits on it), and also when
// Receipts comes after a Read (its own pass).
func TestPrefetchReceipts(t *testing.T) {
	fsys, _ := fixtures.Example("paired-review")
	c, _ := Campaign(fsys, "example")
	want := slices.Collect(c.Receipts.All())
	plain := Answers(c)
	for _, every := range []int{1, 2, 0} {
		for _, readFirst := range []bool{false, true} {
			p := Prefetched(c, 2, 1)
			p.lookahead = 2
			if readFirst {
				p.Read(want[0].Record.Output)
			}
			var got []tables.Line[tables.Receipt]
			k := 0
			for l := range p.Receipts() {
				got = append(got, l)
				out := l.Record.Output
				if out == nil || every == 0 {
					continue
				}
				if k++; k%every != 0 {
					continue
				}
				wantData, wantOK, _ := plain.Read(out)
				data, ok, _ := p.Read(out)
				if string(data) != string(wantData) || ok != wantOK {
					t.Fatalf("every %d: output %s: read differs", every, out.Path)
				}
				wantA, wantF := plain.Decode(out.Path, wantData)
				a, f := p.Decode(out.Path, data)
				if !reflect.DeepEqual(a, wantA) || !reflect.DeepEqual(f, wantF) {
					t.Fatalf("every %d: output %s: decode differs", every, out.Path)
				}
			}
			p.Close()
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("every %d, read first %v: %d receipts yielded, want the campaign's %d", every, readFirst, len(got), len(want))
			}
		}
	}
}
