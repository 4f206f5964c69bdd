package validate

import (
	"fmt"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Roles an answer can be checked for.
const (
	RoleDraft          = "draft"
	RoleReview         = "review"
	RoleReconciliation = "reconciliation"
)

// AnswerOptions says what an answer is checked against.
type AnswerOptions struct {
	File   string         // for findings
	Role   string         // draft, review, reconciliation
	Packet *tables.Packet // nil when checking an answer on its own
	// items is Packet's items by ID (packetItems) when the caller keeps
	// it across answers; nil builds it.
	items map[string]*tables.PacketItem
	// scratch is memory the checks reuse when the caller checks answers
	// one at a time; nil allocates it.
	scratch *answerScratch
}

// answerScratch is the memory one answer's checks use: the checker, the
// final-ID index and the links resolved by one link array. Nothing of it
// outlives AnswerRules (the findings it returns are the checker's own,
// never reused).
type answerScratch struct {
	c      checker
	idx    finalIndex
	linked []record
}

// AnswerRules checks a decoded answer against the response contract's rules
// that go beyond its JSON shape: link closure (V4), per-status rules (V5) and,
// for the reconciliation role, the obligation and disposition rules (V6).
// With a packet it also checks evidence IDs exist and the disposition set
// equals the packet set. Findings have severity Reject and no session; they
// are sorted.
func AnswerRules(a *tables.Answer, opts AnswerOptions) rules.Findings {
	if a == nil {
		return nil
	}
	c := newChecker(a, opts.File, opts.scratch)
	c.finalRules()
	rec := a.Reconciliation
	switch opts.Role {
	case RoleReconciliation:
		if rec == nil {
			c.add(rules.CodeReconciliationMissing, at("/reconciliation"), "the reconciliation review returned reconciliation null")
		} else {
			c.reconciliationRules(rec)
		}
	case RoleDraft, RoleReview:
		if rec != nil {
			c.add(rules.CodeReconciliationUnexpected, at("/reconciliation"), "a %s must return reconciliation null", opts.Role)
			rec = nil
		}
	default:
		c.add(rules.CodeRoleUnknown, pointer{}, "role %q is not draft, review or reconciliation", opts.Role)
		rec = nil
	}
	if opts.Packet != nil {
		c.packetRules(opts.Packet, opts.items, rec)
	}
	c.out.Sort()
	return c.out
}

// checker accumulates the findings of one answer.
type checker struct {
	file    string
	a       *tables.Answer
	idx     finalIndex
	scratch *answerScratch
	out     rules.Findings
}

func newChecker(a *tables.Answer, file string, scratch *answerScratch) *checker {
	if scratch == nil {
		scratch = &answerScratch{}
	}
	scratch.idx = indexFinal(&a.Final, scratch.idx)
	scratch.c = checker{file: file, a: a, idx: scratch.idx, scratch: scratch}
	return &scratch.c
}

func (c *checker) add(code rules.Code, p pointer, format string, args ...any) {
	c.out = append(c.out, rules.Finding{
		Code:     code,
		Severity: rules.Reject,
		File:     c.file,
		Pointer:  p.String(),
		Message:  fmt.Sprintf(format, args...) + ".",
	})
}
