package intervals

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/golden"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// TestData renders the stage's interval rows for a few runs as text
// (testdata/intervals.txt; refresh with go test -update). Commands:
//
//	intervals    the input lines are runs, "task family arm rep num den
//	             cost ns" (R = num/den, cost in whole units); prints one
//	             line per expanded-percentile row and every finding
func TestData(t *testing.T) {
	golden.RunCommands(t, "testdata/intervals.txt", golden.Commands{"intervals": func(c *golden.Case) string {
		var runs []tables.Run
		for _, l := range strings.Split(strings.TrimSpace(c.Input), "\n") {
			w := strings.Fields(l)
			if len(w) != 8 {
				t.Fatalf("%s: run line %q needs 8 fields", c.Pos, l)
			}
			n := make([]int64, 5)
			for i, s := range append([]string{w[3]}, w[4:]...) {
				v, err := strconv.ParseInt(s, 10, 64)
				if err != nil {
					t.Fatalf("%s: %q: %v", c.Pos, l, err)
				}
				n[i] = v
			}
			runs = append(runs, run(w[0], w[1], w[2], n[0], n[1], n[2], n[3], n[4]))
		}
		return renderIntervals(Run(campaign("A", "B"), spool.Of(runs...)))
	}})
}

func renderIntervals(out Out) string {
	var b strings.Builder
	b.WriteString("intervals (statistic contrast: status, estimate [lo, hi], families):\n")
	for _, r := range out.Intervals {
		if r.Method != "family_bootstrap_expanded_percentile" {
			continue
		}
		fmt.Fprintf(&b, "  %s %s: %s, %s [%s, %s], %d\n", r.Statistic, r.Contrast, r.Status,
			floatOrNull(r.Estimate), floatOrNull(r.Lo), floatOrNull(r.Hi), r.NFamilies)
	}
	for _, f := range out.Findings {
		fmt.Fprintf(&b, "finding: %s %s\n", f.Severity, f.Code)
	}
	return b.String()
}

func floatOrNull(v *float64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatFloat(*v, 'f', 4, 64)
}
