package load

import (
	"time"

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

// adjudicationScratch are the lists a rating's arrays are read into.
type adjudicationScratch struct {
	obligations []tables.ObligationRating
	citations   []tables.CitationRating
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
			return records(d, &s.obligations, maxRatedObligations, &a.Obligations, func(o *tables.ObligationRating) bool {
				return d.object(obligationRatingMembers, func(k int) bool {
					if k == 0 {
						return d.id("O", &o.ObligationID)
					}
					return d.enum(&o.Outcome, ratingOutcomes...)
				})
			})
		case 7:
			return records(d, &s.citations, maxRatedCitations, &a.Citations, func(c *tables.CitationRating) bool {
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
	if ok {
		d.ws()
		ok = d.i == len(d.d) // nothing but white space after the value
	}
	clearScratch(&s.obligations)
	clearScratch(&s.citations)
	d.release()
	return ok
}

// constant reads the string value (a const of the schema) and stores it.
func (d *answerDecoder) constant(value string, dst *string) bool {
	b, esc, ok := d.rawString()
	if !ok || esc || string(b) != value {
		return false
	}
	*dst = value
	return true
}

// identifier reads a string of the identifier rule (checkIdentifier).
func (d *answerDecoder) identifier(dst *string, in *interner) bool {
	b, esc, ok := d.rawString()
	if !ok || esc || !IsIdentifier(string(b)) {
		return false
	}
	*dst = in.bytes(b)
	return true
}

// boolean reads true or false.
func (d *answerDecoder) boolean(dst *bool) bool {
	d.ws()
	for _, lit := range [...]string{"true", "false"} {
		if len(d.d)-d.i >= len(lit) && string(d.d[d.i:d.i+len(lit)]) == lit && d.delimited(d.i+len(lit)) {
			d.i += len(lit)
			*dst = lit == "true"
			return true
		}
	}
	return false
}

// delimited reports whether a literal or number ending at i ends there.
func (d *answerDecoder) delimited(i int) bool {
	if i == len(d.d) {
		return true
	}
	switch d.d[i] {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// count reads a non-negative integer at most 2^53-1 written without sign,
// fraction, exponent or leading zero (the count rule: integer, minimum 0,
// maximum 2^53-1).
func (d *answerDecoder) count(dst *int64) bool {
	d.ws()
	start := d.i
	var n int64
	for d.i < len(d.d) && isDigit(d.d[d.i]) {
		n = n*10 + int64(d.d[d.i]-'0')
		d.i++
		if d.i-start > 16 {
			return false
		}
	}
	if d.i == start || d.d[start] == '0' && d.i-start > 1 || n > 1<<53-1 || !d.delimited(d.i) {
		return false
	}
	*dst = n
	return true
}

// timestamp reads a string of the timestamp rule (checkTimestamp) and
// stores the time the generic pass stores (timestampOf).
func (d *answerDecoder) timestamp(dst *time.Time) bool {
	d.ws()
	start := d.i
	b, esc, ok := d.rawString()
	if !ok || esc || !isTimestampSyntax(string(b)) {
		return false
	}
	if _, err := time.Parse(time.RFC3339Nano, string(b)); err != nil {
		return false
	}
	t, ok := timestampOf(d.d[start:d.i])
	if !ok {
		return false
	}
	*dst = t
	return true
}
