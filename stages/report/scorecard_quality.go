package report

import (
	"cmp"
	"maps"
	"math/big"
	"slices"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// SourceAndProtocol is the first scorecard: source and protocol
// correctness, per arm (seed 000 §4).
type SourceAndProtocol struct {
	IdentityMismatches int64               `json:"identity_mismatches"` // sessions failing V1
	CitationFailures   int64               `json:"citation_failures"`   // citations failing V3, all sessions
	Arms               []SourceProtocolArm `json:"arms"`
}

// SourceProtocolArm counts one arm's runs.
type SourceProtocolArm struct {
	Arm                      string     `json:"arm"`
	Runs                     int64      `json:"runs"`
	ScoredRuns               int64      `json:"scored_runs"`
	CriticalFailures         int64      `json:"critical_failures"`
	CriticalCompletionFailed int64      `json:"critical_completion_failed"` // runs
	SourceGatePass           int64      `json:"source_gate_pass"`           // runs
	ProtocolGatePass         int64      `json:"protocol_gate_pass"`         // runs
	StructuralPass           int64      `json:"structural_pass"`            // runs
	SemanticPass             int64      `json:"semantic_pass"`              // runs
	SemanticFail             int64      `json:"semantic_fail"`              // runs
	SemanticUnrated          int64      `json:"semantic_unrated"`           // runs with semantic_pass null
	WrongClaims              ClaimCount `json:"wrong_claims"`
	CriticalWrongClaims      ClaimCount `json:"critical_wrong_claims"`
	UnsupportedClaims        ClaimCount `json:"unsupported_claims"`
	FalseCompletenessClaims  ClaimCount `json:"false_completeness_claims"`
}

// ClaimCount sums a nullable per-run count: Total over the runs where it
// is known, UnscorableRuns the runs where it is null (no valid answer).
type ClaimCount struct {
	Total          int64 `json:"total"`
	UnscorableRuns int64 `json:"unscorable_runs"`
}

func (c *ClaimCount) add(p *int64) {
	if p == nil {
		c.UnscorableRuns++
		return
	}
	c.Total += *p
}

// EvidenceAndPlan is the second scorecard: final evidence and plan
// correctness. Task medians and macro-averages are exact rationals
// computed from r_num/r_den and u_num/u_den of the runs.
type EvidenceAndPlan struct {
	Arms  []EvidencePlanArm  `json:"arms"`
	Tasks []EvidencePlanTask `json:"tasks"` // manifest task order, then arm order
}

// EvidencePlanArm is one arm's macro-averages of task medians over the
// tasks of one split (development and evaluation tasks are never averaged
// together: the gates judge one split). A null macro-average means some
// task median is unavailable (an unscored run): the denominator never
// shrinks, so no partial average is given.
type EvidencePlanArm struct {
	Arm              string `json:"arm"`
	Split            string `json:"split"`
	Tasks            int64  `json:"tasks"`
	MacroMedianR     *ratio `json:"macro_median_r"`
	UncertaintyTasks int64  `json:"uncertainty_tasks"` // tasks with an unanswerable obligation
	MacroMedianU     *ratio `json:"macro_median_u"`    // over uncertainty tasks; null when none
}

// EvidencePlanTask is one (task, arm) with its median R and U over
// repetitions.
type EvidencePlanTask struct {
	Task       string `json:"task"`
	Split      string `json:"split"`
	Arm        string `json:"arm"`
	Runs       int64  `json:"runs"`
	ScoredRuns int64  `json:"scored_runs"`
	MedianR    *ratio `json:"median_r"` // null when a run has no R
	MedianU    *ratio `json:"median_u"` // null when the task has no U or a run lacks it
}

func buildSourceAndProtocol(s *tables.Set, arms []string) SourceAndProtocol {
	out := SourceAndProtocol{Arms: make([]SourceProtocolArm, 0, len(arms))}
	for _, ss := range s.Sessions {
		if !ss.IdentityMatches {
			out.IdentityMismatches++
		}
		out.CitationFailures += ss.CitationFailures
	}
	for _, arm := range arms {
		a := SourceProtocolArm{Arm: arm}
		for _, r := range s.Runs {
			if r.Arm == arm {
				a.addRun(r)
			}
		}
		out.Arms = append(out.Arms, a)
	}
	return out
}

func (a *SourceProtocolArm) addRun(r tables.Run) {
	a.Runs++
	a.ScoredRuns += b2i(r.Scored)
	a.CriticalFailures += r.CriticalFailures
	a.CriticalCompletionFailed += b2i(r.CriticalCompletionFailed)
	a.SourceGatePass += b2i(r.SourceGate)
	a.ProtocolGatePass += b2i(r.ProtocolGate)
	a.StructuralPass += b2i(r.StructuralPass)
	switch {
	case r.SemanticPass == nil:
		a.SemanticUnrated++
	case *r.SemanticPass:
		a.SemanticPass++
	default:
		a.SemanticFail++
	}
	a.WrongClaims.add(r.WrongClaims)
	a.CriticalWrongClaims.add(r.CriticalWrongClaims)
	a.UnsupportedClaims.add(r.UnsupportedClaims)
	a.FalseCompletenessClaims.add(r.FalseCompletenessClaims)
}

func buildEvidenceAndPlan(c *tables.Campaign, s *tables.Set, arms []string) EvidenceAndPlan {
	groups := groupRuns(s.Runs)
	out := EvidenceAndPlan{Arms: []EvidencePlanArm{}, Tasks: []EvidencePlanTask{}}
	tasks := taskOrder(c, s)
	split := taskSplits(c)
	for _, sp := range splitOrder(tasks, split) {
		for _, arm := range arms {
			if a, ok := armMacro(sp, arm, tasks, split, groups, &out.Tasks); ok {
				out.Arms = append(out.Arms, a)
			}
		}
	}
	slices.SortStableFunc(out.Tasks, func(x, y EvidencePlanTask) int {
		return cmp.Compare(slices.Index(tasks, x.Task), slices.Index(tasks, y.Task))
	})
	return out
}

// armMacro computes one arm's macro-averages over the tasks of one split,
// appending each task's medians to rows. ok is false when the arm has no
// run in the split.
func armMacro(sp, arm string, tasks []string, split map[string]string, groups map[taskArm][]tables.Run, rows *[]EvidencePlanTask) (a EvidencePlanArm, ok bool) {
	a = EvidencePlanArm{Arm: arm, Split: sp}
	var rs, us []*big.Rat
	rComplete, uComplete := true, true
	for _, task := range tasks {
		runs, has := groups[taskArm{task, arm}]
		if !has || split[task] != sp {
			continue
		}
		t, r, u, hasU := taskMedians(task, arm, runs)
		t.Split = sp
		*rows = append(*rows, t)
		a.Tasks++
		rComplete = rComplete && r != nil
		rs = append(rs, r)
		if hasU {
			a.UncertaintyTasks++
			uComplete = uComplete && u != nil
			us = append(us, u)
		}
	}
	if rComplete {
		a.MacroMedianR = newRatio(stats.Mean(rs))
	}
	if uComplete {
		a.MacroMedianU = newRatio(stats.Mean(us))
	}
	return a, a.Tasks > 0
}

// taskSplits maps each manifest task to its split.
func taskSplits(c *tables.Campaign) map[string]string {
	m := map[string]string{}
	if c != nil {
		for _, t := range c.Manifest.Design.Tasks {
			m[t.ID] = t.Split
		}
	}
	return m
}

// splitOrder lists the splits of tasks in first-seen order.
func splitOrder(tasks []string, split map[string]string) []string {
	var out []string
	for _, t := range tasks {
		if !slices.Contains(out, split[t]) {
			out = append(out, split[t])
		}
	}
	return out
}

// taskMedians computes one (task, arm)'s exact medians. hasU reports
// whether the task has unanswerable obligations (some run has u_den > 0).
func taskMedians(task, arm string, runs []tables.Run) (t EvidencePlanTask, r, u *big.Rat, hasU bool) {
	t = EvidencePlanTask{Task: task, Arm: arm, Runs: int64(len(runs))}
	var rs, us []*big.Rat
	rOK, uOK := true, true
	for _, run := range runs {
		t.ScoredRuns += b2i(run.Scored)
		if run.R != nil && run.RDen > 0 {
			rs = append(rs, big.NewRat(run.RNum, run.RDen))
		} else {
			rOK = false
		}
		if run.UDen > 0 || run.U != nil {
			hasU = true
		}
		if run.U != nil && run.UDen > 0 {
			us = append(us, big.NewRat(run.UNum, run.UDen))
		} else {
			uOK = false
		}
	}
	if rOK {
		r = stats.MedianRat(rs)
	}
	if hasU && uOK {
		u = stats.MedianRat(us)
	}
	t.MedianR, t.MedianU = newRatio(r), newRatio(u)
	return t, r, u, hasU
}

type taskArm struct{ task, arm string }

func groupRuns(runs []tables.Run) map[taskArm][]tables.Run {
	g := map[taskArm][]tables.Run{}
	for _, r := range runs {
		k := taskArm{r.TaskID, r.Arm}
		g[k] = append(g[k], r)
	}
	return g
}

// armOrder is the manifest's arm order (baseline first), then any other
// arm found in the tables, sorted.
func armOrder(c *tables.Campaign, s *tables.Set) []string {
	var manifest []string
	if c != nil {
		for _, a := range c.Manifest.Design.Arms {
			manifest = append(manifest, a.ID)
		}
	}
	seen := map[string]bool{}
	for _, r := range s.Runs {
		seen[r.Arm] = true
	}
	for _, t := range s.Tasks {
		seen[t.Arm] = true
	}
	return withExtras(manifest, seen)
}

// taskOrder is the manifest's task order, then any other task of the runs
// or tasks tables, sorted.
func taskOrder(c *tables.Campaign, s *tables.Set) []string {
	var manifest []string
	if c != nil {
		for _, t := range c.Manifest.Design.Tasks {
			manifest = append(manifest, t.ID)
		}
	}
	seen := map[string]bool{}
	for _, r := range s.Runs {
		seen[r.TaskID] = true
	}
	for _, t := range s.Tasks {
		seen[t.TaskID] = true
	}
	return withExtras(manifest, seen)
}

// withExtras returns first (deduplicated) followed by the sorted keys of
// seen not in first.
func withExtras(first []string, seen map[string]bool) []string {
	out := []string{}
	for _, id := range first {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, id := range sortedKeys(seen) {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
