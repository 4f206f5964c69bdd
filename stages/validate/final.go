package validate

import (
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// finalRules applies V4 and V5 to the final answer.
func (c *checker) finalRules() {
	f := &c.a.Final
	for i, cl := range f.Claims {
		c.claimRules(i, cl)
	}
	for i, a := range f.ImplementationPlan {
		c.actionRules(i, a)
	}
	for i, v := range f.VerificationPlan {
		c.verificationRules(i, v)
	}
	for i, cit := range f.Citations {
		p := at("/final/citations").index(i)
		if cit.StartLine > cit.EndLine {
			c.add(rules.CodeCitationRangeInverted, p.field("start_line"), "start_line %d is after end_line %d", cit.StartLine, cit.EndLine)
		}
		c.links(p, "supports", cit.Supports, targetsSupports)
	}
}

func (c *checker) claimRules(i int, cl tables.Claim) {
	p := at("/final/claims").index(i)
	if cl.UncertaintyID != nil {
		c.link(p, "uncertainty_id", *cl.UncertaintyID, targetsUncertainty)
	}
	switch cl.Status {
	case tables.ClaimSourceBacked:
		c.sourceSupport(p, cl.ID, "source_backed claim", cl.EvidenceIDs)
	case tables.ClaimInference:
		if len(cl.EvidenceIDs) == 0 {
			c.add(rules.CodeEvidenceRequired, p.field("evidence_ids"), "inference claim %q names no source premises; a claim without them must be unknown", cl.ID)
		}
	case tables.ClaimUnknown:
		if cl.UncertaintyID == nil {
			c.add(rules.CodeUncertaintyLinkRequired, p.field("uncertainty_id"), "unknown claim %q has no uncertainty_id", cl.ID)
		}
	default:
		c.add(rules.CodeEnumValue, p.field("status"), "claim status %q is not source_backed, inference or unknown", cl.Status)
	}
}

func (c *checker) actionRules(i int, a tables.Action) {
	p := at("/final/implementation_plan").index(i)
	c.links(p, "verification_ids", a.VerificationIDs, targetsVerification)
	if len(a.VerificationIDs) == 0 && a.VerificationLimitation == nil {
		c.add(rules.CodeVerificationLinkRequired, p.field("verification_ids"), "action %q has no verification link and no verification_limitation", a.ID)
	}
	switch a.SupportBasis {
	case tables.BasisSource:
		c.sourceSupport(p, a.ID, "source-based action", a.EvidenceIDs)
	case tables.BasisTask:
	default:
		c.add(rules.CodeEnumValue, p.field("support_basis"), "action support_basis %q is not source or task", a.SupportBasis)
	}
}

func (c *checker) verificationRules(i int, v tables.Verification) {
	p := at("/final/verification_plan").index(i)
	if v.UncertaintyID != nil {
		c.link(p, "uncertainty_id", *v.UncertaintyID, targetsUncertainty)
	}
	switch v.SupportBasis {
	case tables.BasisSource:
		c.sourceSupport(p, v.ID, "source-based verification", v.EvidenceIDs)
	case tables.BasisTask:
	case tables.BasisMissingSource:
		if v.UncertaintyID == nil {
			c.add(rules.CodeUncertaintyLinkRequired, p.field("uncertainty_id"), "missing_source verification %q has no uncertainty_id", v.ID)
		}
	default:
		c.add(rules.CodeEnumValue, p.field("support_basis"), "verification support_basis %q is not source, task or missing_source", v.SupportBasis)
	}
}

// sourceSupport requires nonempty evidence and a citation of that evidence
// supporting id.
func (c *checker) sourceSupport(p pointer, id, what string, evidence []string) {
	if len(evidence) == 0 {
		c.add(rules.CodeEvidenceRequired, p.field("evidence_ids"), "%s %q has no evidence IDs", what, id)
		return
	}
	if !c.idx.citedBy(id, evidence) {
		c.add(rules.CodeCitationRequired, p, "%s %q is supported by no citation of its evidence", what, id)
	}
}
