package stages

import (
	"fmt"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/validate"
)

// CheckAnswer checks one answer on its own, without a campaign: the strict
// decoding of the response contract (stages/load) and, when the answer
// decodes, the link, status and reconciliation rules (stages/validate).
// role is draft, review or reconciliation; an unknown role is reported as a
// role_unknown finding. file is used in findings. Evidence IDs and
// citations are not checked against a packet or sources here. Findings are
// sorted; any finding makes the answer structurally invalid.
func CheckAnswer(file string, data []byte, role string) rules.Findings {
	switch role {
	case validate.RoleDraft, validate.RoleReview, validate.RoleReconciliation:
	default:
		return rules.Findings{{
			Code: rules.CodeRoleUnknown, Severity: rules.Reject, File: file,
			Message: fmt.Sprintf("Role %q is not draft, review or reconciliation.", role),
		}}
	}
	a, findings := load.Answer(file, data)
	if a != nil {
		findings = append(findings, validate.AnswerRules(a, validate.AnswerOptions{File: file, Role: role})...)
	}
	findings.Sort()
	return findings
}
