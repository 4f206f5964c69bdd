package load

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

const validRequestDoc = `{"format":"evalgate.request/v1","request_id":"req-next","session_id":"T9-r1-D",` +
	`"rate_card":"codex-work-2026-09-05","meter_shape":"openai.responses","reservation_id":"res-next",` +
	`"max_input_tokens":50000,"max_output_tokens":5000}`

// requestMembers are the eight required members, in schema order.
var requestMembers = []string{"format", "request_id", "session_id", "rate_card", "meter_shape",
	"reservation_id", "max_input_tokens", "max_output_tokens"}

// withRequest replaces the literal old in the valid request by repl; the
// test fails when old does not occur exactly once.
func withRequest(t *testing.T, old, repl string) string {
	t.Helper()
	if n := strings.Count(validRequestDoc, old); n != 1 {
		t.Fatalf("%q occurs %d times in the valid request", old, n)
	}
	return strings.Replace(validRequestDoc, old, repl, 1)
}

func TestRequestValid(t *testing.T) {
	t.Run("every member decoded", func(t *testing.T) {
		r, findings := Request("req.json", []byte(validRequestDoc))
		want := tables.AdmitRequest{Format: "evalgate.request/v1", RequestID: "req-next", SessionID: "T9-r1-D",
			RateCard: "codex-work-2026-09-05", MeterShape: "openai.responses", ReservationID: "res-next",
			MaxInputTokens: 50000, MaxOutputTokens: 5000}
		if len(findings) != 0 || r == nil || *r != want {
			t.Fatalf("Request = %+v, %v; want %+v", r, findings, want)
		}
	})
	// Empty rate card, meter shape and reservation are the file's business
	// no more than any other value: admit refuses them with typed reasons.
	for _, member := range []string{"rate_card", "meter_shape", "reservation_id"} {
		t.Run("empty "+member+" accepted", func(t *testing.T) {
			doc := applyEdits(t, decodeValid(t), set("/"+member, `""`))
			r, findings := Request("req.json", doc)
			if len(findings) != 0 || r == nil {
				t.Fatalf("Request = %+v, %v", r, findings)
			}
		})
	}
	t.Run("bound at 2^53-1 accepted", func(t *testing.T) {
		r, findings := Request("req.json", []byte(withRequest(t, "50000", "9007199254740991")))
		if len(findings) != 0 || r == nil || r.MaxInputTokens != 1<<53-1 {
			t.Fatalf("Request = %+v, %v", r, findings)
		}
	})
	t.Run("zero bounds accepted", func(t *testing.T) {
		doc := withRequest(t, `50000,"max_output_tokens":5000`, `0,"max_output_tokens":0`)
		if r, findings := Request("req.json", []byte(doc)); len(findings) != 0 || r == nil || r.MaxInputTokens != 0 {
			t.Fatalf("Request = %+v, %v", r, findings)
		}
	})
	t.Run("exactly at the cap accepted", func(t *testing.T) {
		doc := validRequestDoc + strings.Repeat("\n", MaxRequest-len(validRequestDoc))
		if r, findings := Request("req.json", []byte(doc)); len(findings) != 0 || r == nil {
			t.Fatalf("Request = %+v, %v", r, findings)
		}
	})
}

// decodeValid returns the valid request as a generic document for edits.
func decodeValid(t *testing.T) any {
	t.Helper()
	var doc any
	if err := jsonUnmarshal([]byte(validRequestDoc), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestRequestRules breaks exactly one rule per case and wants exactly one
// finding with its code and pointer, and no request.
func TestRequestRules(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		code rules.Code
		ptr  string
	}{
		{"too large", validRequestDoc + strings.Repeat(" ", MaxRequest+1-len(validRequestDoc)), rules.CodeTooLarge, ""},
		{"empty file", ``, rules.CodeJSONSyntax, ""},
		{"truncated", `{`, rules.CodeJSONSyntax, ""},
		{"not an object", `[1]`, rules.CodeWrongType, ""},
		{"trailing data", validRequestDoc + `{}`, rules.CodeTrailingData, ""},
		{"duplicate member", withRequest(t, `"format"`, `"request_id":"x","format"`), rules.CodeDuplicateKey, "/request_id"},
		{"unknown member", withRequest(t, `5000}`, `5000,"max_cost":"0"}`), rules.CodeUnknownKey, "/max_cost"},
		{"other format", withRequest(t, "request/v1", "request/v2"), rules.CodeFormatUnsupported, "/format"},
		{"empty request_id", withRequest(t, `"req-next"`, `""`), rules.CodeIdentifierInvalid, "/request_id"},
		{"bad session_id", withRequest(t, `"T9-r1-D"`, `"../T9"`), rules.CodeIdentifierInvalid, "/session_id"},
		{"bad rate_card", withRequest(t, `"codex-work-2026-09-05"`, `"codex work"`), rules.CodePatternMismatch, "/rate_card"},
		{"bad reservation_id", withRequest(t, `"res-next"`, `"-res"`), rules.CodePatternMismatch, "/reservation_id"},
		{"unknown meter shape", withRequest(t, `"openai.responses"`, `"openai.batch"`), rules.CodeEnumValue, "/meter_shape"},
		{"string bound", withRequest(t, `50000`, `"50000"`), rules.CodeWrongType, "/max_input_tokens"},
		{"null bound", withRequest(t, `5000}`, `null}`), rules.CodeWrongType, "/max_output_tokens"},
		{"fractional bound", withRequest(t, `50000`, `5.5`), rules.CodeNumberNotInteger, "/max_input_tokens"},
		{"exponent bound", withRequest(t, `50000`, `5e4`), rules.CodeNumberNotInteger, "/max_input_tokens"},
		{"negative bound", withRequest(t, `5000}`, `-1}`), rules.CodeNumberOutOfRange, "/max_output_tokens"},
		{"bound above 2^53-1", withRequest(t, `50000`, `9007199254740992`), rules.CodeNumberOutOfRange, "/max_input_tokens"},
		{"numeric identifier", withRequest(t, `"T9-r1-D"`, `9`), rules.CodeWrongType, "/session_id"},
	}
	for _, m := range requestMembers {
		cases = append(cases, struct {
			name string
			doc  string
			code rules.Code
			ptr  string
		}{"missing " + m, string(applyEdits(t, decodeValid(t), del("/"+m))), rules.CodeMissingKey, "/" + m})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, findings := Request("req.json", []byte(tc.doc))
			note(findings)
			wantOnly(t, findings, tc.code, tc.ptr)
			if r != nil {
				t.Errorf("rejected request decoded as %+v", r)
			}
			for _, f := range findings {
				if f.File != "req.json" || f.Line != 0 {
					t.Errorf("finding %v not positioned in req.json without a line", f)
				}
			}
		})
	}
}

