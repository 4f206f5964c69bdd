package validate

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// validReconciliation is a reconciliation answer that passes every rule
// against testPacket (items E1..E4).
const validReconciliation = `{"final":{
 "claims":[{"id":"C1","text":"t","status":"source_backed","evidence_ids":["E1"],"uncertainty_id":null},
           {"id":"C2","text":"t","status":"inference","evidence_ids":["E2"],"uncertainty_id":null}],
 "implementation_plan":[{"id":"A1","action":"a","rationale":"r","support_basis":"source","evidence_ids":["E1"],"verification_ids":["V1"],"verification_limitation":null}],
 "verification_plan":[{"id":"V1","expected_behavior":"e","method":"m","support_basis":"source","evidence_ids":["E1"],"uncertainty_id":null}],
 "uncertainties":[{"id":"U1","missing_information":"m","consequence":"c","verification_step":"v"}],
 "exclusions":[{"id":"X1","scope_item":"s","reason":"E3 retries HTTP requests, which never read the timeout.","evidence_ids":["E3"]}],
 "citations":[{"evidence_id":"E1","path":"src/config.ts","start_line":3,"end_line":5,"supports":["C1","A1","V1"]},
              {"evidence_id":"E2","path":"src/defaults.ts","start_line":10,"end_line":12,"supports":["C2"]}]},
 "reconciliation":{
 "obligations":[{"id":"O1","text":"t","basis":"source","status":"addressed","evidence_ids":["E1"],"final_ids":["A1","V1"]}],
 "evidence_dispositions":[{"evidence_id":"E1","status":"used","final_ids":["C1"]},
   {"evidence_id":"E2","status":"used","final_ids":["C2"]},
   {"evidence_id":"E3","status":"excluded","final_ids":["X1"]},
   {"evidence_id":"E4","status":"unresolved","final_ids":["U1"]}]}}`

func testPacket() *tables.Packet {
	return &tables.Packet{Items: []tables.PacketItem{{ID: "E1"}, {ID: "E2"}, {ID: "E3"}, {ID: "E4"}}}
}

func mustAnswer(t testing.TB, s string) *tables.Answer {
	t.Helper()
	var a tables.Answer
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		t.Fatal(err)
	}
	return &a
}

// answerCase mutates validReconciliation and expects exactly codes, with
// the first finding at pointer when pointer is set.
type answerCase struct {
	name    string
	role    string
	packet  bool
	mut     func(a *tables.Answer)
	want    []rules.Code
	pointer string
}

