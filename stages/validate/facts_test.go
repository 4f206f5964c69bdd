package validate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// TestFactsArenaRoundTrip: every receipt's references come back exactly
// from the arena, whatever their sha256 text (lowercase hex is packed,
// anything else kept as text), byte count or path length (a fact larger
// than a block gets a block of its own), and offsets stay valid as blocks
// are added.
func TestFactsArenaRoundTrip(t *testing.T) {
	lower := strings.Repeat("0123456789abcdef", 4)
	refs := []*tables.OutputRef{
		nil,
		{Path: "answers/T1-r1-D.json", SHA256: lower, Bytes: 5768},
		{Path: "", SHA256: strings.ToUpper(lower), Bytes: -1},
		{Path: "a", SHA256: lower[:63], Bytes: 1 << 62},
		{Path: "b", SHA256: "not hex at all", Bytes: 0},
		{Path: "é/ü.json", SHA256: "", Bytes: 3},
	}
	var a factsArena
	var want []receiptFacts
	var offs []int
	big := &tables.OutputRef{Path: strings.Repeat("p", factsBlock+10), SHA256: lower, Bytes: 7}
	for i := range 3 * factsBlock / 40 { // enough facts to fill several blocks
		f := receiptFacts{output: refs[i%len(refs)], observations: refs[(i/len(refs))%len(refs)]}
		if i == 1000 || i == 1001 {
			f.output = big
		}
		want = append(want, f)
		offs = append(offs, a.add(f))
	}
	if len(a.blocks) < 3 {
		t.Fatalf("%d blocks, want several", len(a.blocks))
	}
	for i, off := range offs {
		if got := a.get(off, nil); !reflect.DeepEqual(got, want[i]) {
			t.Fatalf("fact %d: got %+v, want %+v", i, got, want[i])
		}
		for _, known := range refs[1:] { // an equal reference comes back as itself, any other decoded
			got := a.get(off, known)
			if !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("fact %d, known %+v: got %+v, want %+v", i, known, got, want[i])
			}
			for _, r := range []*tables.OutputRef{got.output, got.observations} {
				if r != nil && (r == known) != (*r == *known) {
					t.Fatalf("fact %d, known %+v: reference %+v shared %v", i, known, r, r == known)
				}
			}
		}
	}
}
