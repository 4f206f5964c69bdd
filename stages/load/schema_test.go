package load

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/tables"
)

func TestSchemasCompile(t *testing.T) {
	for _, name := range tables.SchemaNames() {
		t.Run(name, func(t *testing.T) {
			data, _ := tables.Schema(name)
			if _, err := compileSchema(name, data); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("unknown keyword refused", func(t *testing.T) {
		if _, err := compileSchema("x", []byte(`{"type":"object","patternProperties":{}}`)); err == nil {
			t.Fatal("patternProperties accepted")
		}
	})
	t.Run("integer without bounds refused", func(t *testing.T) {
		if _, err := compileSchema("x", []byte(`{"type":"integer"}`)); err == nil {
			t.Fatal("unbounded integer accepted")
		}
	})
}

// TestSchemasMatchGoTypes checks that every published schema names exactly
// the Go json tags of its type, and that pointer fields (and only they) are
// nullable.
func TestSchemasMatchGoTypes(t *testing.T) {
	types := map[string]reflect.Type{
		"answer":       reflect.TypeFor[tables.Answer](),
		"manifest":     reflect.TypeFor[tables.Manifest](),
		"manifest-v2":  reflect.TypeFor[tables.Manifest](),
		"schedule":     reflect.TypeFor[tables.ScheduleLine](),
		"packet":       reflect.TypeFor[tables.Packet](),
		"observations": reflect.TypeFor[tables.ObservationLog](),
		"truth":        reflect.TypeFor[tables.Truth](),
		"receipt":      reflect.TypeFor[tables.Receipt](),
		"adjudication": reflect.TypeFor[tables.Adjudication](),

		"cases":                reflect.TypeFor[tables.Cases](),
		"inventory":            reflect.TypeFor[tables.Inventory](),
		"review":               reflect.TypeFor[tables.Review](),
		"finding-adjudication": reflect.TypeFor[tables.FindingAdjudication](),
	}
	for name, typ := range types {
		t.Run(name, func(t *testing.T) {
			s := schemaFor(name)
			matchType(t, s, s.root, typ, name)
		})
	}
}

// versionedMembers are the json tags of Go fields that one version of a
// published format requires and another does not have (the design's
// schedule, listed in a v1 manifest and named by file in a v2 one): such a
// field has a required schema property or none.
var versionedMembers = map[string]bool{"schedule": true, "schedule_file": true}

// jsonFields are typ's fields as JSON members, inline fields flattened.
func jsonFields(typ reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := range typ.NumField() {
		f := typ.Field(i)
		if _, opts, _ := strings.Cut(f.Tag.Get("json"), ","); strings.Contains(opts, "inline") {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		out = append(out, f)
	}
	return out
}

func matchType(t *testing.T, s *compiledSchema, r *rule, typ reflect.Type, at string) {
	for r.ref != "" {
		r = s.defs[r.ref]
	}
	if typ.Kind() == reflect.Pointer {
		if r.nullable == nil {
			t.Errorf("%s: Go pointer but schema not nullable", at)
			return
		}
		matchType(t, s, r.nullable, typ.Elem(), at)
		return
	}
	if r.nullable != nil {
		t.Errorf("%s: schema nullable but Go type %s is not a pointer", at, typ)
		return
	}
	switch {
	case typ == reflect.TypeFor[time.Time]() || typ == reflect.TypeFor[jsontext.Value]():
		return
	case typ.Kind() == reflect.Struct:
		var tags []string
		for _, f := range jsonFields(typ) {
			tag, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			optional := strings.Contains(opts, "omitzero") // an additive optional member: absent means zero
			p := r.prop(tag)
			if versionedMembers[tag] {
				if p == nil {
					continue
				}
				optional = false
			}
			if !optional {
				tags = append(tags, tag)
			}
			if p == nil {
				t.Errorf("%s: Go field %s (json %q) has no schema property", at, f.Name, tag)
				continue
			}
			ft := f.Type
			if (optional || versionedMembers[tag]) && ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			matchType(t, s, p, ft, at+"/"+tag)
		}
		if !slices.Equal(tags, r.required) {
			t.Errorf("%s: required %v, Go tags %v", at, r.required, tags)
		}
		if !r.closed {
			t.Errorf("%s: additionalProperties is not false", at)
		}
	case typ.Kind() == reflect.Slice:
		if r.items == nil {
			t.Errorf("%s: Go slice but schema has no items", at)
			return
		}
		matchType(t, s, r.items, typ.Elem(), at+"/*")
	}
}

// TestSpecialDefsAgreeWithSchema compares each Go-enforced $def with its
// published RE2-compatible pattern on sample strings.
func TestSpecialDefsAgreeWithSchema(t *testing.T) {
	samples := []string{"", "C1", "C10", "C0", "C01", "c1", "E1", "U3", "X12", "A1", "O9", "V2",
		"a", "A-1", "-a", strings.Repeat("a", 64), strings.Repeat("a", 65), "x y",
		strings.Repeat("0", 64), strings.Repeat("A", 64), strings.Repeat("0", 40),
		"2026-09-05T10:00:00Z", "2026-09-05T10:00:00.5Z", "2026-09-05T10:00:00+00:00", "2026-09-05",
		"0", "0.40", "4", "1.", "01", "0.1234567", "0.123456789012", "0.1234567890123"}
	for _, name := range tables.SchemaNames() {
		data, _ := tables.Schema(name)
		raw, err := compileSchema(name, data)
		if err != nil {
			t.Fatal(err)
		}
		for def := range raw.defs {
			check := specialDefs[def]
			// An identity digest's Go check also refuses placeholder
			// digests (all zeros, a short block repeated), which the
			// pattern cannot state.
			if check == nil || def == "path" || def == "text" || def == "line" || def == "identity" || def == "runtimes" || def == "identitySha256" {
				continue
			}
			// Compile the def again as an ordinary rule so its pattern is used.
			plain := compileDefPlain(t, data, def)
			for _, s := range samples {
				v := &node{kind: kindString, text: s}
				wGo, wSchema := &walker{s: raw}, &walker{s: raw}
				check(wGo, v, "", raw.defs[def])
				wSchema.walk(plain, v, "")
				if (len(wGo.out.Findings()) == 0) != (len(wSchema.out.Findings()) == 0) {
					t.Errorf("%s $defs/%s on %q: Go check %v, schema %v", name, def, s, wGo.out, wSchema.out)
				}
			}
		}
	}
}

func compileDefPlain(t *testing.T, data []byte, def string) *rule {
	t.Helper()
	var root rawRule
	if err := jsonUnmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	r, err := compileRule(root.Defs[def], false)
	if err != nil {
		t.Fatalf("$defs/%s: %v", def, err)
	}
	return r
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
