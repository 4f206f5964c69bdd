package aggregate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/golden"
	"github.com/evalgate/evalgate/tables"
)

// TestData renders the stage's output for small campaigns as text
// (testdata/aggregate.txt; refresh with go test -update). Commands:
//
//	campaign tasks=N reps=N    the passing campaign of fixture_test.go
//	set-r task= arm= rep= r=   R of a run, in points of 100 (rep 0: all)
//	set-cost task= arm= rep= cost=
//	aggregate                  task medians, gates and the decision
func TestData(t *testing.T) {
	var f *fixture
	golden.RunCommands(t, "testdata/aggregate.txt", golden.Commands{
		"campaign": func(c *golden.Case) string {
			f = newFixture(t, int(c.Int("tasks", 0)), c.Int("reps", 0))
			return fmt.Sprintf("%d runs\n", len(f.runs))
		},
		"set-r": func(c *golden.Case) string {
			f.setR(c.Arg("task", ""), c.Arg("arm", ""), c.Int("rep", 0), c.Int("r", 0))
			return ""
		},
		"set-cost": func(c *golden.Case) string {
			f.setCost(c.Arg("task", ""), c.Arg("arm", ""), c.Int("rep", 0), c.Arg("cost", ""))
			return ""
		},
		"aggregate": func(*golden.Case) string {
			f.aggregate()
			return renderAggregate(f.s)
		},
	})
}

func renderAggregate(s *tables.Set) string {
	var b strings.Builder
	b.WriteString("tasks (task arm: median R, cost, seconds):\n")
	for _, r := range s.Tasks {
		fmt.Fprintf(&b, "  %s %s: %s, %s, %d\n", r.TaskID, r.Arm, golden.OrNull(r.MedianRExact), golden.OrNull(r.MedianCost), r.MedianNS/1e9)
	}
	b.WriteString("gates (gate arm: observed threshold):\n")
	for _, g := range s.Gates {
		verdict := "pass"
		if !g.Pass {
			verdict = "FAIL " + strings.Join(g.Failing, ",")
		}
		fmt.Fprintf(&b, "  %s %s: %s %s %s\n", g.Gate, g.Arm, g.Observed, g.Threshold, strings.TrimSpace(verdict))
	}
	for _, d := range s.Decision {
		fmt.Fprintf(&b, "decision: %s arm %s failing [%s]\n", d.Decision, d.Arm, strings.Join(d.FailingGates, ","))
	}
	return b.String()
}
