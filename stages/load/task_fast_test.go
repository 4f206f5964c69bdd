package load

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// taskDocSameAsGeneric decodes data (a packet or a truth, by schema) by
// the fast path and by the generic pass: the fast path accepts only what
// the generic pass accepts with no finding, and then decodes the same
// value. It reports whether the fast path accepted data.
func taskDocSameAsGeneric(t *testing.T, schema string, data []byte) bool {
	t.Helper()
	var fast, generic any
	var ok bool
	if schema == "packet" {
		var p tables.Packet
		ok = packetFast(data, &p)
		fast, generic = &p, new(tables.Packet)
	} else {
		var tr tables.Truth
		ok = truthFast(data, &tr)
		fast, generic = &tr, new(tables.Truth)
	}
	gok, findings := decodeDoc(data, schema, position{file: schema + ".json"}, generic)
	if !ok {
		return false
	}
	if !gok || len(findings) != 0 {
		t.Fatalf("the fast path accepted a %s the generic pass refuses (%v): %q", schema, findings, data)
	}
	if !reflect.DeepEqual(fast, generic) {
		t.Fatalf("the fast path decoded %+v, the generic pass %+v, from %q", fast, generic, data)
	}
	return true
}

// taskDocCorpus is every packet.json or truth.json (name) of the
// repository's tests and examples.
func taskDocCorpus(t testing.TB, name string) [][]byte {
	var out [][]byte
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.Name() != name {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out = append(out, data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("only %d %s found", len(out), name)
	}
	return out
}

func TestTaskFastAgreesWithGeneric(t *testing.T) {
	for _, schema := range []string{"packet", "truth"} {
		accepted, corpus := 0, taskDocCorpus(t, schema+".json")
		for _, data := range corpus {
			if taskDocSameAsGeneric(t, schema, data) {
				accepted++
			}
		}
		if accepted < len(corpus)*9/10 {
			t.Errorf("the fast path accepted %d of %d %s files; most are clean", accepted, len(corpus), schema)
		}
	}
}

// TestTaskFastCases: each rule's edges, taken from a clean packet and a
// clean truth, agree with the generic pass.
func TestTaskFastCases(t *testing.T) {
	sha := strings.Repeat("0123456789abcdef", 4)
	packet := `{"format":"evalgate.packet/v1","task_id":"T1","repository":"repo-1","commit":"` + sha[:40] + `","constructed_complete":false,"items":[` +
		`{"id":"E1","path":"src/a.ts","start_line":3,"end_line":4,"file_sha256":"` + sha + `","text":"  a\n\tb \"q\" \\ \/\n"},` +
		`{"text":"x","file_sha256":"` + sha + `","end_line":9,"start_line":9,"path":"b.go","id":"E2"}]}`
	truth := `{"format":"evalgate.truth/v1","task_id":"T1","obligations":[` +
		`{"id":"O1","text":"Refill is lazy.","critical":true,"answerable":true,"source_justification":"Lines 3-4 (E1).","evidence_ids":["E1"],"accepted_alternatives":["Recomputed on read."],"required_verification":"A unit test.","justified_exclusions":["Changing \"refill\""]},` +
		`{"id":"O2","text":"b","critical":false,"answerable":true,"source_justification":"c","evidence_ids":[],"accepted_alternatives":[],"required_verification":"d","justified_exclusions":[]},` +
		`{"id":"O3","text":"b","critical":false,"answerable":false,"source_justification":"c","evidence_ids":["E1","E2"],"accepted_alternatives":[],"required_verification":"d","justified_exclusions":[]},` +
		`{"id":"O4","text":"b","critical":false,"answerable":false,"source_justification":"c","evidence_ids":[],"accepted_alternatives":[],"required_verification":"d","justified_exclusions":[]}],` +
		`"oracle":{"checker":"checker-1","second_reviewer":"reviewer-2","signed_off_at":"2026-09-26T10:00:00Z","defective":false,"defect_note":null}}`
	for _, c := range []struct{ schema, clean string }{{"packet", packet}, {"truth", truth}} {
		if !taskDocSameAsGeneric(t, c.schema, []byte(c.clean)) {
			t.Fatalf("the clean %s was refused", c.schema)
		}
	}
	packetEdits := [][2]string{
		{`"evalgate.packet/v1"`, `"evalgate.packet/v2"`}, {`"format"`, `"form\u0061t"`}, {`"T1"`, `"-T1"`}, {`"T1"`, `"` + strings.Repeat("a", 65) + `"`}, {`"T1"`, `"` + strings.Repeat("a", 64) + `"`},
		{`"repo-1"`, `""`}, {`"repo-1"`, `"repo\/1"`}, {`"` + sha[:40] + `"`, `"` + sha[:39] + `"`}, {`"` + sha[:40] + `"`, `"` + strings.ToUpper(sha[:40]) + `"`}, {`"` + sha[:40] + `"`, `"` + sha[:41] + `"`},
		{`"constructed_complete":false`, `"constructed_complete":true`}, {`"constructed_complete":false`, `"constructed_complete":0`}, {`"constructed_complete":false`, `"constructed_complete":null`},
		{`]}`, `],"raw_observations":true}`}, {`]}`, `],"raw_observations":false}`}, {`]}`, `],"raw_observations":1}`}, {`]}`, `],"raw_observations":true,"raw_observations":true}`},
		{`"E1"`, `"E01"`}, {`"E1"`, `"C1"`}, {`"E1"`, `"E"`}, {`"E1"`, `"E12345"`}, {`"E1"`, `"E2"`},
		{`"src/a.ts"`, `"/src/a.ts"`}, {`"src/a.ts"`, `"src//a.ts"`}, {`"src/a.ts"`, `"src/../a.ts"`}, {`"src/a.ts"`, `"src\\a.ts"`}, {`"src/a.ts"`, `"src\u0000a"`}, {`"src/a.ts"`, `""`},
		{`"start_line":3`, `"start_line":0`}, {`"start_line":3`, `"start_line":-3`}, {`"start_line":3`, `"start_line":3.0`}, {`"start_line":3`, `"start_line":03`},
		{`"start_line":3`, `"start_line":9007199254740991`}, {`"start_line":3`, `"start_line":9007199254740992`}, {`"start_line":3`, `"start_line":"3"`}, {`"end_line":4`, `"end_line":2`},
		{`"text":"x"`, `"text":""`}, {`"text":"x"`, `"text":" "`}, {`"text":"x"`, `"text":"\u00e9"`}, {`"text":"x"`, `"text":"\ud800"`}, {`"text":"x"`, `"text":null`}, {`"text":"x"`, "\"text\":\"a\x01\""},
		{`"text":"x"`, "\"text\":\"\xff\""}, {`"text":"x"`, `"text":"x","text":"x"`}, {`"text":"x"`, `"text":"x","extra":1`}, {`"path":"b.go",`, ``},
		{`"items":[`, `"items":[null,`}, {`"items":[{"id":"E1"`, `"items":[],"x":[{"id":"E1"`}, {`{"format"`, ` { "format" `}, {`]}`, `]} `}, {`]}`, `]}x`}, {`]}`, `]}{}`},
	}
	truthEdits := [][2]string{
		{`"evalgate.truth/v1"`, `"evalgate.truth/v0"`}, {`"T1"`, `"T 1"`}, {`"O1"`, `"O0"`}, {`"O1"`, `"E1"`}, {`"O1"`, `"O1x"`},
		{`"Refill is lazy."`, `" Refill is lazy."`}, {`"Refill is lazy."`, `"Refill is lazy.\n"`}, {`"Refill is lazy."`, `""`}, {`"Refill is lazy."`, `"` + strings.Repeat("é", 2048) + `"`},
		{`"Refill is lazy."`, `"` + strings.Repeat("é", 2049) + `"`}, {`"Refill is lazy."`, `"` + strings.Repeat("a", 2049) + `"`}, {`"Refill is lazy."`, `"Re\tfill"`}, {`"Refill is lazy."`, `"\u0052efill"`},
		{`"critical":true`, `"critical":"true"`}, {`"answerable":true`, `"answerable":null`},
		{`"evidence_ids":["E1"]`, `"evidence_ids":["E1","E1"]`}, {`"evidence_ids":["E1"]`, `"evidence_ids":["O1"]`}, {`"evidence_ids":["E1"]`, `"evidence_ids":null`}, {`"evidence_ids":["E1"]`, `"evidence_ids":["E7"]`},
		{`["Recomputed on read."]`, `["Recomputed on read.","Recomputed on read."]`}, {`["Recomputed on read."]`, `[" "]`}, {`["Recomputed on read."]`, `[""]`}, {`["Recomputed on read."]`, `[1]`}, {`["Recomputed on read."]`, `{}`},
		{`"A unit test."`, `"A unit test. "`}, {`["Changing \"refill\""]`, `["Changing \\"]`}, {`["Changing \"refill\""]`, `["\\"]`},
		{`"checker-1"`, `"checker 1"`}, {`"reviewer-2"`, `""`}, {`10:00:00Z`, `10:00:00.5Z`}, {`10:00:00Z`, `10:00:00+00:00`}, {`2026-09-26`, `2026-02-30`}, {`10:00:00Z`, `24:00:00Z`},
		{`"defective":false`, `"defective":true`}, {`"defect_note":null`, `"defect_note":"A note."`}, {`"defect_note":null`, `"defect_note":""`}, {`"defect_note":null`, `"defect_note":"note "`},
		{`"defect_note":null`, `"defect_note":null,"defect_note":null`}, {`,"defect_note":null`, ``}, {`"oracle":{`, `"oracle":{"x":1,`}, {`"oracle":{"checker"`, `"oracle":null,"o":{"checker"`},
		{`"obligations":[`, `"obligations":[null,`}, {`"justified_exclusions":[]}],`, `"justified_exclusions":[],"extra":true}],`}, {`}}`, `}} `}, {`}}`, `}}}`},
	}
	for _, c := range []struct {
		schema, clean string
		edits         [][2]string
	}{{"packet", packet, packetEdits}, {"truth", truth, truthEdits}} {
		for _, e := range c.edits {
			doc := strings.Replace(c.clean, e[0], e[1], 1)
			if doc == c.clean {
				t.Fatalf("%s edit %q does not apply", c.schema, e)
			}
			taskDocSameAsGeneric(t, c.schema, []byte(doc))
		}
	}
	obligation := `{"id":"ON","text":"b","critical":false,"answerable":true,"source_justification":"c","evidence_ids":[],"accepted_alternatives":[],"required_verification":"d","justified_exclusions":[]}`
	start, end := strings.Index(truth, `"obligations":[`)+len(`"obligations":[`), strings.Index(truth, `],"oracle"`)
	for n := range maxTruthObligations + 2 {
		items := make([]string, n)
		for i := range items {
			items[i] = strings.ReplaceAll(obligation, "N", strconv.Itoa(i+1))
		}
		doc := truth[:start] + strings.Join(items, ",") + truth[end:]
		if got, want := taskDocSameAsGeneric(t, "truth", []byte(doc)), n >= minTruthObligations && n <= maxTruthObligations; got != want {
			t.Errorf("%d obligations: fast path %v, want %v", n, got, want)
		}
	}
	start, end = strings.Index(packet, `"items":[`)+len(`"items":[`), strings.LastIndex(packet, `]}`)
	for _, n := range []int{0, 1, 300} {
		items := make([]string, n)
		for i := range items {
			items[i] = `{"id":"E` + strconv.Itoa(i+1) + `","path":"a","start_line":1,"end_line":1,"file_sha256":"` + sha + `","text":"t"}`
		}
		doc := packet[:start] + strings.Join(items, ",") + packet[end:]
		if got, want := taskDocSameAsGeneric(t, "packet", []byte(doc)), n >= minPacketItems; got != want {
			t.Errorf("%d items: fast path %v, want %v", n, got, want)
		}
	}
}

func FuzzPacketFast(f *testing.F) {
	for _, data := range taskDocCorpus(f, "packet.json") {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { taskDocSameAsGeneric(t, "packet", data) })
}

func FuzzTruthFast(f *testing.F) {
	for _, data := range taskDocCorpus(f, "truth.json") {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { taskDocSameAsGeneric(t, "truth", data) })
}

// TestTaskFastSchema: the shapes packetFast and truthFast read are the
// published packet and truth schemas': their members in order, which are
// required, each value's rule, the list bounds.
func TestTaskFastSchema(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{"packet", obj(t, packetMembers, "const "+tables.FormatPacket, "identifier", "identifier", "commit", "boolean",
			"array min 1 of "+obj(t, packetItemMembers, "evidenceId", "path", "line", "line", "sha256", "string min 1"), "optional boolean")},
		{"truth", obj(t, truthMembers, "const "+tables.FormatTruth, "identifier",
			"array min "+itoa(minTruthObligations)+" max "+itoa(maxTruthObligations)+" of "+obj(t, truthObligationMembers,
				"obligationId", "text", "boolean", "boolean", "text", "array unique of evidenceId", "array of text", "text", "array of text"),
			obj(t, oracleMembers, "identifier", "identifier", "timestamp", "boolean", "null|text"))},
	} {
		s := schemaFor(c.schema)
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
			case r.enum != nil || r.pattern != nil || r.minimum != nil || r.maximum != nil:
				return "unknown rule"
			case slices.Equal(r.types, []string{"boolean"}):
				return "boolean"
			case slices.Equal(r.types, []string{"string"}) && r.maxLength < 0:
				return "string min " + itoa(r.minLength)
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
			case slices.Equal(r.types, []string{"object"}) && r.closed:
				var names []string
				for _, p := range r.props {
					v := describe(p.rule)
					if p.required < 0 {
						v = "optional " + v
					}
					names = append(names, p.name+": "+v)
				}
				return "{" + strings.Join(names, "; ") + "}"
			}
			return "unknown rule"
		}
		if got := describe(s.root); got != c.want {
			t.Errorf("the published %s schema:\n%s\nthe fast path reads:\n%s", c.schema, got, c.want)
		}
	}
	for name, check := range map[string]specialCheck{"identifier": checkIdentifier, "timestamp": checkTimestamp, "text": checkText, "path": checkPath, "line": checkLine} {
		if reflect.ValueOf(specialDefs[name]).Pointer() != reflect.ValueOf(check).Pointer() {
			t.Errorf("$defs %s is not checked by the rule the fast path reads", name)
		}
	}
}

// obj describes an object of the members names with the values' rules.
func obj(t *testing.T, names []string, values ...string) string {
	t.Helper()
	if len(names) != len(values) {
		t.Fatalf("%v: %d values", names, len(values))
	}
	var out []string
	for i := range names {
		out = append(out, names[i]+": "+values[i])
	}
	return "{" + strings.Join(out, "; ") + "}"
}
