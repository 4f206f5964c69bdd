package scorecard

import (
	"maps"
	"slices"

	"github.com/evalgate/evalgate/tables"
)

// SourceAndProtocol is the first scorecard: source and protocol
// correctness, per arm (rule G2).
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
// correctness. Task medians and macro-averages are the aggregate stage's
// exact rationals (tables.Figures), the values the gates compare.
type EvidenceAndPlan struct {
	Arms  []EvidencePlanArm  `json:"arms"`
	Tasks []EvidencePlanTask `json:"tasks"` // manifest task order, then arm order
	// ConstructedCompletePackets are the tasks whose packet was
	// intentionally constructed to be complete (the tasks table's
	// packet_constructed_complete), in its order: their results cannot
	// support a retrieval-quality claim.
	ConstructedCompletePackets []string `json:"constructed_complete_packets"`
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
	MacroMedianR     *Ratio `json:"macro_median_r"`
	UncertaintyTasks int64  `json:"uncertainty_tasks"` // tasks with an unanswerable obligation
	MacroMedianU     *Ratio `json:"macro_median_u"`    // over uncertainty tasks; null when none
}

// EvidencePlanTask is one (task, arm) with its median R and U over
// repetitions.
type EvidencePlanTask struct {
	Task       string `json:"task"`
	Split      string `json:"split"`
	Arm        string `json:"arm"`
	Runs       int64  `json:"runs"`
	ScoredRuns int64  `json:"scored_runs"`
	MedianR    *Ratio `json:"median_r"` // null when a run has no R
	MedianU    *Ratio `json:"median_u"` // null when the task has no U or a run lacks it
	// PacketConstructedComplete: the task's packet was intentionally
	// constructed to be complete, so this row cannot support a
	// retrieval-quality claim.
	PacketConstructedComplete bool `json:"packet_constructed_complete"`
}

func buildSourceAndProtocol(s *tables.Set, arms []string) SourceAndProtocol {
	out := SourceAndProtocol{Arms: make([]SourceProtocolArm, 0, len(arms))}
	for ss := range s.Sessions.All() {
		if !ss.IdentityMatches {
			out.IdentityMismatches++
		}
		out.CitationFailures += ss.CitationFailures
	}
	byArm := make(map[string]int, len(arms)) // arm → its first place in out.Arms
	for _, arm := range arms {
		if _, seen := byArm[arm]; !seen {
			byArm[arm] = len(out.Arms)
		}
		out.Arms = append(out.Arms, SourceProtocolArm{Arm: arm})
	}
	for r := range s.Runs.All() { // one pass over the spooled runs
		if i, ok := byArm[r.Arm]; ok {
			out.Arms[i].addRun(r)
		}
	}
	for i, arm := range arms { // an arm listed twice: the same counts at each place, as before
		if j := byArm[arm]; j != i {
			out.Arms[i] = out.Arms[j]
		}
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

// buildEvidenceAndPlan formats the aggregate stage's task medians and
// macro-averages, each task marked with its packet's flag from the tasks
// table.
func buildEvidenceAndPlan(f tables.Figures, tasks []tables.Task) EvidenceAndPlan {
	out := EvidenceAndPlan{Arms: []EvidencePlanArm{}, Tasks: []EvidencePlanTask{}, ConstructedCompletePackets: []string{}}
	complete := map[string]bool{}
	for _, t := range tasks {
		if t.PacketConstructedComplete && !complete[t.TaskID] {
			complete[t.TaskID] = true
			out.ConstructedCompletePackets = append(out.ConstructedCompletePackets, t.TaskID)
		}
	}
	for _, a := range f.EvidenceArms {
		out.Arms = append(out.Arms, EvidencePlanArm{Arm: a.Arm, Split: a.Split, Tasks: a.Tasks,
			MacroMedianR: newRatio(a.MacroMedianR), UncertaintyTasks: a.UncertaintyTasks, MacroMedianU: newRatio(a.MacroMedianU)})
	}
	for _, t := range f.EvidenceTasks {
		out.Tasks = append(out.Tasks, EvidencePlanTask{Task: t.Task, Split: t.Split, Arm: t.Arm, Runs: t.Runs,
			ScoredRuns: t.ScoredRuns, MedianR: newRatio(t.MedianR), MedianU: newRatio(t.MedianU), PacketConstructedComplete: complete[t.Task]})
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
