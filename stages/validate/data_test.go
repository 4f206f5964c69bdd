package validate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/golden"
)

// TestData renders the stage's session rows for the passing fixture of
// run_test.go and a few breaks of it as text (testdata/sessions.txt;
// refresh with go test -update). Commands:
//
//	fixture                     the passing one-task campaign (draft D,
//	                            reviews A and B)
//	wrong-model session=S       the receipt returns another model
//	no-end session=S            the receipt has no terminal time
//	fail-draft                  the draft times out; the reviews are not
//	                            dispatched (upstream_draft_failed)
//	replacement                 A fails on a platform outage and the whole
//	                            repetition is run again as attempt 2
//	validate                    one line per session row, then findings
func TestData(t *testing.T) {
	var f *fixture
	edit := func(apply func(c *golden.Case)) func(c *golden.Case) string {
		return func(c *golden.Case) string { apply(c); return "" }
	}
	golden.RunCommands(t, "testdata/sessions.txt", golden.Commands{
		"fixture":     edit(func(*golden.Case) { f = newFixture(t) }),
		"wrong-model": edit(func(c *golden.Case) { f.find(c.Arg("session", "")).Identity.ReturnedModel = "model-2" }),
		"no-end":      edit(func(c *golden.Case) { f.find(c.Arg("session", "")).EndedAt = nil }),
		"fail-draft":  edit(func(*golden.Case) { failDraft(f) }),
		"replacement": edit(func(*golden.Case) { replacement(f) }),
		"validate":    func(*golden.Case) string { return renderSessions(f.run()) },
	})
}

func renderSessions(out Out) string {
	var b strings.Builder
	b.WriteString("sessions (session attempt: status, classification, answer valid, identity matches, findings):\n")
	for s := range out.Sessions.All() {
		fmt.Fprintf(&b, "  %s %d: %s, %s, %s, %t, %d\n", s.SessionID, s.Attempt, s.Status, s.Classification, golden.OrNull(s.AnswerValid), s.IdentityMatches, s.Findings)
	}
	for _, f := range out.Findings {
		fmt.Fprintf(&b, "finding: %s %s %s\n", f.Severity, f.Code, f.Session)
	}
	return b.String()
}
