package validate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// TestCitedByScanMatchesSearch compares citedBy on an index of few cited
// pairs (scanned in citation order) and of many (sorted and searched) with a
// scan of the citations themselves, on random answers of 0 to 80 pairs.
func TestCitedByScanMatchesSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 41))
	ids := []string{"C1", "C2", "C3", "A1", "A2", "V1", "X1", ""}
	evs := []string{"E1", "E2", "E3", "E4", ""}
	pick := func(from []string) []string {
		out := make([]string, rng.IntN(4))
		for i := range out {
			out[i] = from[rng.IntN(len(from))]
		}
		return out
	}
	var reuse finalIndex
	scanned, searched := 0, 0
	for range 3000 {
		var f tables.Final
		for pairs, want := 0, rng.IntN(81); pairs < want; {
			cit := tables.Citation{EvidenceID: evs[rng.IntN(len(evs))], Supports: pick(ids)}
			pairs += len(cit.Supports)
			f.Citations = append(f.Citations, cit)
		}
		x := indexFinal(&f, reuse)
		reuse = x
		if len(x.cites) <= citesScanMax {
			scanned++
		} else {
			searched++
		}
		for _, id := range ids {
			evidence := pick(evs)
			want := false
			for _, cit := range f.Citations {
				if slices.Contains(cit.Supports, id) && slices.Contains(evidence, cit.EvidenceID) {
					want = true
				}
			}
			if got := x.citedBy(id, evidence); got != want {
				t.Fatalf("citedBy(%q, %q) = %v, want %v over %d pairs of %s", id, evidence, got, want, len(x.cites), fmt.Sprint(f.Citations))
			}
		}
	}
	if scanned == 0 || searched == 0 {
		t.Fatalf("%d answers scanned and %d searched: both paths must be compared", scanned, searched)
	}
}