// TestRequestEveryProblemAtOnce: four independent problems, four findings,
// sorted by pointer.
func TestRequestEveryProblemAtOnce(t *testing.T) {
	doc := `{"format":"evalgate.request/v0","request_id":"","session_id":"T9-r1-D","rate_card":"c",` +
		`"meter_shape":"normalized","reservation_id":"r","max_input_tokens":1,"extra":true}`
	r, findings := Request("req.json", []byte(doc))
	var got []string
	for _, f := range findings {
		got = append(got, string(f.Code)+" "+f.Pointer)
	}
	want := []string{"unknown_key /extra", "format_unsupported /format", "missing_key /max_output_tokens", "identifier_invalid /request_id"}
	if r != nil || !slices.Equal(got, want) {
		t.Fatalf("Request = %+v, findings %q; want %q", r, got, want)
	}
}

func TestRequestSchemaMatchesGoType(t *testing.T) {
	t.Run("members", func(t *testing.T) {
		s := schemaFor("request")
		matchType(t, s, s.root, reflect.TypeFor[tables.AdmitRequest](), "request")
		if !slices.Equal(s.root.required, requestMembers) {
			t.Errorf("required %v, want %v", s.root.required, requestMembers)
		}
	})
	t.Run("format constant", func(t *testing.T) {
		if c := schemaFor("request").root.prop("format").constant; c == nil || *c != tables.FormatRequest {
			t.Errorf("format const %v, want %q", c, tables.FormatRequest)
		}
	})
	// The meter shapes a request may name are the receipt shapes plus "".
	t.Run("meter shapes", func(t *testing.T) {
		want := []string{""}
		for _, s := range tables.UsageShapes() {
			want = append(want, string(s))
		}
		if got := schemaFor("request").root.prop("meter_shape").enum; !slices.Equal(got, want) {
			t.Errorf("meter_shape enum %q, want %q", got, want)
		}
	})
}

// FuzzRequest: any bytes give a request or rejecting findings, never
// both, never a panic; findings are positioned in the file and sorted; a
// decoded request re-encodes and decodes to itself.
func FuzzRequest(f *testing.F) {
	f.Add([]byte(validRequestDoc))
	f.Add([]byte(`{"format":"evalgate.request/v1","request_id":"","max_input_tokens":-1,"max_output_tokens":1e99}`))
	f.Add([]byte(`{"format":"evalgate.request/v1","max_input_tokens":1,"max_output_tokens":1,"a":{}}`))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte("[\"\xff\"]"))
	decode := func(d []byte) (*tables.AdmitRequest, rules.Findings) { return Request("req.json", d) }
	f.Fuzz(func(t *testing.T, data []byte) {
		r, findings := decode(data)
		checkFindings(t, findings)
		if (r != nil) == findings.Rejected() {
			t.Fatalf("request %+v with findings %v", r, findings)
		}
		for i, f := range findings {
			if f.File != "req.json" || f.Line != 0 {
				t.Fatalf("finding %v not positioned in req.json without a line", f)
			}
			// All share file and line, so Sort orders by pointer, code, message.
			if i > 0 {
				p := findings[i-1]
				if [3]string{p.Pointer, string(p.Code), p.Message} != minKey(p, f) {
					t.Fatalf("findings not sorted: %v before %v", p, f)
				}
			}
		}
		if r != nil {
			roundTrip(t, r, decode)
		}
	})
}

// minKey returns the smaller sort key of a and b: pointer, code, message.
func minKey(a, b rules.Finding) [3]string {
	ka := [3]string{a.Pointer, string(a.Code), a.Message}
	kb := [3]string{b.Pointer, string(b.Code), b.Message}
	for i := range ka {
		if ka[i] != kb[i] {
			if ka[i] < kb[i] {
				return ka
			}
			return kb
		}
	}
	return ka
}
