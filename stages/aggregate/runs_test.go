package aggregate

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// TestHeldRuns: a set of held runs yields what the spool yields, whole
// and filtered, in the same order; a set of more than maxHeldRuns runs is
// not held.
func TestHeldRuns(t *testing.T) {
	runs := spool.New(byRun)
	for i := range 40000 { // more than a spool chunk: several chunks merged
		r := float64(i%7) / 7
		runs.Add(tables.Run{TaskID: "T" + strconv.Itoa(i%977), Repetition: int64(i % 4), Arm: []string{"A", "B"}[i%2],
			R: &r, LimitsExceeded: []string{}})
	}
	runs.Compact()
	held, streamed := heldRuns(runs), runSet{spool: runs}
	if held.held == nil {
		t.Fatal("40,000 runs are not held")
	}
	collect := func(s runSet) []tables.Run {
		var out []tables.Run
		for r := range s.All() {
			out = append(out, *r)
		}
		return out
	}
	if got, want := collect(held), collect(streamed); len(want) != 40000 || !reflect.DeepEqual(got, want) {
		t.Fatalf("held runs differ from the spool's (%d and %d)", len(got), len(want))
	}
	if got, want := collect(held.ofArm("B").where(func(r *tables.Run) bool { return r.Repetition == 3 })),
		collect(streamed.ofArm("B").where(func(r *tables.Run) bool { return r.Repetition == 3 })); len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("held filtered runs differ from the spool's (%d and %d)", len(got), len(want))
	}
	for range maxHeldRuns + 1 - 40000 {
		runs.Add(tables.Run{TaskID: "T"})
	}
	if heldRuns(runs).held != nil {
		t.Error("more than maxHeldRuns runs are held")
	}
	if heldRuns(nil).held != nil {
		t.Error("no runs are held")
	}
}
