package validate

import (
	"slices"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// TestNormalized: case, whitespace, punctuation and symbols collapse to
// single spaces between lowercased words, padded at both ends.
func TestNormalized(t *testing.T) {
	for in, want := range map[string]string{
		"":                                    " ",
		"The reward  follows\ta report-file!": " the reward follows a report file ",
		"tests/test.sh:5-5":                   " tests test sh 5 5 ",
		"“Quoted” — ÉTÉ, déjà":                " quoted été déjà ",
		"F01-v10":                             " f01 v10 ",
	} {
		if got := string(normalized(nil, []byte(in))); got != want {
			t.Errorf("normalized(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFragments: a description is split into its sentences and, where a
// sentence has them, its clauses, keeping those of at least four words in
// normal form ("v1.2" is two words; "See notes" is too short).
func TestFragments(t *testing.T) {
	got := fragments("The verifier writes reward 1, whatever the tests report. Planted for the benchmark only. See v1.2 notes. See notes")
	want := []string{"The verifier writes reward 1, whatever the tests report.", "The verifier writes reward 1", " whatever the tests report.",
		" Planted for the benchmark only.", " See v1.2 notes."}
	if !slices.Equal(got, want) {
		t.Errorf("fragments\n%q\nwant\n%q", got, want)
	}
}

// TestLeakNormalised: a defect description's substantive sentence,
// reworded in case, spacing and punctuation and with its other sentence
// dropped, is found; a case ID inside a longer token still is not; the
// clean text of the same words in another order is not.
func TestLeakNormalised(t *testing.T) {
	v := "f12-report-forgery"
	cases := []tables.Case{{ID: "F12-v1", Kind: tables.CaseVariant, Variant: &v, Defect: &tables.PlantedDefect{
		Category: "report_forgery", Location: tables.Location{Path: "tests/test.sh", StartLine: 5, EndLine: 5},
		Description: "The reward follows a report file the solver can write itself. Planted for the benchmark only."}}}
	m := newLabelMatcher(benchLabels(cases))
	find := func(text string) []string {
		var out []string
		for _, l := range m.found(normalized(nil, []byte(text))) {
			out = append(out, l.what)
		}
		return out
	}
	if got := find("Hint: THE REWARD follows a report-file -- the solver\ncan write itself!"); !slices.Equal(got, []string{"defect description (a sentence or clause of it)"}) {
		t.Errorf("reworded sentence: found %q", got)
	}
	if got := find("see F12-V1 and tests/test.sh line 5-5"); !slices.Equal(got, []string{"case ID"}) {
		t.Errorf("case ID in other case: found %q", got)
	}
	if got := find("sha256 9af12-v1f; F12-v10; the solver can write a report file itself"); len(got) != 0 {
		t.Errorf("found %q in longer tokens and other word orders", got)
	}
}
