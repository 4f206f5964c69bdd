package load

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// ratingSameAsGeneric decodes line by the fast path and by the generic
// pass: the fast path accepts only what the generic pass accepts with no
// finding, and then decodes the same value. It reports whether the fast
// path accepted line.
func ratingSameAsGeneric(t *testing.T, line []byte) bool {
	t.Helper()
	var fast tables.Adjudication
	ok := adjudicationFast(line, &fast, newInterner(0))
	var generic tables.Adjudication
	gok, findings := decodeStreamTo(line, "adjudication", position{file: "adjudications.jsonl", line: 1}, &generic, nil, newInterner(0), true)
	if !ok {
		return false
	}
	if !gok || len(findings) != 0 {
		t.Fatalf("the fast path accepted a rating the generic pass refuses (%v): %q", findings, line)
	}
	if !reflect.DeepEqual(fast, generic) {
		t.Fatalf("the fast path decoded %+v, the generic pass %+v, from %q", fast, generic, line)
	}
	return true
}

// ratingCorpus is every line of every adjudications.jsonl of the
// repository's tests and examples.
func ratingCorpus(t testing.TB) [][]byte {
	var out [][]byte
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.Name() != "adjudications.jsonl" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for line := range bytes.SplitSeq(data, []byte("\n")) {
			if len(line) > 0 {
				out = append(out, line)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 50 {
		t.Fatalf("only %d ratings found", len(out))
	}
	return out
}

func TestAdjudicationFastAgreesWithGeneric(t *testing.T) {
	accepted, corpus := 0, ratingCorpus(t)
	for _, line := range corpus {
		if ratingSameAsGeneric(t, line) {
			accepted++
		}
	}
	if accepted < len(corpus)*9/10 {
		t.Errorf("the fast path accepted %d of %d ratings; most are clean", accepted, len(corpus))
	}
}

// TestAdjudicationFastCases: each rule's edges, taken from a clean
// rating, agree with the generic pass.
func TestAdjudicationFastCases(t *testing.T) {
	clean := `{"format":"evalgate.adjudication/v1","session_id":"T1-r1-B","rater":"rater-1","rater_role":"primary","blinded":true,"frozen_at":"2027-07-10T23:00:00Z","obligations":[{"obligation_id":"O1","outcome":"addressed"},{"outcome":"missed","obligation_id":"O2"}],"citations":[{"index":0,"supports":true},{"index":1,"supports":false}],"critical_wrong_claims":0,"wrong_claims":1,"unsupported_claims":2,"false_completeness_claims":0,"wrong_exclusions":0}`
	if !ratingSameAsGeneric(t, []byte(clean)) {
		t.Fatal("the clean rating was refused")
	}
	edits := [][2]string{
		{`"T1-r1-B"`, `"-T1"`}, {`"T1-r1-B"`, `"T1\/r1"`}, {`"T1-r1-B"`, `"` + strings.Repeat("a", 65) + `"`}, {`"T1-r1-B"`, `"` + strings.Repeat("a", 64) + `"`},
		{`"primary"`, `"adjudicator"`}, {`"primary"`, `"Primary"`}, {`"primary"`, `null`},
		{`true,"frozen`, `false,"frozen`}, {`true,"frozen`, `1,"frozen`}, {`true,"frozen`, `truex,"frozen`},
		{`23:00:00Z`, `23:00:00.5Z`}, {`23:00:00Z`, `23:00:00+00:00`}, {`23:00:00Z`, `24:00:00Z`}, {`2027-07-10`, `2027-02-30`}, {`23:00:00Z`, `23:00:00.1234567890Z`},
		{`"O1"`, `"O01"`}, {`"O1"`, `"C1"`}, {`"O1"`, `"O1000"`}, {`"addressed"`, `"not_applicable"`}, {`"addressed"`, `"excluded"`},
		{`"index":1`, `"index":-1`}, {`"index":1`, `"index":1.0`}, {`"index":1`, `"index":01`}, {`"index":1`, `"index":9007199254740991`}, {`"index":1`, `"index":9007199254740992`}, {`"index":1`, `"index":1e0`},
		{`"wrong_claims":1`, `"wrong_claims":1,"wrong_claims":1`}, {`"wrong_claims":1`, `"wrong_claims":1,"extra":1`}, {`,"wrong_exclusions":0`, ``},
		{`"obligations":[`, `"obligations":[null,`}, {`"citations":[`, `"citations":[{"index":0,"supports":true},`},
		{`"evalgate.adjudication/v1"`, `"evalgate.adjudication/v2"`}, {`"format"`, `"form\u0061t"`}, {`{"format"`, ` { "format" `}, {`"wrong_exclusions":0}`, `"wrong_exclusions":0} `},
		{`"wrong_exclusions":0}`, `"wrong_exclusions":0}x`}, {`"wrong_exclusions":0}`, `"wrong_exclusions":0}{}`}, {`"rater-1"`, `"rater-1\u0000"`},
	}
	for _, e := range edits {
		line := strings.Replace(clean, e[0], e[1], 1)
		if line == clean {
			t.Fatalf("edit %q does not apply", e)
		}
		ratingSameAsGeneric(t, []byte(line))
	}
	many := func(n int, item string) string {
		items := make([]string, n)
		for i := range items {
			items[i] = strings.ReplaceAll(item, "N", strconv.Itoa(i+1))
		}
		return strings.Join(items, ",")
	}
	for _, n := range []int{0, maxRatedObligations, maxRatedObligations + 1} {
		line := strings.Replace(clean, `{"obligation_id":"O1","outcome":"addressed"},{"outcome":"missed","obligation_id":"O2"}`, many(n, `{"obligation_id":"ON","outcome":"wrong"}`), 1)
		if got, want := ratingSameAsGeneric(t, []byte(line)), n <= maxRatedObligations; got != want {
			t.Errorf("%d obligations: fast path %v, want %v", n, got, want)
		}
	}
	for _, n := range []int{0, maxRatedCitations, maxRatedCitations + 1} {
		line := strings.Replace(clean, `{"index":0,"supports":true},{"index":1,"supports":false}`, many(n, `{"index":N,"supports":true}`), 1)
		if got, want := ratingSameAsGeneric(t, []byte(line)), n <= maxRatedCitations; got != want {
			t.Errorf("%d citations: fast path %v, want %v", n, got, want)
		}
	}
}

func FuzzAdjudicationFast(f *testing.F) {
	for _, line := range ratingCorpus(f)[:40] {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line []byte) { ratingSameAsGeneric(t, line) })
}

// TestAdjudicationFastSchema: the shape adjudicationFast reads is the
// published adjudication schema's: its members in order, every one
// required, no other, each value's rule, the list caps and enumerations.
func TestAdjudicationFastSchema(t *testing.T) {
	s := schemaFor("adjudication")
	var describe func(r *rule) string
	describe = func(r *rule) string {
		switch {
		case r.ref != "" && r.check != nil:
			return r.ref
		case r.ref != "":
			return describe(s.defs[r.ref])
		case r.nullable != nil:
			return "null|" + describe(r.nullable)
		case r.constant != nil:
			return "const " + *r.constant
		case r.enum != nil:
			return "enum " + strings.Join(r.enum, ",")
		case slices.Equal(r.types, []string{"boolean"}):
			return "boolean"
		case slices.Equal(r.types, []string{"integer"}) && r.minimum != nil && r.maximum != nil && r.pattern == nil:
			return "integer " + r.minimum.String() + ".." + r.maximum.String()
		case slices.Equal(r.types, []string{"array"}) && r.minItems == 0 && !r.uniqueItems:
			return "array max " + strconv.Itoa(r.maxItems) + " of " + describe(r.items)
		case slices.Equal(r.types, []string{"object"}) && r.closed && len(r.required) == len(r.props):
			var names []string
			for _, p := range r.props {
				if p.required < 0 {
					return "object with an optional member"
				}
				names = append(names, p.name+": "+describe(p.rule))
			}
			return "{" + strings.Join(names, "; ") + "}"
		}
		return "unknown rule"
	}
	obj := func(names []string, values ...string) string {
		if len(names) != len(values) {
			t.Fatalf("%v: %d values", names, len(values))
		}
		var out []string
		for i := range names {
			out = append(out, names[i]+": "+values[i])
		}
		return "{" + strings.Join(out, "; ") + "}"
	}
	count := "integer 0..9007199254740991"
	want := obj(adjudicationMembers, "const "+tables.FormatAdjudication, "identifier", "identifier", "enum "+strings.Join(raterRoles, ","), "boolean", "timestamp",
		"array max "+strconv.Itoa(maxRatedObligations)+" of "+obj(obligationRatingMembers, "obligationId", "enum "+strings.Join(ratingOutcomes, ",")),
		"array max "+strconv.Itoa(maxRatedCitations)+" of "+obj(citationRatingMembers, count, "boolean"),
		count, count, count, count, count)
	if got := describe(s.root); got != want {
		t.Errorf("the published schema:\n%s\nthe fast path reads:\n%s", got, want)
	}
	for name, check := range map[string]specialCheck{"identifier": checkIdentifier, "timestamp": checkTimestamp} {
		if reflect.ValueOf(specialDefs[name]).Pointer() != reflect.ValueOf(check).Pointer() {
			t.Errorf("$defs %s is not checked by the rule the fast path reads", name)
		}
	}
}
