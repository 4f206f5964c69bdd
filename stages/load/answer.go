package load

import (
	"fmt"

	"github.com/evalgate/evalgate/tables"
)

// MaxAnswerBytes caps one raw answer (the campaign format's cap).
const MaxAnswerBytes = 4 << 20

// Answer strictly decodes one answer (the response contract, rule L1).
// file is used in findings. It returns nil when the answer breaks any rule
// of the contract that load enforces; findings then say every reason. The
// link, citation and per-status rules are stages/validate's.
func Answer(file string, data []byte) (*tables.Answer, tables.Findings) {
	at := position{file: file}
	if len(data) > MaxAnswerBytes {
		return nil, tables.Findings{at.finding(tables.CodeTooLarge, "",
			fmt.Sprintf("answer has %d bytes; the cap is %d", len(data), MaxAnswerBytes))}
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
func answerIDs(a *tables.Answer, at position) tables.Findings {
	var u uniqueIDs
	u.at = at
	f := &a.Final
	for i, c := range f.Claims {
		u.check("claim", c.ID, indexPointer("/final/claims", i)+"/id")
	}
	for i, x := range f.ImplementationPlan {
		u.check("action", x.ID, indexPointer("/final/implementation_plan", i)+"/id")
	}
	for i, x := range f.VerificationPlan {
		u.check("verification", x.ID, indexPointer("/final/verification_plan", i)+"/id")
	}
	for i, x := range f.Uncertainties {
		u.check("uncertainty", x.ID, indexPointer("/final/uncertainties", i)+"/id")
	}
	for i, x := range f.Exclusions {
		u.check("exclusion", x.ID, indexPointer("/final/exclusions", i)+"/id")
	}
	if r := a.Reconciliation; r != nil {
		for i, o := range r.Obligations {
			u.check("obligation", o.ID, indexPointer("/reconciliation/obligations", i)+"/id")
		}
	}
	return u.out
}

// uniqueIDs reports the second and later uses of an ID within one type.
type uniqueIDs struct {
	at   position
	seen map[string]string // type + "\x00" + id → pointer of first use
	out  tables.Findings
}

func (u *uniqueIDs) check(typ, id, ptr string) {
	if u.seen == nil {
		u.seen = map[string]string{}
	}
	key := typ + "\x00" + id
	if first, dup := u.seen[key]; dup {
		u.out = append(u.out, u.at.finding(tables.CodeDuplicateID, ptr,
			fmt.Sprintf("%s ID %q is already used at %s", typ, clip(id), first)))
		return
	}
	u.seen[key] = ptr
}