var answerCases = []answerCase{
	{name: "valid without packet", role: RoleReconciliation},
	{name: "valid with packet", role: RoleReconciliation, packet: true},
	{name: "wrong type: supports names an uncertainty", role: RoleReconciliation,
		mut:  func(a *tables.Answer) { a.Final.Citations[1].Supports = []string{"C2", "U1"} },
		want: []rules.Code{rules.CodeLinkWrongType}, pointer: "/final/citations/1/supports/1"},
	{name: "wrong type: record under another array's prefix", role: RoleReconciliation,
		mut: func(a *tables.Answer) {
			a.Final.Uncertainties[0].ID = "V9"
			a.Final.Citations[1].Supports = []string{"C2", "V9"}
		},
		want: []rules.Code{rules.CodeLinkWrongType, rules.CodeDispositionUnresolvedUnlinked, rules.CodeLinkDangling}},
	{name: "wrong type: obligation names an evidence ID", role: RoleReconciliation,
		mut:  func(a *tables.Answer) { a.Reconciliation.Obligations[0].FinalIDs = []string{"A1", "V1", "E1"} },
		want: []rules.Code{rules.CodeLinkWrongType}, pointer: "/reconciliation/obligations/0/final_ids/2"},
	{name: "dangling draft-only action (C12)", role: RoleReconciliation,
		mut:  func(a *tables.Answer) { a.Reconciliation.Obligations[0].FinalIDs = []string{"A1", "V1", "A2"} },
		want: []rules.Code{rules.CodeLinkDangling}, pointer: "/reconciliation/obligations/0/final_ids/2"},
	{name: "unknown claim status", role: RoleReconciliation,
		mut:  func(a *tables.Answer) { a.Final.Claims[1].Status = "likely" },
		want: []rules.Code{rules.CodeEnumValue}, pointer: "/final/claims/1/status"},
	{name: "unknown disposition status", role: RoleReconciliation,
		mut:  func(a *tables.Answer) { a.Reconciliation.EvidenceDispositions[3].Status = "ignored" },
		want: []rules.Code{rules.CodeEnumValue}},
	{name: "unknown role", role: "judge", want: []rules.Code{rules.CodeRoleUnknown}},
	{name: "evidence unknown in claim", role: RoleReconciliation, packet: true,
		mut:  func(a *tables.Answer) { a.Final.Claims[1].EvidenceIDs = []string{"E2", "E9"} },
		want: []rules.Code{rules.CodeEvidenceUnknown}, pointer: "/final/claims/1/evidence_ids/1"},
	{name: "evidence unknown in citation", role: RoleReconciliation, packet: true,
		mut: func(a *tables.Answer) {
			a.Final.Citations = append(a.Final.Citations, tables.Citation{EvidenceID: "E7", Path: "x", StartLine: 1, EndLine: 1, Supports: []string{"C2"}})
		},
		want: []rules.Code{rules.CodeEvidenceUnknown}, pointer: "/final/citations/2/evidence_id"},
	{name: "evidence unknown without packet is not checked", role: RoleReconciliation,
		mut: func(a *tables.Answer) { a.Final.Claims[1].EvidenceIDs = []string{"E2", "E9"} }},
	{name: "disposition missing (C13)", role: RoleReconciliation, packet: true,
		mut: func(a *tables.Answer) {
			a.Reconciliation.EvidenceDispositions = a.Reconciliation.EvidenceDispositions[:3]
		},
		want: []rules.Code{rules.CodeDispositionMissing}},
	{name: "disposition invented (C13)", role: RoleReconciliation, packet: true,
		mut: func(a *tables.Answer) {
			d := &a.Reconciliation.EvidenceDispositions
			*d = append(*d, tables.Disposition{EvidenceID: "E5", Status: "unresolved", FinalIDs: []string{"U1"}})
		},
		want: []rules.Code{rules.CodeDispositionInvented}, pointer: "/reconciliation/evidence_dispositions/4/evidence_id"},
	{name: "disposition substituted (C13)", role: RoleReconciliation, packet: true,
		mut:  func(a *tables.Answer) { a.Reconciliation.EvidenceDispositions[3].EvidenceID = "E8" },
		want: []rules.Code{rules.CodeDispositionSubstituted}, pointer: "/reconciliation/evidence_dispositions/3/evidence_id"},
	{name: "disposition duplicated (C13)", role: RoleReconciliation, packet: true,
		mut: func(a *tables.Answer) {
			d := &a.Reconciliation.EvidenceDispositions
			*d = append(*d, (*d)[3])
		},
		want: []rules.Code{rules.CodeDispositionDuplicate}, pointer: "/reconciliation/evidence_dispositions/4/evidence_id"},
	{name: "two substitutions and one invented", role: RoleReconciliation, packet: true,
		mut: func(a *tables.Answer) {
			d := a.Reconciliation.EvidenceDispositions
			d[2].EvidenceID, d[3].EvidenceID = "E6", "E7"
			a.Reconciliation.EvidenceDispositions = append(d, tables.Disposition{EvidenceID: "E9", Status: "unresolved", FinalIDs: []string{"U1"}})
			a.Final.Exclusions[0].EvidenceIDs = []string{"E6"}
		},
		want: []rules.Code{rules.CodeDispositionInvented, rules.CodeDispositionSubstituted, rules.CodeEvidenceUnknown}},
	{name: "addressed obligation with action limitation only", role: RoleReconciliation,
		mut: func(a *tables.Answer) {
			lim := "Needs a live server."
			a.Final.ImplementationPlan[0].VerificationLimitation = &lim
			a.Reconciliation.Obligations[0].FinalIDs = []string{"A1"}
		}},
	{name: "addressed obligation with claim and verification", role: RoleReconciliation,
		mut: func(a *tables.Answer) { a.Reconciliation.Obligations[0].FinalIDs = []string{"C1", "V1"} }},
	{name: "task-based addressed obligation without evidence", role: RoleReconciliation,
		mut: func(a *tables.Answer) {
			a.Reconciliation.Obligations[0].Basis = "task"
			a.Reconciliation.Obligations[0].EvidenceIDs = []string{}
		}},
	{name: "excluded disposition linked to an X of other evidence", role: RoleReconciliation,
		mut:  func(a *tables.Answer) { a.Final.Exclusions[0].EvidenceIDs = []string{"E4"} },
		want: []rules.Code{rules.CodeDispositionExcludedUnlinked}},
}

