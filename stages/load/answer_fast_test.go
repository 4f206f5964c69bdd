package load

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// sameAsGeneric decodes data with the fast path and with the generic pass
// and fails unless the fast path accepts only what the generic pass
// accepts without a finding, into an equal value. It reports whether the
// fast path accepted data.
func sameAsGeneric(t *testing.T, data []byte) bool {
	t.Helper()
	var fast tables.Answer
	ok := answerFast(data, &fast, false)
	var owned tables.Answer
	if answerFast(slices.Clone(data), &owned, true) != ok {
		t.Fatal("the fast path decides otherwise on bytes it owns")
	}
	var generic tables.Answer
	gok, findings := decodeDoc(data, "answer", position{file: "a.json"}, &generic)
	if !ok {
		return false
	}
	if !gok || len(findings) != 0 {
		t.Fatalf("the fast path accepted an answer the generic pass refuses (%v): %q", findings, data)
	}
	if !reflect.DeepEqual(fast, generic) || !reflect.DeepEqual(owned, generic) {
		t.Fatalf("the fast path decoded %+v, the generic pass %+v, from %q", fast, generic, data)
	}
	return true
}

// answerCorpus is every answer file of the repository's tests and
// examples.
func answerCorpus(t testing.TB) [][]byte {
	var out [][]byte
	for _, glob := range []string{"../testdata/answers/*.json", "../../fixtures/examples/*/answers/*.json"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, data)
		}
	}
	if len(out) < 50 {
		t.Fatalf("only %d answers found", len(out))
	}
	return out
}

func TestAnswerFastAgreesWithGeneric(t *testing.T) {
	accepted := 0
	corpus := answerCorpus(t)
	for k, data := range corpus {
		if sameAsGeneric(t, data) {
			accepted++
		}
		if k%5 != 0 {
			continue
		}
		// prefixes and byte edits of some: the fast path gives up or
		// agrees (FuzzAnswerFast tries many more)
		for n := k % 7; n < len(data); n += 1 + len(data)/13 {
			sameAsGeneric(t, data[:n])
			for _, c := range []byte{' ', '"', '\\', '0', '}', 0xff} {
				edited := slices.Clone(data)
				edited[n] = c
				sameAsGeneric(t, edited)
			}
		}
	}
	t.Logf("the fast path accepted %d of %d answers", accepted, len(corpus))
	if accepted < len(corpus)/4 {
		t.Fatalf("the fast path accepted only %d of %d answers", accepted, len(corpus))
	}
	v := applyEdits(t, validAnswer())
	if !sameAsGeneric(t, v) {
		t.Fatal("the fast path gives up on the valid answer")
	}
}

