package score

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/golden"
	"github.com/evalgate/evalgate/tables"
)

// TestData renders the stage's run rows for the fixture of fixture_test.go
// as text (testdata/score.txt; refresh with go test -update). Commands:
//
//	fixture reps=N                  the fixture, with N repetitions
//	rate rep=N arm=A o1= o2= o3= o4= two primary raters agree on a review
//	                                (outcomes addressed, missed, wrong,
//	                                unknown_credited)
//	score                           one line per run row, then findings
func TestData(t *testing.T) {
	var f *fixture
	golden.RunCommands(t, "testdata/score.txt", golden.Commands{
		"fixture": func(c *golden.Case) string {
			f = newFixture(t, c.Int("reps", 1))
			return ""
		},
		"rate": func(c *golden.Case) string {
			f.rate(rating(sessionID(c.Int("rep", 1), c.Arg("arm", "A")), "", "",
				c.Arg("o1", addr), c.Arg("o2", addr), c.Arg("o3", addr), c.Arg("o4", unkc)))
			return ""
		},
		"score": func(*golden.Case) string {
			f.run(t)
			return renderRuns(f.s)
		},
	})
}

func renderRuns(s *tables.Set) string {
	var b strings.Builder
	b.WriteString("runs (rep arm: scored, R, U, critical failures, semantic pass, workflow cost, workflow s):\n")
	for _, r := range s.Runs.Collect() {
		fmt.Fprintf(&b, "  %d %s: %t, %d/%d, %d/%d, %d, %s, %s, %d\n", r.Repetition, r.Arm, r.Scored,
			r.RNum, r.RDen, r.UNum, r.UDen, r.CriticalFailures, golden.OrNull(r.SemanticPass), golden.OrNull(r.WorkflowCost), r.WorkflowNS/1e9)
	}
	for _, f := range s.Rejections {
		fmt.Fprintf(&b, "finding: %s %s %s\n", f.Severity, f.Code, f.Session)
	}
	return b.String()
}