func TestAnswerRules(t *testing.T) {
	for _, tc := range answerCases {
		t.Run(tc.name, func(t *testing.T) {
			a := mustAnswer(t, validReconciliation)
			if tc.mut != nil {
				tc.mut(a)
			}
			opts := AnswerOptions{File: "a.json", Role: tc.role}
			if tc.packet {
				opts.Packet = testPacket()
			}
			got := AnswerRules(a, opts)
			if codes := distinctCodes(got); !slices.Equal(codes, sortedCodes(tc.want)) {
				t.Fatalf("codes = %v, want %v\n%v", codes, sortedCodes(tc.want), got)
			}
			if tc.pointer != "" && got[0].Pointer != tc.pointer {
				t.Errorf("pointer = %q, want %q", got[0].Pointer, tc.pointer)
			}
			for _, f := range got {
				if f.File != "a.json" || f.Severity != rules.Reject || f.Message == "" {
					t.Errorf("bad finding %+v", f)
				}
			}
		})
	}
}

func TestGenericReason(t *testing.T) {
	tests := []struct {
		reason string
		want   bool
	}{
		{"Not relevant.", true},
		{"not relevant to the task", true},
		{"E3 is out of scope.", true},
		{"Irrelevant evidence", true},
		{"N/A", true},
		{"Unused.", true},
		{"", true},
		{"E3 retries HTTP requests, which never read the timeout.", false},
		{"Not relevant: it only configures logging.", false},
		{"Out of scope because the task excludes the CLI.", false},
	}
	for _, tc := range tests {
		t.Run(tc.reason, func(t *testing.T) {
			if got := GenericReason(tc.reason); got != tc.want {
				t.Errorf("GenericReason(%q) = %v, want %v", tc.reason, got, tc.want)
			}
		})
	}
}

// naiveLinkCode resolves one link by scanning the final answer's arrays
// directly, independently of finalIndex.
func naiveLinkCode(f *tables.Final, id, accepted string) rules.Code {
	kinds := map[byte][]string{}
	for _, x := range f.Claims {
		kinds['C'] = append(kinds['C'], x.ID)
	}
	for _, x := range f.ImplementationPlan {
		kinds['A'] = append(kinds['A'], x.ID)
	}
	for _, x := range f.VerificationPlan {
		kinds['V'] = append(kinds['V'], x.ID)
	}
	for _, x := range f.Uncertainties {
		kinds['U'] = append(kinds['U'], x.ID)
	}
	for _, x := range f.Exclusions {
		kinds['X'] = append(kinds['X'], x.ID)
	}
	first := byte(0) // kind of the first array (in C, A, V, U, X order) holding id
	for _, k := range []byte("CAVUX") {
		if first == 0 && slices.Contains(kinds[k], id) {
			first = k
		}
	}
	switch {
	case first != 0 && contains(accepted, first):
		return ""
	case first != 0:
		return rules.CodeLinkWrongType
	case id != "" && contains(accepted, id[0]):
		return rules.CodeLinkDangling
	}
	return rules.CodeLinkWrongType
}

