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
	return answer(file, data, false)
}

// answerOwned is [Answer] of bytes that are never modified afterwards (a
// buffer the answer reader allocated for this answer alone): the texts of
// the answer it returns are views of data rather than copies.
func answerOwned(file string, data []byte) (*tables.Answer, rules.Findings) {
	return answer(file, data, true)
}

func answer(file string, data []byte, owned bool) (*tables.Answer, rules.Findings) {
	at := position{file: file}
	if len(data) > MaxAnswerBytes {
		// The readers stop one byte past the cap, so len(data) is not the
		// answer's size: say what was measured.
		return nil, rules.Findings{at.finding(rules.CodeTooLarge, "",
			fmt.Sprintf("answer has more than %d bytes, its cap", MaxAnswerBytes))}
	}
	var a tables.Answer
	ok, findings := answerFast(data, &a, owned), rules.Findings(nil)
	if !ok { // not a clean answer: the generic pass finds and words every problem
		a = tables.Answer{}
		ok, findings = decodeDoc(data, "answer", at, &a)
	}
	if ok {
		findings = append(findings, answerIDs(&a, at)...)
	}
	if !ok || findings.Rejected() {
		return nil, findings
	}
	return &a, findings
}

// answerIDs reports IDs repeated within their type. Each type's IDs are
// those of one list, so each list is checked on its own.
func answerIDs(a *tables.Answer, at position) rules.Findings {
	var u uniqueIDs
	u.at = at
	f := &a.Final
	uniqueIn(&u, "claim", "/final/claims", f.Claims, func(x *tables.Claim) string { return x.ID })
	uniqueIn(&u, "action", "/final/implementation_plan", f.ImplementationPlan, func(x *tables.Action) string { return x.ID })
	uniqueIn(&u, "verification", "/final/verification_plan", f.VerificationPlan, func(x *tables.Verification) string { return x.ID })
	uniqueIn(&u, "uncertainty", "/final/uncertainties", f.Uncertainties, func(x *tables.Uncertainty) string { return x.ID })
	uniqueIn(&u, "exclusion", "/final/exclusions", f.Exclusions, func(x *tables.Exclusion) string { return x.ID })
	if r := a.Reconciliation; r != nil {
		uniqueIn(&u, "obligation", "/reconciliation/obligations", r.Obligations, func(x *tables.Obligation) string { return x.ID })
	}
	return u.out
}

// uniqueIn reports the second and later uses of an ID in list, the
// records at pointer ptr, each with where the ID is first used. A short
// list is compared pairwise, without a map.
func uniqueIn[T any](u *uniqueIDs, typ, ptr string, list []T, id func(*T) string) {
	if len(list) > maxPairwise {
		for i := range list {
			u.check(typ, id(&list[i]), ptr, i)
		}
		u.seen = nil
		return
	}
	for i := 1; i < len(list); i++ {
		x := id(&list[i])
		for j := range i {
			if id(&list[j]) == x {
				u.report(typ, x, idUse{ptr, i}, idUse{ptr, j})
				break
			}
		}
	}
}

// maxPairwise is the longest list uniqueIn compares pairwise.
const maxPairwise = 64

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
		u.report(typ, id, idUse{list, index}, first)
		return
	}
	u.seen[key] = idUse{list, index}
}

// report records the use of id at use, already used at first.
func (u *uniqueIDs) report(typ, id string, use, first idUse) {
	u.out = append(u.out, u.at.finding(rules.CodeDuplicateID, use.pointer(),
		fmt.Sprintf("%s ID %q is already used at %s", typ, Clip(id), first.pointer())))
}
