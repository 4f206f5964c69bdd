package load

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

func TestUnblindingFile(t *testing.T) {
	const U = "unblinding.json"
	cases := []struct {
		name string
		data string // "" = no file
		want *time.Time
		code rules.Code
		ptr  string
	}{
		{"absent", "", nil, "", ""},
		{"valid", `{"format":"evalgate.unblinding/v1","unblinded_at":"2026-10-03T12:00:00Z"}`,
			ptrTo(time.Date(2026, 10, 3, 12, 0, 0, 0, time.UTC)), "", ""},
		{"offset refused", `{"format":"evalgate.unblinding/v1","unblinded_at":"2026-10-03T12:00:00+02:00"}`, nil, rules.CodeTimestampInvalid, "/unblinded_at"},
		{"unknown key", `{"format":"evalgate.unblinding/v1","unblinded_at":"2026-10-03T12:00:00Z","by":"x"}`, nil, rules.CodeUnknownKey, "/by"},
		{"missing time", `{"format":"evalgate.unblinding/v1"}`, nil, rules.CodeMissingKey, ""},
		{"duplicate key", `{"format":"evalgate.unblinding/v1","unblinded_at":"2026-10-03T12:00:00Z","unblinded_at":"2026-10-04T12:00:00Z"}`, nil, rules.CodeDuplicateKey, "/unblinded_at"},
		{"too large", strings.Repeat(" ", maxUnblinding+1), nil, rules.CodeTooLarge, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture()
			if tc.data != "" {
				f.files[U] = tc.data
			}
			c, findings := Campaign(f.build(t), "fixture")
			checkFindings(t, findings)
			if tc.code == "" {
				if len(findings) != 0 {
					t.Fatalf("want no findings, got %v", findings)
				}
			} else if !hasFinding(findings, U, tc.code, tc.ptr) {
				t.Fatalf("want %s at %s#%s, got %v", tc.code, U, tc.ptr, findings)
			}
			switch {
			case tc.want == nil && c.Unblinding != nil:
				t.Errorf("Unblinding = %+v, want nil", c.Unblinding)
			case tc.want != nil && (c.Unblinding == nil || !c.Unblinding.UnblindedAt.Equal(*tc.want)):
				t.Errorf("Unblinding = %+v, want %v", c.Unblinding, *tc.want)
			}
		})
	}
}

func hasFinding(fs rules.Findings, file string, code rules.Code, ptr string) bool {
	for _, f := range fs {
		if f.File == file && f.Code == code && (ptr == "" || f.Pointer == ptr) {
			return true
		}
	}
	return false
}

const blindLine = `{"format":"evalgate.blind-rating/v1","label":"L0123456789abcdef","rater":"rater-1","rater_role":"primary","blinded":true,"frozen_at":"2026-10-02T09:00:00Z","obligations":[{"obligation_id":"O1","outcome":"addressed"}],"citations":[{"index":0,"supports":true}],"critical_wrong_claims":0,"wrong_claims":1,"unsupported_claims":0,"false_completeness_claims":0,"wrong_exclusions":0}`

func TestBlindRatings(t *testing.T) {
	t.Run("valid lines decode in order", func(t *testing.T) {
		recs, findings := BlindRatings("r.jsonl", strings.NewReader(blindLine+"\n"+strings.Replace(blindLine, "rater-1", "rater-2", 1)+"\n"))
		if len(findings) != 0 || len(recs) != 2 {
			t.Fatalf("got %d records, findings %v", len(recs), findings)
		}
		r := recs[1]
		if r.Line != 2 || r.Record.Rater != "rater-2" || r.Record.Label != "L0123456789abcdef" || r.Record.WrongClaims != 1 ||
			!r.Record.FrozenAt.Equal(time.Date(2026, 10, 2, 9, 0, 0, 0, time.UTC)) {
			t.Fatalf("record 2 = %+v", r)
		}
	})
	cases := []struct {
		name string
		line string
		code rules.Code
		ptr  string
	}{
		{"session_id instead of label", strings.Replace(blindLine, `"label"`, `"session_id"`, 1), rules.CodeUnknownKey, "/session_id"},
		{"duplicate key", strings.Replace(blindLine, `"rater":"rater-1"`, `"rater":"rater-1","rater":"rater-2"`, 1), rules.CodeDuplicateKey, "/rater"},
		{"adjudication format", strings.Replace(blindLine, "blind-rating/v1", "adjudication/v1", 1), rules.CodeFormatUnsupported, "/format"},
		{"missing count", strings.Replace(blindLine, `,"wrong_exclusions":0`, "", 1), rules.CodeMissingKey, ""},
		{"negative count", strings.Replace(blindLine, `"wrong_claims":1`, `"wrong_claims":-1`, 1), rules.CodeNumberOutOfRange, "/wrong_claims"},
		{"bad label", strings.Replace(blindLine, "L0123456789abcdef", "../x", 1), rules.CodeIdentifierInvalid, "/label"},
		{"trailing data", blindLine + "{}", rules.CodeTrailingData, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs, findings := BlindRatings("r.jsonl", strings.NewReader(tc.line+"\n"))
			checkFindings(t, findings)
			if !hasFinding(findings, "r.jsonl", tc.code, tc.ptr) {
				t.Fatalf("want %s at %q, got %v", tc.code, tc.ptr, findings)
			}
			if findings[0].Line != 1 {
				t.Errorf("finding line %d, want 1", findings[0].Line)
			}
			if len(recs) != 0 && findings.Rejected() && shapeCodes[tc.code] {
				t.Errorf("a record of broken shape was decoded: %+v", recs)
			}
		})
	}
}

func TestBlindSchemasMatchGoTypes(t *testing.T) {
	types := map[string]reflect.Type{
		"blind-rating": reflect.TypeFor[tables.BlindRating](),
		"unblinding":   reflect.TypeFor[tables.Unblinding](),
	}
	for name, typ := range types {
		t.Run(name, func(t *testing.T) {
			s := schemaFor(name)
			matchType(t, s, s.root, typ, name)
		})
	}
}

func FuzzBlindRatings(f *testing.F) {
	f.Add([]byte(blindLine + "\n"))
	f.Add([]byte("{}\n\n{\"a\":1,\"a\":2}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, findings := BlindRatings("r.jsonl", strings.NewReader(string(data)))
		checkFindings(t, findings)
		for _, r := range recs {
			if r.Line < 1 {
				t.Fatalf("record without a line: %+v", r)
			}
		}
	})
}

func FuzzUnblinding(f *testing.F) {
	f.Add([]byte(`{"format":"evalgate.unblinding/v1","unblinded_at":"2026-10-03T12:00:00Z"}`))
	fuzzDoc(f, docDecoder[tables.Unblinding]("unblinding"))
}