// TestAnswerFastCases pins the fast path's decisions on the edges of each
// rule it reads for itself: what it accepts must be the generic pass's
// clean answer, and each refusal is left to the generic pass.
func TestAnswerFastCases(t *testing.T) {
	long := strings.Repeat("é", 2048)
	cases := []struct {
		name   string
		edits  []edit
		accept bool
		raw    []string // then these replacements, old and new, of the bytes
	}{
		{"as built", nil, true, nil},
		{"reconciliation null", []edit{set("/reconciliation", "null")}, true, nil},
		{"empty lists", []edit{set("/final/implementation_plan", "[]"), set("/final/verification_plan", "[]"), set("/final/citations/0/supports", `["C1"]`)}, true, nil},
		{"2048 two-byte scalars", []edit{set("/final/claims/0/text", `"`+long+`"`)}, true, nil},
		{"2049 two-byte scalars", []edit{set("/final/claims/0/text", `"`+long+`é"`)}, false, nil},
		{"escaped text", nil, true, []string{`"The parser rejects empty input."`, `"a\nb \"q\" \\ \/ \t\r\b\fc"`}},
		{"escaped text ending in a form feed", nil, false, []string{`"The parser rejects empty input."`, `"a\f"`}},
		{"unicode escape", nil, false, []string{`"The parser rejects empty input."`, `"a\u0041"`}},
		{"escaped ID", nil, false, []string{`"id":"C1"`, `"id":"C\/1"`}},
		{"escaped member name", nil, false, []string{`"id":"C1"`, `"i\/d":"C1"`}},
		{"raw control character", nil, false, []string{`"The parser rejects empty input."`, "\"a\x01b\""}},
		{"invalid UTF-8", nil, false, []string{`"The parser rejects empty input."`, "\"a\xffb\""}},
		{"untrimmed text", []edit{set("/final/claims/0/text", `" a"`)}, false, nil},
		{"text ending in a no-break space", []edit{set("/final/claims/0/text", "\"a\u00a0\"")}, false, nil},
		{"text ending in an escaped newline", []edit{set("/final/claims/0/text", `"a\n"`)}, false, nil},
		{"empty text", []edit{set("/final/claims/0/text", `""`)}, false, nil},
		{"ID C1000", []edit{set("/final/claims/0/id", `"C1000"`)}, true, nil},
		{"ID C01", []edit{set("/final/claims/0/id", `"C01"`)}, false, nil},
		{"ID of another type", []edit{set("/final/claims/0/id", `"A1"`)}, false, nil},
		{"repeated claim ID (answerIDs' rule)", []edit{set("/final/claims/1/id", `"C1"`)}, true, nil},
		{"repeated evidence ID", []edit{set("/final/claims/0/evidence_ids", `["E1","E1"]`)}, false, nil},
		{"empty supports", []edit{set("/final/citations/0/supports", `[]`)}, false, nil},
		{"line 2^53-1", []edit{set("/final/citations/0/end_line", `9007199254740991`)}, true, nil},
		{"line 2^53", []edit{set("/final/citations/0/end_line", `9007199254740992`)}, false, nil},
		{"line 0", []edit{set("/final/citations/0/start_line", `0`)}, false, nil},
		{"line 1.0", nil, false, []string{`"start_line":1`, `"start_line":1.0`}},
		{"line 1e0", nil, false, []string{`"start_line":1`, `"start_line":1e0`}},
		{"line 01", nil, false, []string{`"start_line":1`, `"start_line":01`}},
		{"line -1", nil, false, []string{`"start_line":1`, `"start_line":-1`}},
		{"line 1 then a space", nil, true, []string{`"start_line":1`, `"start_line":1 `}},
		{"nulls written nul", nil, false, []string{`"uncertainty_id":null`, `"uncertainty_id":nul`}},
		{"line as string", []edit{set("/final/citations/0/start_line", `"1"`)}, false, nil},
		{"path with dot segment", []edit{set("/final/citations/0/path", `"src/./a.ts"`)}, false, nil},
		{"absolute path", []edit{set("/final/citations/0/path", `"/src/a.ts"`)}, false, nil},
		{"status not in enum", []edit{set("/final/claims/0/status", `"maybe"`)}, false, nil},
		{"null status", []edit{set("/final/claims/0/status", `null`)}, false, nil},
		{"null uncertainty", []edit{set("/final/claims/1/uncertainty_id", `null`)}, true, nil},
		{"null element", []edit{set("/final/claims/0/evidence_ids", `[null]`)}, false, nil},
		{"too many claims", []edit{set("/final/claims", claimsJSON(33))}, false, nil},
		{"32 claims", []edit{set("/final/claims", claimsJSON(32))}, true, nil},
		{"no obligation", []edit{set("/reconciliation/obligations", `[]`)}, false, nil},
		{"unknown member", []edit{set("/final/claims/0/note", `"x"`)}, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := applyEdits(t, validAnswer(), tc.edits...)
			for i := 0; i+1 < len(tc.raw); i += 2 {
				if !strings.Contains(string(data), tc.raw[i]) {
					t.Fatalf("no %s in %s", tc.raw[i], data)
				}
				data = []byte(strings.Replace(string(data), tc.raw[i], tc.raw[i+1], 1))
			}
			if got := sameAsGeneric(t, data); got != tc.accept {
				t.Fatalf("fast path accepted %v, want %v: %s", got, tc.accept, data)
			}
		})
	}
	for name, doc := range map[string]string{
		"repeated member": `{"final":{},"final":{}}`,
		"trailing data":   `{"final":null,"reconciliation":null} x`,
		"empty":           ``,
		"byte order mark": "\ufeff{}",
	} {
		if sameAsGeneric(t, []byte(doc)) {
			t.Fatalf("%s: the fast path accepted %q", name, doc)
		}
	}
	t.Run("members in another order, white space", func(t *testing.T) {
		data := []byte(" {\"reconciliation\" : null ,\n\t\"final\":{\"citations\":[],\"exclusions\":[],\"uncertainties\":[],\"verification_plan\":[],\"implementation_plan\":[],\"claims\":[{\"uncertainty_id\":null,\"evidence_ids\":[],\"status\":\"unknown\",\"text\":\"t\",\"id\":\"C7\"}]}}\r\n")
		if !sameAsGeneric(t, data) {
			t.Fatal("the fast path gave up")
		}
	})
}

func FuzzAnswerFast(f *testing.F) {
	for _, data := range answerCorpus(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameAsGeneric(t, data) })
}

