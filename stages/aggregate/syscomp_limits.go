package aggregate

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/tables"
)

// workflowLimits is rules.GateWorkflowLimits: it bounds the workflows
// beyond a workflow limit of the system comparison (12-minute workflow
// with its attributed cold setup, 8-minute investigation, 4-minute
// review, 60 operations), the runs.limits_exceeded column written by
// stages/score. It counts the workflows of every system, not only the
// candidate's: the limits cap each complete system workflow, and a
// baseline or comparator run beyond them was not executed as frozen, so
// judging the candidate against it would move the comparison by an
// unfrozen margin.
//
// workflowLimits counts the judged runs whose limits_exceeded column names
// a limit; each failing item is the system, the run and the limits broken.
func workflowLimits(j *judge, t threshold, judged runSet) tables.Gate {
	var failing []string
	var n int
	for r := range judged.All() {
		n++
		if len(r.LimitsExceeded) > 0 {
			failing = append(failing, fmt.Sprintf("%s:%s:%s", r.Arm, runName(r), strings.Join(r.LimitsExceeded, ",")))
		}
	}
	return j.countGate(t, failing, fmt.Sprintf("%d of %d workflows of any system beyond a workflow limit (12 min workflow incl. cold setup, 8 min investigation, 4 min review, %d operations)",
		len(failing), n, tables.WorkflowOperationLimit))
}
