package tables

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/rules"
)

// ApplyRejections is the one rule that ties findings to the verdict: a
// campaign with any rejecting finding (a defect of the record, see
// [rules.ClassOf]) gets decision no_verdict, with every rejecting finding named
// in the reason, whatever its gates say. A fault of the model never
// rejects; it is scored as a failure and the campaign is judged.
//
// stages.Run applies it once, to the decision rows the aggregate stage
// wrote and every stage's findings; a campaign the loader rejected gets one
// no_verdict row. The gates keep their rows for diagnosis.
func ApplyRejections(decisions []Decision, findings rules.Findings) []Decision {
	var rejecting rules.Findings
	for _, f := range findings {
		if f.Severity == rules.Reject {
			rejecting = append(rejecting, f)
		}
	}
	if len(rejecting) == 0 {
		return decisions
	}
	reason := RejectionReason(rejecting)
	if len(decisions) == 0 {
		decisions = []Decision{{}}
	}
	out := make([]Decision, len(decisions))
	for i, d := range decisions {
		d.Decision, d.Reason, d.RejectingFindings = DecisionNoVerdict, reason, int64(len(rejecting))
		out[i] = d
	}
	return out
}

// RejectionReason is the reason of a no_verdict decision given by
// rejecting findings: their count and every one of them, in order.
func RejectionReason(rejecting rules.Findings) string {
	parts := make([]string, len(rejecting))
	for i, f := range rejecting {
		parts[i] = f.Error()
	}
	return fmt.Sprintf("the record has %d rejecting finding(s), so the campaign cannot be judged: %s", len(rejecting), strings.Join(parts, "; "))
}
