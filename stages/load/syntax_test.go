package load

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

func TestAnswerSyntax(t *testing.T) {
	valid := string(applyEdits(t, validAnswer()))
	cases := []struct {
		name string
		data string
		code tables.Code
		ptr  string
	}{
		{"not JSON", `{"final":`, tables.CodeJSONSyntax, "*"},
		{"trailing comma", `{"final":{},}`, tables.CodeJSONSyntax, "*"},
		{"NaN", `{"final":NaN}`, tables.CodeJSONSyntax, "*"},
		{"empty input", ``, tables.CodeJSONSyntax, ""},
		{"duplicate key", `{"final":{},"final":{}}`, tables.CodeDuplicateKey, "/final"},
		{"nested duplicate key", strings.Replace(valid, `"text":"The parser`, `"text":"x","text":"The parser`, 1), tables.CodeDuplicateKey, "/final/claims/0/text"},
		{"raw invalid UTF-8", strings.Replace(valid, "The parser", "The \xff parser", 1), tables.CodeInvalidUTF8, "*"},
		{"lone surrogate", strings.Replace(valid, "The parser", `The \ud800 parser`, 1), tables.CodeInvalidUTF8, "*"},
		{"trailing garbage", valid + " x", tables.CodeTrailingData, ""},
		{"second value", valid + "\n{}", tables.CodeTrailingData, ""},
		{"too deep", strings.Repeat("[", 65) + strings.Repeat("]", 65), tables.CodeTooDeep, "*"},
		{"too large", valid + strings.Repeat(" ", MaxAnswerBytes), tables.CodeTooLarge, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, findings := Answer("a.json", []byte(tc.data))
			note(findings)
			wantOnly(t, findings, tc.code, tc.ptr)
			if a != nil {
				t.Errorf("answer returned despite rejection")
			}
		})
	}
	t.Run("depth 64 is parsed", func(t *testing.T) {
		_, findings := Answer("a.json", []byte(strings.Repeat("[", 64)+strings.Repeat("]", 64)))
		wantOnly(t, findings, tables.CodeWrongType, "")
	})
	t.Run("trailing white space is fine", func(t *testing.T) {
		if a, findings := Answer("a.json", []byte(valid+"\n \t")); a == nil || len(findings) != 0 {
			t.Fatalf("got %v", findings)
		}
	})
}

// TestAllProblemsAtOnce checks that independent violations are all reported.
func TestAllProblemsAtOnce(t *testing.T) {
	data := applyEdits(t, validAnswer(),
		set("/final/claims/0/text", `""`),
		set("/final/claims/1/id", `"C01"`),
		set("/final/citations/0/path", `"/abs"`),
		set("/final/exclusions/0/extra", "1"),
	)
	_, findings := Answer("a.json", data)
	got := map[tables.Code]string{}
	for _, f := range findings {
		got[f.Code] = f.Pointer
	}
	want := map[tables.Code]string{
		tables.CodeTextEmpty:   "/final/claims/0/text",
		tables.CodeIDInvalid:   "/final/claims/1/id",
		tables.CodePathInvalid: "/final/citations/0/path",
		tables.CodeUnknownKey:  "/final/exclusions/0/extra",
	}
	if len(findings) != len(want) {
		t.Fatalf("got %d findings, want %d: %v", len(findings), len(want), findings)
	}
	for c, p := range want {
		if got[c] != p {
			t.Errorf("%s at %q, want %q", c, got[c], p)
		}
	}
}
