package load

import (
	"github.com/evalgate/evalgate/tables"
)

// The adjudication's fast path, as the answer's (answer_fast.go): one
// scan of a line of adjudications.jsonl that decides whether it is a
// rating the generic pass (decodeStreamTo against the published
// adjudication schema) accepts without a single finding, and if so
// decodes it into the same Go value. It reports nothing: at the first
// byte it is not sure of (an escape, a number that is not a plain
// non-negative integer, a member out of the format, a repeated member, a
// value a rule of the schema would flag) it gives up, and the line is
// decoded by the generic pass from its first byte, which finds and words
// every problem as before. FuzzAdjudicationFast checks the two against
// each other, TestAdjudicationFastSchema that the shape read here is the
// published schema's.

// The member names of the adjudication format, in schema order
// (TestAdjudicationFastSchema checks them), and its list caps.
var (
	adjudicationMembers     = []string{"format", "session_id", "rater", "rater_role", "blinded", "frozen_at", "obligations", "citations", "critical_wrong_claims", "wrong_claims", "unsupported_claims", "false_completeness_claims", "wrong_exclusions"}
	obligationRatingMembers = []string{"obligation_id", "outcome"}
	citationRatingMembers   = []string{"index", "supports"}
	raterRoles              = []string{"primary", "adjudicator"}
	ratingOutcomes          = []string{"addressed", "missed", "wrong", "unknown_credited", "not_applicable"}
)

const maxRatedObligations, maxRatedCitations = 8, 128

// adjudicationScratch are the lists a rating's arrays are read into, and
// the slabs their copies are carved out of (kept across passes).
type adjudicationScratch struct {
	obligations []tables.ObligationRating
	citations   []tables.CitationRating
	oblSlab     slab[tables.ObligationRating]
	citeSlab    slab[tables.CitationRating]
}

// adjudicationFast decodes line into a (which it may leave partly set when
// it gives up) and reports whether line is a rating the generic pass
// accepts with no finding, decoded here to the value that pass stores.
// The identifiers are shared through in, as the generic pass shares them.
func adjudicationFast(line []byte, a *tables.Adjudication, in *interner) bool {
	d := answerDecoders.Get().(*answerDecoder)
	d.d, d.i = line, 0
	s := &d.ratings
	ok := d.object(adjudicationMembers, func(k int) bool {
		switch k {
		case 0:
			return d.constant(tables.FormatAdjudication, &a.Format)
		case 1:
			return d.identifier(&a.SessionID, in)
		case 2:
			return d.identifier(&a.Rater, in)
		case 3:
			return d.enum(&a.RaterRole, raterRoles...)
		case 4:
			return d.boolean(&a.Blinded)
		case 5:
			return d.timestamp(&a.FrozenAt)
		case 6:
			return records(&d.scanner, &s.obligations, maxRatedObligations, &a.Obligations, &s.oblSlab, func(o *tables.ObligationRating) bool {
				return d.object(obligationRatingMembers, func(k int) bool {
					if k == 0 {
						return d.id("O", &o.ObligationID)
					}
					return d.enum(&o.Outcome, ratingOutcomes...)
				})
			})
		case 7:
			return records(&d.scanner, &s.citations, maxRatedCitations, &a.Citations, &s.citeSlab, func(c *tables.CitationRating) bool {
				return d.object(citationRatingMembers, func(k int) bool {
					if k == 0 {
						return d.count(&c.Index)
					}
					return d.boolean(&c.Supports)
				})
			})
		case 8:
			return d.count(&a.CriticalWrongClaims)
		case 9:
			return d.count(&a.WrongClaims)
		case 10:
			return d.count(&a.UnsupportedClaims)
		case 11:
			return d.count(&a.FalseCompletenessClaims)
		default:
			return d.count(&a.WrongExclusions)
		}
	})
	ok = ok && d.end() // nothing but white space after the value
	clearScratch(&s.obligations)
	clearScratch(&s.citations)
	d.release()
	return ok
}
