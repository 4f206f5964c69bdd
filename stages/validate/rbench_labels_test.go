package validate

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLabelMatcherOracle checks the automaton against a naive whole-token
// search on random labels and texts over a letters-and-hyphen alphabet, where labels are
// prefixes, suffixes and repeats of each other (the cases a failure link
// or a dictionary link gets wrong), plus an empty label, which matches
// nothing.
func TestLabelMatcherOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 2026))
	word := func(max int) string {
		b := make([]byte, 1+rng.IntN(max))
		for i := range b {
			b[i] = "ab-"[rng.IntN(3)]
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
				if l.text != "" && containsToken(text, l.text) {
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

// containsToken is the oracle: some occurrence of label in text is not
// glued to a letter or digit where the label begins or ends with one.
func containsToken(text, label string) bool {
	isAlnum := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	for i := 0; i+len(label) <= len(text); i++ {
		if text[i:i+len(label)] != label {
			continue
		}
		if i > 0 && isAlnum(label[0]) && isAlnum(text[i-1]) {
			continue
		}
		if j := i + len(label); j < len(text) && isAlnum(label[len(label)-1]) && isAlnum(text[j]) {
			continue
		}
		return true
	}
	return false
}

// TestLabelWholeToken: a short case ID inside a sha256 or a longer ID is
// no leak; the same ID standing alone is.
func TestLabelWholeToken(t *testing.T) {
	m := newLabelMatcher([]label{{"c1", "case ID", "c1"}, {"F01-v1", "case ID", "F01-v1"}})
	if got := m.found([]byte("### tests/test.sh (sha256 9ac1f0)\nsee F01-v10\n")); len(got) != 0 {
		t.Errorf("found %v inside longer tokens", got)
	}
	if got := m.found([]byte("case c1: see F01-v1.")); len(got) != 2 {
		t.Errorf("found %v, want both", got)
	}
}
