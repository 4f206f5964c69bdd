package load

import (
	"fmt"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// MaxAnswerBytes caps one raw answer (the campaign format's cap).
const MaxAnswerBytes = 4 << 20

// Answer strictly decodes one answer (the response contract, rule L1).
// file is used in findings. It returns nil when the answer breaks any rule
// of the contract that load enforces; findings then say every reason. The
// link, citation and per-status rules are stages/validate's.
func Answer(file string, data []byte) (*tables.Answer, rules.Findings) {
	at := position{file: file}
	if len(data) > MaxAnswerBytes {
		// The readers stop one byte past the cap, so len(data) is not the
		// answer's size: say what was measured.
		return nil, rules.Findings{at.finding(rules.CodeTooLarge, "",
			fmt.Sprintf("answer has more than %d bytes, its cap", MaxAnswerBytes))}
	}
	var a tables.Answer
	ok, findings := decodeDoc(data, "answer", at, &a)
	if ok {
		findings = append(findings, answerIDs(&a, at)...)
	}
	if !ok || findings.Rejected() {
		return nil, findings
	}
	return &a, findings
}

// answerIDs reports IDs repeated within their type.
func answerIDs(a *tables.Answer, at position) rules.Findings {
	var u uniqueIDs
	u.at = at
	f := &a.Final
	for i, c := range f.Claims {
		u.check("claim", c.ID, "/final/claims", i)
	}
	for i, x := range f.ImplementationPlan {
		u.check("action", x.ID, "/final/implementation_plan", i)
	}
	for i, x := range f.VerificationPlan {
		u.check("verification", x.ID, "/final/verification_plan", i)
	}
	for i, x := range f.Uncertainties {
		u.check("uncertainty", x.ID, "/final/uncertainties", i)
	}
	for i, x := range f.Exclusions {
		u.check("exclusion", x.ID, "/final/exclusions", i)
	}
	if r := a.Reconciliation; r != nil {
		for i, o := range r.Obligations {
			u.check("obligation", o.ID, "/reconciliation/obligations", i)
		}
	}
	return u.out
}

// uniqueIDs reports the second and later uses of an ID within one type.
// Where an ID is used is kept as its list and index; its pointer is
// written only for a finding.
type uniqueIDs struct {
	at   position
	seen map[typedID]idUse // first use of each
	out  rules.Findings
}

type typedID struct{ typ, id string }

// idUse is element index of the list at pointer list; its ID is at
// list/index/id.
type idUse struct {
	list  string
	index int
}

func (u idUse) pointer() string { return indexPointer(u.list, u.index) + "/id" }

func (u *uniqueIDs) check(typ, id, list string, index int) {
	if u.seen == nil {
		u.seen = map[typedID]idUse{}
	}
	key := typedID{typ, id}
	if first, dup := u.seen[key]; dup {
		u.out = append(u.out, u.at.finding(rules.CodeDuplicateID, idUse{list, index}.pointer(),
			fmt.Sprintf("%s ID %q is already used at %s", typ, Clip(id), first.pointer())))
		return
	}
	u.seen[key] = idUse{list, index}
}
