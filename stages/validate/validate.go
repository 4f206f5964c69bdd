// Package validate is the second stage: structure, provenance and links
// (SPEC V1–V8).
package validate

import "github.com/evalgate/evalgate/tables"

// AnswerOptions says what an answer is checked against.
type AnswerOptions struct {
	File   string         // for findings
	Role   string         // draft, review, reconciliation
	Packet *tables.Packet // nil when checking an answer on its own
}

// AnswerRules checks a decoded answer against the response contract's rules
// that go beyond its JSON shape: link closure (V4), per-status rules (V5) and,
// for the reconciliation role, the obligation and disposition rules (V6).
// With a packet it also checks evidence IDs exist and the disposition set
// equals the packet set.
func AnswerRules(a *tables.Answer, opts AnswerOptions) tables.Findings {
	panic("stages/validate: AnswerRules: being written")
}

// Run validates the campaign and fills s.Sessions, s.Citations,
// s.Dispositions and appends to s.Rejections.
func Run(c *tables.Campaign, s *tables.Set) {
	panic("stages/validate: Run: being written")
}
