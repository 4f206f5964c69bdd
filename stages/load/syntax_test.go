package load

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
)

func TestAnswerSyntax(t *testing.T) {
	valid := string(applyEdits(t, validAnswer()))
	cases := []struct {
		name string
		data string
		code rules.Code
		ptr  string
	}{
		{"not JSON", `{"final":`, rules.CodeJSONSyntax, "*"},
		{"trailing comma", `{"final":{},}`, rules.CodeJSONSyntax, "*"},
		{"NaN", `{"final":NaN}`, rules.CodeJSONSyntax, "*"},
		{"empty input", ``, rules.CodeJSONSyntax, ""},
		{"duplicate key", `{"final":{},"final":{}}`, rules.CodeDuplicateKey, "/final"},
		{"nested duplicate key", strings.Replace(valid, `"text":"The parser`, `"text":"x","text":"The parser`, 1), rules.CodeDuplicateKey, "/final/claims/0/text"},
		{"raw invalid UTF-8", strings.Replace(valid, "The parser", "The \xff parser", 1), rules.CodeInvalidUTF8, "*"},
		{"lone surrogate", strings.Replace(valid, "The parser", `The \ud800 parser`, 1), rules.CodeInvalidUTF8, "*"},
		{"trailing garbage", valid + " x", rules.CodeTrailingData, ""},
		{"second value", valid + "\n{}", rules.CodeTrailingData, ""},
		{"too deep", strings.Repeat("[", 65) + strings.Repeat("]", 65), rules.CodeTooDeep, "*"},
		{"too large", valid + strings.Repeat(" ", MaxAnswerBytes), rules.CodeTooLarge, ""},
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
		wantOnly(t, findings, rules.CodeWrongType, "")
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
	got := map[rules.Code]string{}
	for _, f := range findings {
		got[f.Code] = f.Pointer
	}
	want := map[rules.Code]string{
		rules.CodeTextEmpty:   "/final/claims/0/text",
		rules.CodeIDInvalid:   "/final/claims/1/id",
		rules.CodePathInvalid: "/final/citations/0/path",
		rules.CodeUnknownKey:  "/final/exclusions/0/extra",
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
