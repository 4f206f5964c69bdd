package validate

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestLabelMatcherOracle checks the automaton against strings.Contains on
// random labels and texts over a two-letter alphabet, where labels are
// prefixes, suffixes and repeats of each other (the cases a failure link
// or a dictionary link gets wrong), plus an empty label, which matches
// nothing.
func TestLabelMatcherOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 2026))
	word := func(max int) string {
		b := make([]byte, 1+rng.IntN(max))
		for i := range b {
			b[i] = "ab"[rng.IntN(2)]
		}
		return string(b)
	}
	for range 500 {
		labels := []label{{"empty", "case ID", ""}}
		for i := range 1 + rng.IntN(8) {
			labels = append(labels, label{caseID: string(rune('A' + i)), what: "case ID", text: word(5)})
		}
		m := newLabelMatcher(labels)
		for range 5 {
			text := word(30)
			var want []label
			for _, l := range labels {
				if l.text != "" && strings.Contains(text, l.text) {
					want = append(want, l)
				}
			}
			if got := m.found([]byte(text)); !slices.Equal(got, want) {
				t.Fatalf("labels %v in %q: found %v, want %v", labels, text, got, want)
			}
		}
	}
}

// TestLabelsCoverEveryFamily: the labels searched in a reviewer's input
// are those of every case of the benchmark, not only the reviewed case's
// family.
func TestLabelsCoverEveryFamily(t *testing.T) {
	m := newLabelMatcher([]label{{"F01-clean", "case ID", "F01-clean"}, {"F18-v2", "defect description", "the gate reads a hidden sentinel"}})
	got := m.found([]byte("Task files of F01 ...\nNote: the gate reads a hidden sentinel file.\n"))
	if len(got) != 1 || got[0].caseID != "F18-v2" {
		t.Fatalf("found %v, want the F18-v2 description", got)
	}
}
