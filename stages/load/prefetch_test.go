package load

import (
	"reflect"
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
