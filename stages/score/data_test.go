package score

import (
	"fmt"
	"strconv"
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
	golden.RunData(t, "testdata/score.txt", func(t *testing.T, c *golden.Case) string {
		switch c.Cmd {
		case "fixture":
			reps, err := strconv.ParseInt(c.Arg("reps", "1"), 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", c.Pos, err)
			}
			f = newFixture(t, reps)
			return ""
		case "rate":
			rep, err := strconv.ParseInt(c.Arg("rep", "1"), 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", c.Pos, err)
			}
			f.rate(rating(sessionID(rep, c.Arg("arm", "A")), "", "",
				c.Arg("o1", addr), c.Arg("o2", addr), c.Arg("o3", addr), c.Arg("o4", unkc)))
			return ""
		case "score":
			f.run(t)
			return renderRuns(f.s)
		}
		t.Fatalf("%s: unknown command %s", c.Pos, c.Cmd)
		return ""
	})
}

func renderRuns(s *tables.Set) string {
	var b strings.Builder
	b.WriteString("runs (rep arm: scored, R, U, critical failures, semantic pass, workflow cost, workflow s):\n")
	for _, r := range s.Runs {
		semantic := "null"
		if r.SemanticPass != nil {
			semantic = strconv.FormatBool(*r.SemanticPass)
		}
		cost := "null"
		if r.WorkflowCost != nil {
			cost = r.WorkflowCost.String()
		}
		fmt.Fprintf(&b, "  %d %s: %t, %d/%d, %d/%d, %d, %s, %s, %d\n", r.Repetition, r.Arm, r.Scored,
			r.RNum, r.RDen, r.UNum, r.UDen, r.CriticalFailures, semantic, cost, r.WorkflowNS/1e9)
	}
	for _, f := range s.Rejections {
		fmt.Fprintf(&b, "finding: %s %s %s\n", f.Severity, f.Code, f.Session)
	}
	return b.String()
}
