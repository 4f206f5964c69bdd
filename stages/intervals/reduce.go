package intervals

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// measure is a per-run quantity whose task medians enter a statistic.
type measure int

const (
	measureR measure = iota
	measureCost
	measureTime
	numMeasures
)

// cell holds the usable values of one (cluster, task, arm).
type cell struct {
	vals [numMeasures][]*big.Rat
}

// median returns the exact task median of m, or nil with no usable run.
func (c *cell) median(m measure) *big.Rat {
	if c == nil || len(c.vals[m]) == 0 {
		return nil
	}
	return stats.MedianRat(c.vals[m])
}

func (c *cell) runs(m measure) int {
	if c == nil {
		return 0
	}
	return len(c.vals[m])
}

// taskKey identifies a task inside its cluster.
type taskKey struct{ cluster, task string }

// reduction is the campaign reduced to task cells, in canonical order.
type reduction struct {
	arms     []string                     // baseline first
	clusters []string                     // sorted bytewise
	tasks    []taskKey                    // sorted by (cluster, task)
	cells    map[taskKey]map[string]*cell // looked up only, never iterated into output
	any      [numMeasures]bool            // some run anywhere has a usable value
	armAny   [numMeasures]map[string]bool // per arm
}

// armOrder is the manifest's arm order (baseline first) followed by any
// other arm found in runs, sorted.
func armOrder(m tables.Manifest, runs []tables.Run) []string {
	var arms []string
	for _, a := range m.Design.Arms {
		if !slices.Contains(arms, a.ID) {
			arms = append(arms, a.ID)
		}
	}
	var extra []string
	for _, r := range runs {
		if !slices.Contains(arms, r.Arm) && !slices.Contains(extra, r.Arm) {
			extra = append(extra, r.Arm)
		}
	}
	slices.Sort(extra)
	return append(arms, extra...)
}

// reduce groups runs into cells; out-of-range values become findings and
// are left out.
func reduce(runs []tables.Run, cluster string, arms []string) (*reduction, []tables.Finding) {
	red := &reduction{arms: arms, cells: map[taskKey]map[string]*cell{}}
	for m := range red.armAny {
		red.armAny[m] = map[string]bool{}
	}
	var bad []tables.Finding
	for _, r := range runs {
		k := taskKey{cluster: r.Family, task: r.TaskID}
		if cluster == ClusterRepo {
			k.cluster = r.Repository
		}
		byArm := red.cells[k]
		if byArm == nil {
			byArm = map[string]*cell{}
			red.cells[k] = byArm
			red.tasks = append(red.tasks, k)
		}
		c := byArm[r.Arm]
		if c == nil {
			c = &cell{}
			byArm[r.Arm] = c
		}
		vals, f := runValues(r)
		bad = append(bad, f...)
		for m, v := range vals {
			if v != nil {
				c.vals[m] = append(c.vals[m], v)
				red.any[m], red.armAny[m][r.Arm] = true, true
			}
		}
	}
	slices.SortFunc(red.tasks, func(a, b taskKey) int {
		return cmp.Or(cmp.Compare(a.cluster, b.cluster), cmp.Compare(a.task, b.task))
	})
	for _, k := range red.tasks {
		if n := len(red.clusters); n == 0 || red.clusters[n-1] != k.cluster {
			red.clusters = append(red.clusters, k.cluster)
		}
	}
	return red, bad
}

// runValues returns the run's usable R, workflow cost and workflow time
// (nil when absent), with a finding for each out-of-range value.
func runValues(r tables.Run) ([numMeasures]*big.Rat, []tables.Finding) {
	var v [numMeasures]*big.Rat
	var bad []tables.Finding
	if r.Scored {
		if r.RDen <= 0 || r.RNum < 0 || r.RNum > r.RDen {
			bad = append(bad, valueFinding(r, fmt.Sprintf("R = %d/%d is not a fraction in [0,1]", r.RNum, r.RDen)))
		} else {
			v[measureR] = big.NewRat(r.RNum, r.RDen)
		}
	}
	if r.WorkflowCost != nil {
		if *r.WorkflowCost < 0 {
			bad = append(bad, valueFinding(r, "workflow cost "+r.WorkflowCost.String()+" is negative"))
		} else {
			v[measureCost] = new(big.Rat).SetInt64(int64(*r.WorkflowCost))
		}
	}
	if r.TimeComplete {
		if r.WorkflowNS < 0 {
			bad = append(bad, valueFinding(r, fmt.Sprintf("workflow time %d ns is negative", r.WorkflowNS)))
		} else {
			v[measureTime] = new(big.Rat).SetInt64(r.WorkflowNS)
		}
	}
	return v, bad
}

func valueFinding(r tables.Run, what string) tables.Finding {
	return tables.Finding{
		Code: tables.CodeIntervalValueInvalid, Severity: tables.Warn, Session: r.ReviewSessionID,
		Message: fmt.Sprintf("Run %s repetition %d arm %s: %s, so it is left out of the exploratory intervals.", r.TaskID, r.Repetition, r.Arm, what),
	}
}
