package intervals

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
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

// cell is one (cluster, task, arm): the exact task median of each measure
// over its usable values and how many there are. The values themselves
// are held only while the task's runs pass (reduce).
type cell struct {
	medians [numMeasures]*big.Rat // nil with no usable run
	n       [numMeasures]int
	vals    [numMeasures][]*big.Rat // until finish
}

// finish computes the medians and drops the values.
func (c *cell) finish() {
	for m, vs := range c.vals {
		c.n[m] = len(vs)
		if len(vs) > 0 {
			c.medians[m] = stats.MedianRat(vs)
		}
		c.vals[m] = nil
	}
}

// median returns the exact task median of m, or nil with no usable run.
func (c *cell) median(m measure) *big.Rat {
	if c == nil {
		return nil
	}
	return c.medians[m]
}

func (c *cell) runs(m measure) int {
	if c == nil {
		return 0
	}
	return c.n[m]
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
// other arm found in runs, sorted; grouped reports whether the runs of
// each task follow each other, as the score stage's (sorted by task) do.
func armOrder(m tables.Manifest, runs *spool.Spool[tables.Run]) (arms []string, grouped bool) {
	for _, a := range m.Design.Arms {
		if !slices.Contains(arms, a.ID) {
			arms = append(arms, a.ID)
		}
	}
	var extra []string
	grouped = true
	seen := map[string]bool{} // tasks whose runs have passed
	last := ""
	for r := range runs.All() {
		if !slices.Contains(arms, r.Arm) && !slices.Contains(extra, r.Arm) {
			extra = append(extra, r.Arm)
		}
		if r.TaskID != last || len(seen) == 0 {
			if seen[r.TaskID] {
				grouped = false
			}
			seen[r.TaskID], last = true, r.TaskID
		}
	}
	slices.Sort(extra)
	return append(arms, extra...), grouped
}

// reduce groups runs into cells; out-of-range values become findings and
// are left out. When the runs of each task follow each other (grouped), a
// task's cells are finished, and their values dropped, once its runs have
// passed; otherwise at the end. The cells are the same either way.
func reduce(runs *spool.Spool[tables.Run], cluster string, arms []string, grouped bool) (*reduction, []rules.Finding) {
	red := &reduction{arms: arms, cells: map[taskKey]map[string]*cell{}}
	for m := range red.armAny {
		red.armAny[m] = map[string]bool{}
	}
	var bad []rules.Finding
	var open []*cell // not yet finished: the current task's when grouped
	last := ""
	for r := range runs.All() {
		if grouped && len(open) > 0 && r.TaskID != last {
			for _, c := range open {
				c.finish()
			}
			open = open[:0]
		}
		last = r.TaskID
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
			open = append(open, c)
		}
		vals, f := runValues(&r)
		bad = append(bad, f...)
		for m, v := range vals {
			if v != nil {
				c.vals[m] = append(c.vals[m], v)
				red.any[m], red.armAny[m][r.Arm] = true, true
			}
		}
	}
	for _, c := range open {
		c.finish()
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
func runValues(r *tables.Run) ([numMeasures]*big.Rat, []rules.Finding) {
	var v [numMeasures]*big.Rat
	var bad []rules.Finding
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

func valueFinding(r *tables.Run, what string) rules.Finding {
	return rules.Finding{
		Code: rules.CodeIntervalValueInvalid, Severity: rules.Warn, Session: r.ReviewSessionID,
		Message: fmt.Sprintf("Run %s repetition %d arm %s: %s, so it is left out of the exploratory intervals.", r.TaskID, r.Repetition, r.Arm, what),
	}
}
