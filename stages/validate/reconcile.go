package validate

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// reconciliationRules applies V6 to a reconciliation record.
func (c *checker) reconciliationRules(rec *tables.Reconciliation) {
	for i, o := range rec.Obligations {
		c.obligationRules(i, o)
	}
	seen := map[string]bool{}
	for i, d := range rec.EvidenceDispositions {
		p := at("/reconciliation/evidence_dispositions").index(i)
		if seen[d.EvidenceID] {
			c.add(rules.CodeDispositionDuplicate, p.field("evidence_id"), "evidence %q already has a disposition", d.EvidenceID)
		}
		seen[d.EvidenceID] = true
		c.dispositionRules(p, d)
	}
}

func (c *checker) obligationRules(i int, o tables.Obligation) {
	p := at("/reconciliation/obligations").index(i)
	linked := c.links(p, "final_ids", o.FinalIDs, targetsFinalIDs)
	if o.Basis != tables.BasisSource && o.Basis != tables.BasisTask {
		c.add(rules.CodeEnumValue, p.field("basis"), "obligation basis %q is not task or source", o.Basis)
	}
	switch o.Status {
	case tables.ObligationAddressed:
		if !c.addressedLinks(linked) {
			c.add(rules.CodeObligationAddressedUnlinked, p.field("final_ids"), "addressed obligation %q needs a C or A link and a V link, or an A link with a verification_limitation", o.ID)
		}
		if o.Basis == tables.BasisSource && len(o.EvidenceIDs) == 0 {
			c.add(rules.CodeEvidenceRequired, p.field("evidence_ids"), "source-based addressed obligation %q has no evidence IDs", o.ID)
		}
	case tables.ObligationUnresolved:
		if !hasKind(linked, kindUncertainty) {
			c.add(rules.CodeObligationUnresolvedUnlinked, p.field("final_ids"), "unresolved obligation %q has no U link", o.ID)
		}
	case tables.ObligationExcluded:
		if !hasKind(linked, kindExclusion) {
			c.add(rules.CodeObligationExcludedUnlinked, p.field("final_ids"), "excluded obligation %q has no X link", o.ID)
		}
	default:
		c.add(rules.CodeEnumValue, p.field("status"), "obligation status %q is not addressed, excluded or unresolved", o.Status)
	}
}

func (c *checker) addressedLinks(linked []record) bool {
	if (hasKind(linked, kindClaim) || hasKind(linked, kindAction)) && hasKind(linked, kindVerification) {
		return true
	}
	return slices.ContainsFunc(linked, func(r record) bool {
		return r.kind == kindAction && c.a.Final.ImplementationPlan[r.index].VerificationLimitation != nil
	})
}

func (c *checker) dispositionRules(p pointer, d tables.Disposition) {
	linked := c.links(p, "final_ids", d.FinalIDs, targetsFinalIDs)
	e := d.EvidenceID
	switch d.Status {
	case tables.DispositionUsed:
		if !slices.ContainsFunc(linked, func(r record) bool {
			return r.kind != kindUncertainty && r.kind != kindExclusion && c.citedWithEvidence(r, e)
		}) {
			c.add(rules.CodeDispositionUsedUnsupported, p.field("final_ids"), "used evidence %q has no C/A/V link supported by a citation of %q", e, e)
		}
	case tables.DispositionExcluded:
		c.excludedDisposition(p, e, linked)
	case tables.DispositionUnresolved:
		if !hasKind(linked, kindUncertainty) {
			c.add(rules.CodeDispositionUnresolvedUnlinked, p.field("final_ids"), "unresolved evidence %q has no U link", e)
		}
	default:
		c.add(rules.CodeEnumValue, p.field("status"), "disposition status %q is not used, excluded or unresolved", d.Status)
	}
}

func (c *checker) citedWithEvidence(r record, e string) bool {
	return c.idx.citedBy(c.idOf(r), []string{e})
}

func (c *checker) idOf(r record) string {
	f := &c.a.Final
	switch r.kind {
	case kindClaim:
		return f.Claims[r.index].ID
	case kindAction:
		return f.ImplementationPlan[r.index].ID
	case kindVerification:
		return f.VerificationPlan[r.index].ID
	case kindUncertainty:
		return f.Uncertainties[r.index].ID
	default:
		return f.Exclusions[r.index].ID
	}
}

// excludedDisposition requires an X link naming e with a concrete reason.
func (c *checker) excludedDisposition(p pointer, e string, linked []record) {
	var first *tables.Exclusion // the first X link naming e
	for _, r := range linked {
		if r.kind != kindExclusion {
			continue
		}
		x := &c.a.Final.Exclusions[r.index]
		if !slices.Contains(x.EvidenceIDs, e) {
			continue
		}
		if !GenericReason(x.Reason) {
			return // a concrete reason justifies it
		}
		if first == nil {
			first = x
		}
	}
	if first == nil {
		c.add(rules.CodeDispositionExcludedUnlinked, p.field("final_ids"), "excluded evidence %q has no X link whose evidence_ids include it", e)
		return
	}
	c.add(rules.CodeExclusionReasonGeneric, p.field("final_ids"), "excluded evidence %q is justified only by the generic reason %q of %q", e, first.Reason, first.ID)
}

// genericWords are empty verdicts; fillerWords carry no justification
// either. A reason made only of these words is generic.
var (
	genericWords = words("not no non irrelevant relevant unrelated related out of scope outside needed unneeded unnecessary necessary required useful unused used applicable na n a none excluded exclude excluding noise noisy important unimportant reason reasons given")
	fillerWords  = words("the this that these those it its is are was were be been to for a an and or in on at here there task question item items evidence excerpt excerpts snippet source file e current answer review draft")
)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// GenericReason reports whether an exclusion reason is generic: empty after
// trimming, or made only of filler words and empty verdicts such as "not
// relevant" or "out of scope". Evidence IDs count as filler ("E3 is not
// needed" is generic). The rule is conservative: any other word makes a
// reason concrete.
//
// Words are the runs of letters and digits of the lowercased reason
// (unicode.ToLower of each rune; a byte that is not UTF-8 separates, as
// U+FFFD does), gathered in a buffer rather than a lowercased copy split
// into a slice.
func GenericReason(reason string) bool {
	var stack [64]byte
	word := stack[:0]
	for _, r := range reason {
		if r = unicode.ToLower(r); unicode.IsLetter(r) || unicode.IsDigit(r) {
			word = utf8.AppendRune(word, r)
			continue
		}
		if len(word) > 0 && !emptyWord(word) {
			return false
		}
		word = word[:0]
	}
	return len(word) == 0 || emptyWord(word)
}

// emptyWord reports whether w is a generic or filler word or an evidence
// ID.
func emptyWord(w []byte) bool {
	return genericWords[string(w)] || fillerWords[string(w)] || isEvidenceToken(string(w))
}

func isEvidenceToken(w string) bool {
	if len(w) < 2 || w[0] != 'e' {
		return false
	}
	for _, r := range w[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
