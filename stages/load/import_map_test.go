package load

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

const validMap = `{"format":"evalgate.import-map/v1","source":"codex","rate_card":"codex","billing":"reference",
"identity":{"cli_sha256":"","permission_policy":""},"output_file":"","error_classes":[{"source_error":"error","class":"platform_outage"}],
"sessions":[{"match":{"record":"019d","sample":"","epoch":0,"model":"gpt-5.6-sol"},"session_id":"T1-r1-A","attempt":1,
"task_id":"T1","repetition":1,"role":"review","arm":"A","draft_session_id":"T1-r1-D","prompt_ids":["common"],"reservation":null}]}`

func TestImportMapSchemaMatchesGoType(t *testing.T) {
	s := schemaFor("import-map")
	matchType(t, s, s.root, reflect.TypeFor[tables.ImportMap](), "import-map")
	if c := s.root.prop("format").constant; c == nil || *c != tables.FormatImportMap {
		t.Errorf("format const %v, want %q", c, tables.FormatImportMap)
	}
}

// TestImportMapProblems: the schema's findings and each cross-member rule
// of a mapping, one case each; every problem is reported at once.
func TestImportMapProblems(t *testing.T) {
	if m, fs := ImportMap("map.json", tables.SourceCodex, []byte(validMap)); m == nil || len(fs) > 0 {
		t.Fatalf("valid mapping refused: %v", fs)
	}
	cases := []struct {
		name, source, from, to string
		want                   []string // code pointer
	}{
		{"other source", tables.SourceHarbor, "", "", []string{"import_map_invalid /source"}},
		{"actual billing outside Harbor", tables.SourceCodex, `"billing":"reference"`, `"billing":"actual"`, []string{"import_map_invalid /billing"}},
		{"output file outside Harbor", tables.SourceCodex, `"output_file":""`, `"output_file":"agent/answer.json"`, []string{"import_map_invalid /output_file"}},
		{"sample outside Inspect", tables.SourceCodex, `"sample":""`, `"sample":"1"`, []string{"import_map_invalid /sessions/0/match"}},
		{"duplicate error class", tables.SourceCodex, `"class":"platform_outage"}`, `"class":"platform_outage"},{"source_error":"error","class":"refused"}`,
			[]string{"import_map_invalid /error_classes/1/source_error"}},
		{"unknown class", tables.SourceCodex, `"class":"platform_outage"`, `"class":"oops"`, []string{"enum_value /error_classes/0/class"}},
		{"unknown key", tables.SourceCodex, `"billing":"reference",`, `"billing":"reference","guess":true,`, []string{"unknown_key /guess"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := strings.Replace(validMap, c.from, c.to, 1)
			m, fs := ImportMap("map.json", c.source, []byte(doc))
			note(fs)
			var got []string
			for _, f := range fs {
				got = append(got, string(f.Code)+" "+f.Pointer)
			}
			if m != nil || !slices.Equal(got, c.want) {
				t.Errorf("got %v %q, want %q", m != nil, got, c.want)
			}
		})
	}
	// Two entries for one record and one session.
	two := strings.Replace(validMap, `"reservation":null}]`, `"reservation":null},`+
		`{"match":{"record":"019d","sample":"","epoch":0,"model":"gpt-5.6-sol"},"session_id":"T1-r1-A","attempt":1,`+
		`"task_id":"T1","repetition":1,"role":"review","arm":"A","draft_session_id":"T1-r1-D","prompt_ids":[],"reservation":null}]`, 1)
	if _, fs := ImportMap("map.json", tables.SourceCodex, []byte(two)); len(fs) != 2 || fs[0].Code != rules.CodeImportMapInvalid {
		t.Errorf("duplicate entries: %v", fs)
	}
}
