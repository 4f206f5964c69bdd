package aggregate

import (
	"fmt"
	"strconv"
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
	golden.RunData(t, "testdata/aggregate.txt", func(t *testing.T, c *golden.Case) string {
		num := func(key string) int64 {
			n, err := strconv.ParseInt(c.Arg(key, "0"), 10, 64)
			if err != nil {
				t.Fatalf("%s: %s=%q: %v", c.Pos, key, c.Arg(key, ""), err)
			}
			return n
		}
		switch c.Cmd {
		case "campaign":
			f = newFixture(t, int(num("tasks")), num("reps"))
			return fmt.Sprintf("%d runs\n", len(f.s.Runs))
		case "set-r":
			f.setR(c.Arg("task", ""), c.Arg("arm", ""), num("rep"), num("r"))
			return ""
		case "set-cost":
			f.setCost(c.Arg("task", ""), c.Arg("arm", ""), num("rep"), c.Arg("cost", ""))
			return ""
		case "aggregate":
			f.aggregate()
			return renderAggregate(f.s)
		}
		t.Fatalf("%s: unknown command %s", c.Pos, c.Cmd)
		return ""
	})
}

func renderAggregate(s *tables.Set) string {
	var b strings.Builder
	b.WriteString("tasks (task arm: median R, cost, seconds):\n")
	for _, r := range s.Tasks {
		fmt.Fprintf(&b, "  %s %s: %s, %s, %d\n", r.TaskID, r.Arm, textOrNull(r.MedianRExact), moneyText(r.MedianCost), r.MedianNS/1e9)
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

func moneyText(m *tables.Money) string {
	if m == nil {
		return "null"
	}
	return m.String()
}

// textOrNull renders a nullable text column, null as "null".
func textOrNull(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}
