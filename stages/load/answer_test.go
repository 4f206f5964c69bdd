package load

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// validAnswer is a small answer of review B that passes every load rule.
func validAnswer() *tables.Answer {
	return &tables.Answer{
		Final: tables.Final{
			Claims: []tables.Claim{
				{ID: "C1", Text: "The parser rejects empty input.", Status: tables.ClaimSourceBacked, EvidenceIDs: []string{"E1"}, UncertaintyID: nil},
				{ID: "C10", Text: "Timeouts are unknown.", Status: tables.ClaimUnknown, EvidenceIDs: []string{}, UncertaintyID: ptrTo("U1")},
			},
			ImplementationPlan: []tables.Action{{ID: "A1", Action: "Add a guard.", Rationale: "The task asks for it.", SupportBasis: tables.BasisTask,
				EvidenceIDs: []string{}, VerificationIDs: []string{"V1"}, VerificationLimitation: nil}},
			VerificationPlan: []tables.Verification{{ID: "V1", ExpectedBehavior: "Empty input fails.", Method: "Run the unit test.",
				SupportBasis: tables.BasisSource, EvidenceIDs: []string{"E1", "E2"}, UncertaintyID: nil}},
			Uncertainties: []tables.Uncertainty{{ID: "U1", MissingInformation: "The timeout value.", Consequence: "Retries may differ.", VerificationStep: "Read config.ts."}},
			Exclusions:    []tables.Exclusion{{ID: "X1", ScopeItem: "Logging.", Reason: "Not requested by the task.", EvidenceIDs: []string{"E2"}}},
			Citations:     []tables.Citation{{EvidenceID: "E1", Path: "src/parse.ts", StartLine: 1, EndLine: 3, Supports: []string{"C1", "V1"}}},
		},
		Reconciliation: &tables.Reconciliation{
			Obligations: []tables.Obligation{{ID: "O1", Text: "Reject empty input.", Basis: tables.BasisSource, Status: tables.ObligationAddressed,
				EvidenceIDs: []string{"E1"}, FinalIDs: []string{"C1", "A1", "V1"}}},
			EvidenceDispositions: []tables.Disposition{
				{EvidenceID: "E1", Status: tables.DispositionUsed, FinalIDs: []string{"C1"}},
				{EvidenceID: "E2", Status: tables.DispositionExcluded, FinalIDs: []string{"X1"}},
			},
		},
	}
}

func TestAnswerValid(t *testing.T) {
	long := strings.Repeat("é", 2048)
	cases := []struct {
		name  string
		edits []edit
	}{
		{"as built", nil},
		{"reconciliation null", []edit{set("/reconciliation", "null")}},
		{"empty plans", []edit{set("/final/implementation_plan", "[]"), set("/final/verification_plan", "[]"), set("/final/citations/0/supports", `["C1"]`)}},
		{"2048 two-byte scalars", []edit{set("/final/claims/0/text", `"`+long+`"`)}},
		{"ID C10", []edit{set("/final/claims/0/id", `"C10"`), set("/final/claims/1/id", `"C1"`)}},
		{"interior newline in text", []edit{set("/final/claims/0/text", `"a\nb"`)}},
		{"verification limitation text", []edit{set("/final/implementation_plan/0/verification_limitation", `"Needs a live cluster."`)}},
		{"max caps", []edit{set("/final/claims", claimsJSON(32))}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := applyEdits(t, validAnswer(), tc.edits...)
			a, findings := Answer("answers/x.json", data)
			if a == nil || len(findings) != 0 {
				t.Fatalf("want a clean answer; got %v", findings)
			}
		})
	}
	t.Run("escaped surrogate pair", func(t *testing.T) {
		data := strings.Replace(string(applyEdits(t, validAnswer())), "The parser rejects empty input.", `smile \ud83d\ude00`, 1)
		a, findings := Answer("a.json", []byte(data))
		if a == nil || len(findings) != 0 || a.Final.Claims[0].Text != "smile 😀" {
			t.Fatalf("want a clean answer with 😀; got %v", findings)
		}
	})
	t.Run("decoded value equals the built one", func(t *testing.T) {
		a, _ := Answer("a.json", applyEdits(t, validAnswer()))
		if !reflect.DeepEqual(a, validAnswer()) {
			t.Fatalf("decoded %+v", a)
		}
	})
}

