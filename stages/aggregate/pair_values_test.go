package aggregate

import (
	"math"
	"math/big"
	"testing"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// pairRatio divides a pair's integer values with stats.Fraction; it gave
// stats.Ratio of them as rationals (moneyRat, a big.Rat of the time),
// nil for an unknown value. They agree on zero, negative and int64-edge
// values, and runCost and runTime are unknown exactly where those were nil.
func TestPairValuesMatchRatio(t *testing.T) {
	vals := []int64{0, 1, 2, 3, -1, -2, 6, 1 << 32, 1<<53 + 1, math.MaxInt64, math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1}
	for _, treat := range vals {
		for _, base := range vals {
			got := stats.Fraction(treat, base)
			want := stats.Ratio(big.NewRat(treat, 1), big.NewRat(base, 1))
			if (got == nil) != (want == nil) || (got != nil && (got.Cmp(want) != 0 || got.RatString() != want.RatString())) {
				t.Fatalf("Fraction(%d, %d) = %v, Ratio gives %v", treat, base, got, want)
			}
		}
	}
	m := tables.Money(-7)
	for _, r := range []tables.Run{{}, {WorkflowCost: &m, WorkflowNS: 5}, {WorkflowNS: 9, TimeComplete: true}} {
		if v, ok := runCost(&r); ok != (moneyRat(r.WorkflowCost) != nil) || (ok && v != int64(*r.WorkflowCost)) {
			t.Fatalf("runCost(%+v) = %d, %v", r, v, ok)
		}
		if v, ok := runTime(&r); ok != r.TimeComplete || (ok && v != r.WorkflowNS) {
			t.Fatalf("runTime(%+v) = %d, %v", r, v, ok)
		}
	}
}