func contains(s string, b byte) bool { return slices.Contains([]byte(s), b) }

func FuzzLinks(f *testing.F) {
	f.Add([]byte(validReconciliation), "C1", "reconciliation")
	f.Add([]byte(`{"final":{"claims":[{"id":"A1","status":"unknown"}],"citations":[{"supports":["A1",""]}]},"reconciliation":{"obligations":[{"status":"addressed","final_ids":["A1"]}],"evidence_dispositions":[{"evidence_id":"E1","status":"used","final_ids":["A1"]}]}}`), "", "draft")
	f.Fuzz(func(t *testing.T, data []byte, id, role string) {
		var a tables.Answer
		if json.Unmarshal(data, &a) != nil {
			return
		}
		got := AnswerRules(&a, AnswerOptions{File: "f", Role: role, Packet: testPacket()})
		for _, fd := range got {
			if fd.Code == "" || fd.Message == "" {
				t.Fatalf("untyped finding %+v", fd)
			}
		}
		// A claim linking id as its uncertainty resolves as a naive scan does.
		a.Final.Claims = append(a.Final.Claims, tables.Claim{ID: "C999999", Status: "unknown", UncertaintyID: &id})
		want := naiveLinkCode(&a.Final, id, "U")
		got = AnswerRules(&a, AnswerOptions{File: "f", Role: RoleDraft})
		p := fmt.Sprintf("/final/claims/%d/uncertainty_id", len(a.Final.Claims)-1)
		var have rules.Code
		for _, fd := range got {
			if fd.Pointer == p && (fd.Code == rules.CodeLinkDangling || fd.Code == rules.CodeLinkWrongType) {
				have = fd.Code
			}
		}
		if have != want {
			t.Fatalf("link %q: code %q, naive %q", id, have, want)
		}
	})
}

func distinctCodes(fs rules.Findings) []rules.Code {
	var codes []rules.Code
	for _, f := range fs {
		codes = append(codes, f.Code)
	}
	return sortedCodes(codes)
}

func sortedCodes(codes []rules.Code) []rules.Code {
	c := slices.Clone(codes)
	slices.Sort(c)
	return slices.Compact(c)
}

// genericReasonOracle is the rule of GenericReason written the plain way:
// lowercase the reason, split it on every rune that is neither a letter
// nor a digit, and require every word to be generic, filler or an evidence
// ID.
func genericReasonOracle(reason string) bool {
	fields := strings.FieldsFunc(strings.ToLower(reason), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for _, w := range fields {
		if !genericWords[w] && !fillerWords[w] && !isEvidenceToken(w) {
			return false
		}
	}
	return true
}

var genericReasonSeeds = []string{
	"Not relevant.", "NOT RELEVANT", "E3 is out of scope.", "not\xffrelevant", "not\xff", "\xffnot",
	"İrrelevant", "NOT\u00a0NEEDED", "e12", "E12x", "n/a", "Ⓝot relevant", "ⅰ not", "not—relevant…",
	"ΣΊΣΥΦΟΣ", "relevant\u0301", "a b c", "   ", "useful" + strings.Repeat("x", 100),
}

func TestGenericReasonMatchesOracle(t *testing.T) {
	for _, r := range genericReasonSeeds {
		if got, want := GenericReason(r), genericReasonOracle(r); got != want {
			t.Errorf("GenericReason(%q) = %v, the plain rule says %v", r, got, want)
		}
	}
}

func FuzzGenericReason(f *testing.F) {
	for _, r := range genericReasonSeeds {
		f.Add(r)
	}
	f.Fuzz(func(t *testing.T, r string) {
		if got, want := GenericReason(r), genericReasonOracle(r); got != want {
			t.Errorf("GenericReason(%q) = %v, the plain rule says %v", r, got, want)
		}
	})
}