// TestAnswerFastSchema checks that the shape the fast path reads is the
// published answer schema's: every record's members (all required, no
// other allowed), and what each member's value must be.
func TestAnswerFastSchema(t *testing.T) {
	s := schemaFor("answer")
	var describe func(r *rule) string
	describe = func(r *rule) string {
		switch {
		case r.ref != "" && r.check != nil:
			return r.ref
		case r.ref != "":
			return describe(s.defs[r.ref])
		case r.nullable != nil:
			return "null|" + describe(r.nullable)
		case r.enum != nil:
			return "enum " + strings.Join(r.enum, ",")
		case slices.Equal(r.types, []string{"array"}):
			d := "array"
			if r.minItems > 0 {
				d += " min " + itoa(r.minItems)
			}
			if r.maxItems >= 0 {
				d += " max " + itoa(r.maxItems)
			}
			if r.uniqueItems {
				d += " unique"
			}
			return d + " of " + describe(r.items)
		case slices.Equal(r.types, []string{"object"}):
			if !r.closed {
				return "open object"
			}
			var names []string
			for _, p := range r.props {
				if p.required < 0 {
					return "object with an optional member"
				}
				names = append(names, p.name+": "+describe(p.rule))
			}
			if len(r.required) != len(r.props) {
				return "object with a required member and no property"
			}
			return "{" + strings.Join(names, "; ") + "}"
		}
		return "unknown rule"
	}
	ids := func(prefix string, min int) string {
		d := "array"
		if min > 0 {
			d += " min " + itoa(min)
		}
		return d + " unique of " + prefix
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
	list := func(min, max int, of string) string {
		d := "array"
		if min > 0 {
			d += " min " + itoa(min)
		}
		if max >= 0 {
			d += " max " + itoa(max)
		}
		return d + " of " + of
	}
	want := obj(answerMembers,
		obj(finalMembers,
			list(0, maxClaims, obj(claimMembers, "claimId", "text", "enum "+strings.Join([]string{tables.ClaimSourceBacked, tables.ClaimInference, tables.ClaimUnknown}, ","), ids("evidenceId", 0), "null|uncertaintyId")),
			list(0, maxActions, obj(actionMembers, "actionId", "text", "text", "enum source,task", ids("evidenceId", 0), ids("verificationId", 0), "null|text")),
			list(0, maxVerifications, obj(verificationMembers, "verificationId", "text", "text", "enum source,task,missing_source", ids("evidenceId", 0), "null|uncertaintyId")),
			list(0, maxUncertainties, obj(uncertaintyMembers, "uncertaintyId", "text", "text", "text")),
			list(0, maxExclusions, obj(exclusionMembers, "exclusionId", "text", "text", ids("evidenceId", 0))),
			list(0, maxCitations, obj(citationMembers, "evidenceId", "path", "line", "line", ids("supportedId", 1)))),
		"null|"+obj(reconciliationMembers,
			list(minObligations, maxObligations, obj(obligationMembers, "obligationId", "text", "enum task,source", "enum addressed,excluded,unresolved", ids("evidenceId", 0), ids("finalId", 1))),
			list(0, -1, obj(dispositionMembers, "evidenceId", "enum used,excluded,unresolved", ids("finalId", 1)))))
	if got := describe(s.root); got != want {
		t.Fatalf("the published answer schema is\n%s\nbut the fast path reads\n%s", got, want)
	}
	// the ID checks of the special $defs the fast path reads for itself:
	// which type letters each admits
	for name, prefixes := range map[string]string{"claimId": "C", "actionId": "A", "verificationId": "V", "uncertaintyId": "U",
		"exclusionId": "X", "evidenceId": "E", "obligationId": "O", "supportedId": "CAVX", "finalId": "CAVUX"} {
		admitted := ""
		for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZ" {
			w := &walker{}
			specialDefs[name](w, &node{kind: kindString, text: string(c) + "12"}, "", s.defs[name])
			if len(w.out.Findings()) == 0 {
				admitted += string(c)
			}
		}
		if sorted := func(s string) string { b := []byte(s); slices.Sort(b); return string(b) }; sorted(admitted) != sorted(prefixes) {
			t.Fatalf("$defs/%s admits IDs of %s, the fast path reads %s", name, admitted, prefixes)
		}
	}
}

// BenchmarkAnswer decodes the answers of a campaign directory (set
// EVALGATE_BENCH_ANSWERS to its answers/ folder; else the examples').
func BenchmarkAnswer(b *testing.B) {
	dir := os.Getenv("EVALGATE_BENCH_ANSWERS")
	var docs [][]byte
	if dir == "" {
		docs = answerCorpus(b)
	} else {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, f := range files[:min(len(files), 2000)] {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			docs = append(docs, data)
		}
	}
	size := 0
	for _, d := range docs {
		size += len(d)
	}
	for _, mode := range []string{"Answer", "generic"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, d := range docs {
					if mode == "Answer" {
						Answer("a.json", d)
					} else {
						var a tables.Answer
						decodeDoc(d, "answer", position{file: "a.json"}, &a)
					}
				}
			}
		})
	}
}
