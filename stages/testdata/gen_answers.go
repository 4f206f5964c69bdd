//go:build ignore

// gen_answers writes stages/testdata/answers: one answer file per rule of
// the response contract, each breaking exactly that rule, named
// <role>__<expected_code>__<desc>.json, plus valid__<role>__<desc>.json
// files that must pass. Run from the module root:
//
//	go run stages/testdata/gen_answers.go
//
// The files are committed; TestAnswerFiles in stages/answer_test.go checks
// them against CheckAnswer.
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/tables"
)

const dir = "stages/testdata/answers"

// spec is one generated file: a change to the base answer of its role,
// made on the Go value (mut) and/or on the encoded text (text).
type spec struct {
	name string // without .json
	mut  func(*tables.Answer)
	text func(string) string
}

func main() {
	if err := os.RemoveAll(dir); err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	for _, s := range specs() {
		role := roleOf(s.name)
		a := base(role == "reconciliation")
		if s.mut != nil {
			s.mut(a)
		}
		b, err := json.Marshal(a)
		if err != nil {
			log.Fatalf("%s: %v", s.name, err)
		}
		text := string(b) + "\n"
		if s.text != nil {
			text = s.text(text)
		}
		if err := os.WriteFile(filepath.Join(dir, s.name+".json"), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

func roleOf(name string) string {
	parts := strings.Split(name, "__")
	if parts[0] == "valid" {
		return parts[1]
	}
	return parts[0]
}

func str(s string) *string { return &s }

// base is a valid answer exercising every record type and status.
func base(reconciliation bool) *tables.Answer {
	a := &tables.Answer{Final: tables.Final{
		Claims: []tables.Claim{
			{ID: "C1", Text: "parseConfig reads the timeout from the TIMEOUT_MS variable.", Status: "source_backed", EvidenceIDs: []string{"E1"}},
			{ID: "C2", Text: "A missing variable therefore falls back to the 30 s default.", Status: "inference", EvidenceIDs: []string{"E2"}},
			{ID: "C3", Text: "Whether callers override the default is not shown.", Status: "unknown", EvidenceIDs: []string{}, UncertaintyID: str("U1")},
		},
		ImplementationPlan: []tables.Action{
			{ID: "A1", Action: "Validate TIMEOUT_MS as a positive integer in parseConfig.", Rationale: "E1 parses it without a range check.", SupportBasis: "source", EvidenceIDs: []string{"E1"}, VerificationIDs: []string{"V1"}},
			{ID: "A2", Action: "Document the variable in the README.", Rationale: "The task asks for user-facing documentation.", SupportBasis: "task", EvidenceIDs: []string{}, VerificationIDs: []string{}, VerificationLimitation: str("Documentation is checked by reading, not by a test.")},
		},
		VerificationPlan: []tables.Verification{
			{ID: "V1", ExpectedBehavior: "TIMEOUT_MS=-1 is refused with an error.", Method: "Unit test of parseConfig.", SupportBasis: "source", EvidenceIDs: []string{"E1"}},
			{ID: "V2", ExpectedBehavior: "Callers that override the default keep working.", Method: "Search the callers once the repository is available.", SupportBasis: "missing_source", EvidenceIDs: []string{}, UncertaintyID: str("U1")},
		},
		Uncertainties: []tables.Uncertainty{
			{ID: "U1", MissingInformation: "The call sites of parseConfig are not in the packet.", Consequence: "An override could bypass the new check.", VerificationStep: "List the call sites with a repository search."},
		},
		Exclusions: []tables.Exclusion{
			{ID: "X1", ScopeItem: "The HTTP retry helper.", Reason: "E3 retries HTTP requests, which never read TIMEOUT_MS.", EvidenceIDs: []string{"E3"}},
		},
		Citations: []tables.Citation{
			{EvidenceID: "E1", Path: "src/config.ts", StartLine: 3, EndLine: 5, Supports: []string{"C1", "A1", "V1"}},
			{EvidenceID: "E2", Path: "src/defaults.ts", StartLine: 10, EndLine: 12, Supports: []string{"C2"}},
		},
	}}
	if reconciliation {
		a.Reconciliation = &tables.Reconciliation{
			Obligations: []tables.Obligation{
				{ID: "O1", Text: "Reject non-positive timeouts.", Basis: "source", Status: "addressed", EvidenceIDs: []string{"E1"}, FinalIDs: []string{"A1", "V1"}},
				{ID: "O2", Text: "Keep caller overrides working.", Basis: "task", Status: "unresolved", EvidenceIDs: []string{}, FinalIDs: []string{"U1"}},
				{ID: "O3", Text: "Leave HTTP retries unchanged.", Basis: "task", Status: "excluded", EvidenceIDs: []string{}, FinalIDs: []string{"X1"}},
			},
			EvidenceDispositions: []tables.Disposition{
				{EvidenceID: "E1", Status: "used", FinalIDs: []string{"C1", "A1"}},
				{EvidenceID: "E2", Status: "used", FinalIDs: []string{"C2"}},
				{EvidenceID: "E3", Status: "excluded", FinalIDs: []string{"X1"}},
				{EvidenceID: "E4", Status: "unresolved", FinalIDs: []string{"U1"}},
			},
		}
	}
	return a
}

// rep replaces the first occurrence of old, which must exist.
func rep(old, new string) func(string) string {
	return func(s string) string {
		if !strings.Contains(s, old) {
			panic(fmt.Sprintf("gen_answers: %q not found", old))
		}
		return strings.Replace(s, old, new, 1)
	}
}

func claims(n int) func(*tables.Answer) {
	return func(a *tables.Answer) {
		for i := len(a.Final.Claims) + 1; i <= n; i++ {
			a.Final.Claims = append(a.Final.Claims, tables.Claim{ID: fmt.Sprintf("C%d", i), Text: "Not shown.", Status: "unknown", EvidenceIDs: []string{}, UncertaintyID: str("U1")})
		}
	}
}

func citations(n int) func(*tables.Answer) {
	return func(a *tables.Answer) {
		for len(a.Final.Citations) < n {
			a.Final.Citations = append(a.Final.Citations, a.Final.Citations[0])
		}
	}
}

func obligations(n int) func(*tables.Answer) {
	return func(a *tables.Answer) {
		o := a.Reconciliation.Obligations[1]
		a.Reconciliation.Obligations = a.Reconciliation.Obligations[:0]
		for i := 1; i <= n; i++ {
			o.ID = fmt.Sprintf("O%d", i)
			a.Reconciliation.Obligations = append(a.Reconciliation.Obligations, o)
		}
	}
}

func claimText(s string) func(*tables.Answer) {
	return func(a *tables.Answer) { a.Final.Claims[0].Text = s }
}

// multibyte returns n copies of a three-byte scalar.
func multibyte(n int) string { return strings.Repeat("é", n) }

func specs() []spec {
	return []spec{
		// Valid answers.
		{name: "valid__draft__base"},
		{name: "valid__review__base"},
		{name: "valid__reconciliation__full"},
		{name: "valid__review__text_2048_multibyte_scalars", mut: claimText(multibyte(2048))},
		{name: "valid__review__text_2048_emoji_scalars", mut: claimText(strings.Repeat("😀", 2048))},
		{name: "valid__draft__escaped_surrogate_pair", text: rep(`"parseConfig reads`, `"\ud83d\ude00 parseConfig reads`)},
		{name: "valid__review__id_c10", text: rep(`"C3"`, `"C10"`)},
		{name: "valid__draft__empty_plan", mut: func(a *tables.Answer) {
			a.Final.ImplementationPlan = []tables.Action{}
			a.Final.VerificationPlan = []tables.Verification{}
			a.Final.Citations[0].Supports = []string{"C1"}
		}},
		{name: "valid__review__empty_final", mut: func(a *tables.Answer) { a.Final = tables.Final{} }},
		{name: "valid__reconciliation__32_claims", mut: claims(32)},
		{name: "valid__review__128_citations", mut: citations(128)},
		{name: "valid__reconciliation__16_obligations", mut: obligations(16)},

		// Load: JSON syntax and limits.
		{name: "review__duplicate_key__claim_id_twice", text: rep(`"id":"C1",`, `"id":"C1","id":"C1",`)},
		{name: "review__unknown_key__extra_claim_member", text: rep(`"id":"C1",`, `"id":"C1","confidence":"high",`)},
		{name: "review__unknown_key__extra_top_level", text: rep(`"reconciliation":null`, `"reconciliation":null,"notes":"x"`)},
		{name: "review__missing_key__claim_text", text: rep(`"text":"parseConfig reads the timeout from the TIMEOUT_MS variable.",`, ``)},
		{name: "review__missing_key__nullable_uncertainty_id", text: rep(`"evidence_ids":["E1"],"uncertainty_id":null`, `"evidence_ids":["E1"]`)},
		{name: "draft__missing_key__reconciliation", text: rep(`,"reconciliation":null`, ``)},
		{name: "review__null_hole__evidence_ids", text: rep(`"evidence_ids":["E1"]`, `"evidence_ids":["E1", null]`)},
		{name: "review__wrong_type__start_line_string", text: rep(`"start_line":3`, `"start_line":"3"`)},
		{name: "review__wrong_type__reconciliation_string", text: rep(`"reconciliation":null`, `"reconciliation":"none"`)},
		{name: "draft__wrong_type__uncertainty_id_bool", text: rep(`"uncertainty_id":null`, `"uncertainty_id":false`)},
		{name: "review__text_empty__claim_text", mut: claimText("")},
		{name: "review__text_untrimmed__leading_space", mut: claimText(" parseConfig reads the timeout.")},
		{name: "review__text_untrimmed__trailing_newline", mut: claimText("parseConfig reads the timeout.\n")},
		{name: "review__text_too_long__2049_scalars", mut: claimText(multibyte(2049))},
		{name: "review__id_invalid__c0", text: rep(`"id":"C1"`, `"id":"C0"`)},
		{name: "review__id_invalid__c01", text: rep(`"id":"C1"`, `"id":"C01"`)},
		{name: "review__id_invalid__lowercase_c1", text: rep(`"id":"C1"`, `"id":"c1"`)},
		{name: "review__id_wrong_prefix__claim_named_a9", text: rep(`"id":"C3"`, `"id":"A9"`)},
		{name: "review__duplicate_id__two_c2", text: rep(`"id":"C3"`, `"id":"C2"`)},
		{name: "review__duplicate_item__evidence_twice", text: rep(`"evidence_ids":["E1"]`, `"evidence_ids":["E1","E1"]`)},
		{name: "review__path_invalid__dotdot", text: rep(`"src/config.ts"`, `"../config.ts"`)},
		{name: "review__path_invalid__absolute", text: rep(`"src/config.ts"`, `"/src/config.ts"`)},
		{name: "review__path_invalid__empty_segment", text: rep(`"src/config.ts"`, `"src//config.ts"`)},
		{name: "review__line_invalid__zero", text: rep(`"start_line":3`, `"start_line":0`)},
		{name: "review__line_invalid__negative", text: rep(`"start_line":3`, `"start_line":-1`)},
		{name: "review__line_invalid__fraction", text: rep(`"start_line":3`, `"start_line":1.5`)},
		{name: "review__line_invalid__huge", text: rep(`"end_line":5`, `"end_line":1e400`)},
		{name: "review__enum_value__claim_status", text: rep(`"status":"inference"`, `"status":"guess"`)},
		{name: "review__too_many_items__33_claims", mut: claims(33)},
		{name: "review__too_many_items__129_citations", mut: citations(129)},
		{name: "reconciliation__too_many_items__17_obligations", mut: obligations(17)},
		{name: "reconciliation__too_few_items__0_obligations", mut: obligations(0)},
		{name: "review__too_few_items__empty_supports", text: rep(`"supports":["C2"]`, `"supports":[]`)},
		{name: "review__trailing_data__second_object", text: func(s string) string { return s + "{}\n" }},
		{name: "review__invalid_utf8__claim_text", text: rep(`parseConfig reads`, "parseConfig \xff reads")},
		{name: "review__json_syntax__nan", text: rep(`"start_line":3`, `"start_line":NaN`)},
		{name: "review__json_syntax__truncated", text: func(s string) string { return s[:len(s)/2] }},

		// Validate: V4 links. A link of the wrong type is refused by load
		// (id_wrong_prefix); link_wrong_type is covered by validate unit tests.
		{name: "review__link_dangling__supports_draft_only_c9", text: rep(`"supports":["C2"]`, `"supports":["C2","C9"]`)},
		{name: "review__link_dangling__verification_ids_v7", text: rep(`"verification_ids":["V1"]`, `"verification_ids":["V1","V7"]`)},
		{name: "review__link_dangling__claim_uncertainty_u5", text: rep(`"uncertainty_id":"U1"`, `"uncertainty_id":"U5"`)},
		{name: "reconciliation__link_dangling__obligation_final_id", text: rep(`"final_ids":["X1"]`, `"final_ids":["X1","A8"]`)},
		{name: "review__id_wrong_prefix__supports_names_u1", text: rep(`"supports":["C2"]`, `"supports":["C2","U1"]`)},
		{name: "review__id_wrong_prefix__verification_ids_names_c1", text: rep(`"verification_ids":["V1"]`, `"verification_ids":["V1","C1"]`)},
		// Validate: V5 per-status rules.
		{name: "review__evidence_required__source_backed_claim", mut: func(a *tables.Answer) { a.Final.Claims[0].EvidenceIDs = []string{} }},
		{name: "review__evidence_required__inference_without_premises", mut: func(a *tables.Answer) { a.Final.Claims[1].EvidenceIDs = []string{} }},
		{name: "review__evidence_required__source_action", mut: func(a *tables.Answer) { a.Final.ImplementationPlan[0].EvidenceIDs = []string{} }},
		{name: "review__evidence_required__source_verification", mut: func(a *tables.Answer) { a.Final.VerificationPlan[0].EvidenceIDs = []string{} }},
		{name: "review__citation_required__source_backed_claim_uncited", mut: func(a *tables.Answer) { a.Final.Citations[0].Supports = []string{"A1", "V1"} }},
		{name: "review__citation_required__citation_of_other_evidence", mut: func(a *tables.Answer) {
			a.Final.Citations[1].Supports = []string{"C2", "A1"}
			a.Final.Citations[0].Supports = []string{"C1", "V1"}
		}},
		{name: "review__citation_required__source_verification_uncited", mut: func(a *tables.Answer) { a.Final.Citations[0].Supports = []string{"C1", "A1"} }},
		{name: "review__uncertainty_link_required__unknown_claim", mut: func(a *tables.Answer) { a.Final.Claims[2].UncertaintyID = nil }},
		{name: "review__uncertainty_link_required__missing_source_verification", mut: func(a *tables.Answer) { a.Final.VerificationPlan[1].UncertaintyID = nil }},
		{name: "review__verification_link_required__action_without_v_or_limitation", mut: func(a *tables.Answer) { a.Final.ImplementationPlan[1].VerificationLimitation = nil }},
		{name: "review__citation_range_inverted__start_after_end", mut: func(a *tables.Answer) { a.Final.Citations[1].StartLine = 13 }},
		// Validate: V6 reconciliation.
		{name: "reconciliation__reconciliation_missing__null", mut: func(a *tables.Answer) { a.Reconciliation = nil }},
		{name: "review__reconciliation_unexpected__object", mut: func(a *tables.Answer) { a.Reconciliation = base(true).Reconciliation }},
		{name: "draft__reconciliation_unexpected__object", mut: func(a *tables.Answer) { a.Reconciliation = base(true).Reconciliation }},
		{name: "reconciliation__obligation_addressed_unlinked__no_v_link", mut: func(a *tables.Answer) { a.Reconciliation.Obligations[0].FinalIDs = []string{"A1"} }},
		{name: "reconciliation__obligation_addressed_unlinked__only_v", mut: func(a *tables.Answer) { a.Reconciliation.Obligations[0].FinalIDs = []string{"V1"} }},
		{name: "reconciliation__evidence_required__source_obligation", mut: func(a *tables.Answer) { a.Reconciliation.Obligations[0].EvidenceIDs = []string{} }},
		{name: "reconciliation__obligation_unresolved_unlinked__no_u", mut: func(a *tables.Answer) { a.Reconciliation.Obligations[1].FinalIDs = []string{"C3"} }},
		{name: "reconciliation__obligation_excluded_unlinked__no_x", mut: func(a *tables.Answer) { a.Reconciliation.Obligations[2].FinalIDs = []string{"C3"} }},
		{name: "reconciliation__disposition_used_unsupported__link_not_citing_e", mut: func(a *tables.Answer) { a.Reconciliation.EvidenceDispositions[1].FinalIDs = []string{"C1"} }},
		{name: "reconciliation__disposition_used_unsupported__only_u_link", mut: func(a *tables.Answer) { a.Reconciliation.EvidenceDispositions[1].FinalIDs = []string{"U1"} }},
		{name: "reconciliation__disposition_excluded_unlinked__x_without_e", mut: func(a *tables.Answer) { a.Reconciliation.EvidenceDispositions[2].EvidenceID = "E5" }},
		{name: "reconciliation__exclusion_reason_generic__not_relevant", mut: func(a *tables.Answer) { a.Final.Exclusions[0].Reason = "Not relevant to the task." }},
		{name: "reconciliation__exclusion_reason_generic__out_of_scope", mut: func(a *tables.Answer) { a.Final.Exclusions[0].Reason = "E3 is out of scope." }},
		{name: "reconciliation__disposition_unresolved_unlinked__no_u", mut: func(a *tables.Answer) { a.Reconciliation.EvidenceDispositions[3].FinalIDs = []string{"C3"} }},
		{name: "reconciliation__disposition_duplicate__e2_twice", mut: func(a *tables.Answer) {
			d := a.Reconciliation.EvidenceDispositions
			a.Reconciliation.EvidenceDispositions = append(d, d[1])
		}},
	}
}