// claimsJSON returns n distinct valid claims as JSON text.
func claimsJSON(n int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"id":"C` + strconv.Itoa(i+1) + `","text":"t","status":"inference","evidence_ids":[],"uncertainty_id":null}`)
	}
	return b.String() + "]"
}

func TestAnswerRejects(t *testing.T) {
	cases := []struct {
		name  string
		edits []edit
		code  rules.Code
		ptr   string
	}{
		{"unknown key", []edit{set("/final/claims/0/confidence", "1")}, rules.CodeUnknownKey, "/final/claims/0/confidence"},
		{"unknown top-level key", []edit{set("/notes", `"x"`)}, rules.CodeUnknownKey, "/notes"},
		{"missing nullable key", []edit{del("/final/claims/0/uncertainty_id")}, rules.CodeMissingKey, "/final/claims/0/uncertainty_id"},
		{"missing reconciliation", []edit{del("/reconciliation")}, rules.CodeMissingKey, "/reconciliation"},
		{"null where not nullable", []edit{set("/final/claims/0/text", "null")}, rules.CodeWrongType, "/final/claims/0/text"},
		{"number for string", []edit{set("/final/claims/0/status", "1")}, rules.CodeWrongType, "/final/claims/0/status"},
		{"object for array", []edit{set("/final/claims", "{}")}, rules.CodeWrongType, "/final/claims"},
		{"null hole in records", []edit{set("/final/claims/2", "null")}, rules.CodeNullHole, "/final/claims/2"},
		{"null hole in ID array", []edit{set("/final/claims/0/evidence_ids/1", "null")}, rules.CodeNullHole, "/final/claims/0/evidence_ids/1"},
		{"status not in enum", []edit{set("/final/claims/0/status", `"proven"`)}, rules.CodeEnumValue, "/final/claims/0/status"},
		{"support basis case", []edit{set("/final/implementation_plan/0/support_basis", `"Task"`)}, rules.CodeEnumValue, "/final/implementation_plan/0/support_basis"},
		{"missing_source on an action", []edit{set("/final/implementation_plan/0/support_basis", `"missing_source"`)}, rules.CodeEnumValue, "/final/implementation_plan/0/support_basis"},
		{"empty text", []edit{set("/final/claims/0/text", `""`)}, rules.CodeTextEmpty, "/final/claims/0/text"},
		{"untrimmed text", []edit{set("/final/uncertainties/0/consequence", `" x"`)}, rules.CodeTextUntrimmed, "/final/uncertainties/0/consequence"},
		{"trailing newline text", []edit{set("/final/exclusions/0/reason", `"x\n"`)}, rules.CodeTextUntrimmed, "/final/exclusions/0/reason"},
		{"2049 scalars", []edit{set("/final/claims/0/text", `"`+strings.Repeat("é", 2049)+`"`)}, rules.CodeTextTooLong, "/final/claims/0/text"},
		{"empty limitation text", []edit{set("/final/implementation_plan/0/verification_limitation", `""`)}, rules.CodeTextEmpty, "/final/implementation_plan/0/verification_limitation"},
		{"ID C0", []edit{set("/final/claims/0/id", `"C0"`)}, rules.CodeIDInvalid, "/final/claims/0/id"},
		{"ID C01", []edit{set("/final/claims/0/id", `"C01"`)}, rules.CodeIDInvalid, "/final/claims/0/id"},
		{"ID c1", []edit{set("/final/claims/0/id", `"c1"`)}, rules.CodeIDInvalid, "/final/claims/0/id"},
		{"ID with space", []edit{set("/final/claims/0/evidence_ids/0", `"E 1"`)}, rules.CodeIDInvalid, "/final/claims/0/evidence_ids/0"},
		{"claim ID with action prefix", []edit{set("/final/claims/0/id", `"A7"`)}, rules.CodeIDWrongPrefix, "/final/claims/0/id"},
		{"supports names an uncertainty", []edit{set("/final/citations/0/supports/0", `"U1"`)}, rules.CodeIDWrongPrefix, "/final/citations/0/supports/0"},
		{"final_ids names evidence", []edit{set("/reconciliation/obligations/0/final_ids/0", `"E1"`)}, rules.CodeIDWrongPrefix, "/reconciliation/obligations/0/final_ids/0"},
		{"duplicate claim ID", []edit{set("/final/claims/1/id", `"C1"`)}, rules.CodeDuplicateID, "/final/claims/1/id"},
		{"duplicate obligation ID", []edit{set("/reconciliation/obligations/1", `{"id":"O1","text":"t","basis":"task","status":"unresolved","evidence_ids":[],"final_ids":["U1"]}`)}, rules.CodeDuplicateID, "/reconciliation/obligations/1/id"},
		{"duplicate evidence entry", []edit{set("/final/verification_plan/0/evidence_ids/1", `"E1"`)}, rules.CodeDuplicateItem, "/final/verification_plan/0/evidence_ids/1"},
		{"duplicate supports entry", []edit{set("/final/citations/0/supports/1", `"C1"`)}, rules.CodeDuplicateItem, "/final/citations/0/supports/1"},
		{"empty supports", []edit{set("/final/citations/0/supports", "[]")}, rules.CodeTooFewItems, "/final/citations/0/supports"},
		{"empty final_ids", []edit{set("/reconciliation/evidence_dispositions/0/final_ids", "[]")}, rules.CodeTooFewItems, "/reconciliation/evidence_dispositions/0/final_ids"},
		{"no obligations", []edit{set("/reconciliation/obligations", "[]")}, rules.CodeTooFewItems, "/reconciliation/obligations"},
		{"33 claims", []edit{set("/final/claims", claimsJSON(33))}, rules.CodeTooManyItems, "/final/claims"},
		{"absolute path", []edit{set("/final/citations/0/path", `"/src/a.ts"`)}, rules.CodePathInvalid, "/final/citations/0/path"},
		{"dot-dot path", []edit{set("/final/citations/0/path", `"src/../a.ts"`)}, rules.CodePathInvalid, "/final/citations/0/path"},
		{"dot segment path", []edit{set("/final/citations/0/path", `"./a.ts"`)}, rules.CodePathInvalid, "/final/citations/0/path"},
		{"empty segment path", []edit{set("/final/citations/0/path", `"src//a.ts"`)}, rules.CodePathInvalid, "/final/citations/0/path"},
		{"backslash path", []edit{set("/final/citations/0/path", `"src\\a.ts"`)}, rules.CodePathInvalid, "/final/citations/0/path"},
		{"NUL path", []edit{set("/final/citations/0/path", `"a\u0000b"`)}, rules.CodePathInvalid, "/final/citations/0/path"},
		{"empty path", []edit{set("/final/citations/0/path", `""`)}, rules.CodePathInvalid, "/final/citations/0/path"},
		{"line 0", []edit{set("/final/citations/0/start_line", "0")}, rules.CodeLineInvalid, "/final/citations/0/start_line"},
		{"line -1", []edit{set("/final/citations/0/start_line", "-1")}, rules.CodeLineInvalid, "/final/citations/0/start_line"},
		{"line 1.0", []edit{rawNumber("/final/citations/0/end_line", "1.0")}, rules.CodeLineInvalid, "/final/citations/0/end_line"},
		{"line 1e2", []edit{rawNumber("/final/citations/0/end_line", "1e2")}, rules.CodeLineInvalid, "/final/citations/0/end_line"},
		{"line 2^53", []edit{rawNumber("/final/citations/0/end_line", "9007199254740992")}, rules.CodeLineInvalid, "/final/citations/0/end_line"},
		{"line past int64", []edit{rawNumber("/final/citations/0/end_line", "99999999999999999999")}, rules.CodeLineInvalid, "/final/citations/0/end_line"},
		{"line -2^63", []edit{rawNumber("/final/citations/0/end_line", "-9223372036854775808")}, rules.CodeLineInvalid, "/final/citations/0/end_line"},
		{"line as string", []edit{set("/final/citations/0/end_line", `"3"`)}, rules.CodeWrongType, "/final/citations/0/end_line"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := applyEdits(t, validAnswer(), tc.edits...)
			a, findings := Answer("answers/x.json", data)
			note(findings)
			wantOnly(t, findings, tc.code, tc.ptr)
			if a != nil {
				t.Errorf("answer returned despite rejection")
			}
			if len(findings) == 1 && findings[0].File != "answers/x.json" {
				t.Errorf("finding file %q", findings[0].File)
			}
		})
	}
}

// rawNumber sets a member to a number literal the generic form would
// normalise (1.0, 1e2): the edit marks it and the bytes are patched.
func rawNumber(ptr, literal string) edit {
	return func(t *testing.T, doc any) any {
		return put(t, doc, tokens(ptr), jsontext.Value(literal), false)
	}
}
