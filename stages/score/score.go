// Package score is the fourth stage: blinded adjudications become per-run
// scores R and U (rules Q1–Q3).
//
// A run is one planned (task, repetition, arm): the repetition's shared
// draft session plus the arm's review session. Invariants:
//
//   - Every planned run has exactly one [tables.Run] row and every (run,
//     truth obligation) pair one [tables.ObligationOutcome] row: nothing
//     leaves a denominator.
//   - A run whose review returned a valid final answer needs two usable,
//     blinded primary ratings; when they disagree on anything an adjudicator
//     record settles the run wholesale. Lacking them the run is unscored
//     (Scored=false, R null) — never zero.
//   - A run without a valid final answer (failed or not dispatched review,
//     shared-draft failure) scores R=0, U=0, critical_completion_failed,
//     both gates false and null wrong-claim counts, with no ratings.
//   - Invalid or missing executions and defective oracles (C22) are
//     unscored; the aggregate stage turns them into no_verdict.
//   - R and U are exact fractions (RNum/RDen, UNum/UDen); the float columns
//     are derived for display. Money and time are exact integers.
//   - Output rows are sorted by (task, repetition, arm); no map order
//     reaches the output.
package score

import (
	"cmp"
	"slices"
	"sort"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// adjudicationsFile is where ratings come from, for findings.
const adjudicationsFile = "adjudications.jsonl"

// Out is what the stage produces (see [tables.Scored]).
type Out = tables.Scored

// Run scores every planned run from the campaign's ratings, the validate
// stage's sessions and citations and the account stage's tokens: one run
// row per planned run, one obligation row per (run, truth obligation), and
// every finding, sorted.
func Run(c *tables.Campaign, validated tables.Validated, accounted tables.Accounted) Out {
	in := newInputs(c, validated.Sessions, validated.CitationCounts, accounted.Tokens)
	out := Out{Runs: spool.New[tables.Run](nil), Obligations: spool.New[tables.ObligationOutcome](nil)} // one run per planned run, in plan order (sorted); obligation rows come in run order
	ratings := checkRatings(c, in, &out.Findings)
	out.Findings = append(out.Findings, defectiveOracles(c)...)
	out.Findings = append(out.Findings, requireUnblinding(c)...)
	sys := newSystems(c, validated.Sessions, in)
	for _, p := range in.plan {
		run, outcomes, f := scoreRun(in, p, ratings[p.reviewID()])
		if sys != nil {
			f = append(f, sys.apply(&run, p)...)
		}
		out.Runs.Add(run)
		out.Obligations.Add(outcomes...)
		out.Findings = append(out.Findings, f...)
	}
	out.Findings.Sort()
	return out
}

// plannedRun is one (task, repetition, arm) with the sessions that
// executed it: the latest attempt of each, nil when there is none.
type plannedRun struct {
	spec     *tables.TaskSpec // the design's, shared by the task's runs
	truth    *tables.Truth    // nil when the task was not loaded
	rep      int64
	arm      *tables.Arm // the design's, shared by the arm's runs
	position int64
	draft    *session // shared by the runs of the draft's repetition
	review   *session
	// reviewCitations is the number of citations of the review's final
	// answer (validate's CitationCounts), tables.NoCitationCount when unknown.
	reviewCitations int64
}

func (p *plannedRun) reviewID() string {
	if p.review == nil {
		return ""
	}
	return p.review.SessionID
}

// inputs indexes what the score stage reads. It holds no map of every
// session: the plan points to the few facts it reads of the sessions that
// executed it (session), a review is found by binary search, and the set
// of every session ID is built only when a rating names a session that is
// not a planned run's scored review (isSession).
type inputs struct {
	plan     []*plannedRun
	reviews  []*plannedRun // the runs with a review, sorted by its session ID, then plan order
	sessions *spool.Spool[tables.Session]
	tokens   *spool.Spool[tables.Token] // the costs of the sessions linked (sessionSlab.price)
	known    map[string]bool            // every session ID, built on first use by isSession
}

// runOfReview is the run whose scored review is session id (the last in
// plan order, should two share it), nil when there is none.
func (in *inputs) runOfReview(id string) *plannedRun {
	i := sort.Search(len(in.reviews), func(i int) bool { return in.reviews[i].review.SessionID > id })
	if i == 0 || in.reviews[i-1].review.SessionID != id {
		return nil
	}
	return in.reviews[i-1]
}

// isSession reports whether id is the ID of any session row.
func (in *inputs) isSession(id string) bool {
	if in.known == nil {
		in.known = map[string]bool{}
		for row := range in.sessions.All() {
			in.known[row.SessionID] = true
		}
	}
	return in.known[id]
}

// newInputs plans the runs and links each to the latest attempt of its
// draft (a system comparison: its investigation) and review among the
// session rows, with the review's citation count (validate's Sessions and
// CitationCounts, a column beside the rows; nil counts: every count
// unknown), and gives each linked session its cost from the token rows
// (nil tokens: none).
func newInputs(c *tables.Campaign, sessions *spool.Spool[tables.Session], citations []int64, tokens *spool.Spool[tables.Token]) *inputs {
	in := &inputs{plan: planRuns(c), sessions: sessions, tokens: tokens}
	var linked sessionSlab
	syscomp := c.Manifest.Kind == rules.KindSystemComparison
	i := 0
	for row := range sessions.All() {
		count := int64(tables.NoCitationCount)
		if i < len(citations) {
			count = citations[i]
		}
		i++
		arm := ""
		if row.Arm != nil {
			arm = *row.Arm
		}
		var s *session // the row's facts, made once it is some run's latest attempt
		link := func(slot **session) {
			if old := *slot; old == nil || cmp.Or(cmp.Compare(row.Attempt, old.Attempt), cmp.Compare(row.SessionID, old.SessionID)) > 0 {
				if s == nil {
					s = linked.add(&row, count)
				}
				*slot = s
			}
		}
		for _, p := range in.slot(row.TaskID, row.Repetition) {
			switch {
			case row.Role == tables.RoleDraft && !syscomp && arm == "":
				link(&p.draft)
			case row.Role == tables.RoleInvestigation && syscomp && arm == p.arm.ID: // the workflow's own investigation
				link(&p.draft)
			case row.Role == tables.RoleReview && arm == p.arm.ID:
				link(&p.review)
			}
		}
	}
	for _, p := range in.plan {
		p.reviewCitations = tables.NoCitationCount
		if p.review != nil {
			p.reviewCitations = p.review.citations
			in.reviews = append(in.reviews, p)
		}
	}
	slices.SortStableFunc(in.reviews, func(a, b *plannedRun) int { return cmp.Compare(a.review.SessionID, b.review.SessionID) })
	linked.price(tokens)
	return in
}

// slot is the planned runs of one task and repetition: the plan is sorted
// by task, repetition and arm, so they follow each other.
func (in *inputs) slot(task string, rep int64) []*plannedRun {
	lo, _ := slices.BinarySearchFunc(in.plan, 0, func(p *plannedRun, _ int) int {
		return cmp.Or(cmp.Compare(p.spec.ID, task), cmp.Compare(p.rep, rep))
	})
	hi := lo
	for hi < len(in.plan) && in.plan[hi].spec.ID == task && in.plan[hi].rep == rep {
		hi++
	}
	return in.plan[lo:hi]
}

// planRuns lists every planned run, sorted by task, repetition and arm.
// The schedule is the plan; without one, every task × repetition × arm.
func planRuns(c *tables.Campaign) []*plannedRun {
	d := c.Manifest.Design
	slots := d.Schedule
	if len(slots) == 0 {
		for _, t := range d.Tasks {
			for rep := int64(1); rep <= d.RepetitionsOf(t.Split); rep++ {
				slots = append(slots, tables.Slot{Task: t.ID, Repetition: rep})
			}
		}
	}
	type slotKey struct {
		task string
		rep  int64
	}
	specs, truths := taskIndex(c)
	seen := map[slotKey]bool{}
	var plan []*plannedRun
	for _, slot := range slots {
		if seen[slotKey{slot.Task, slot.Repetition}] {
			continue
		}
		seen[slotKey{slot.Task, slot.Repetition}] = true
		spec := specs[slot.Task]
		if spec == nil { // a task the design does not list
			spec = &tables.TaskSpec{ID: slot.Task}
			specs[slot.Task] = spec
		}
		truth := truths[slot.Task] // nil when the task was not loaded
		for i := range d.Arms {
			arm := &d.Arms[i]
			position := int64(slices.Index(slot.Order, arm.ID) + 1)
			if len(slot.Order) == 0 {
				position = int64(i + 1)
			}
			plan = append(plan, &plannedRun{spec: spec, truth: truth, rep: slot.Repetition, arm: arm, position: position})
		}
	}
	slices.SortFunc(plan, func(a, b *plannedRun) int {
		return cmp.Or(cmp.Compare(a.spec.ID, b.spec.ID), cmp.Compare(a.rep, b.rep), cmp.Compare(a.arm.ID, b.arm.ID))
	})
	return plan
}

// taskIndex indexes the design's task specs and the loaded tasks' truths
// by task ID, the first of each ID as a scan would find it.
func taskIndex(c *tables.Campaign) (map[string]*tables.TaskSpec, map[string]*tables.Truth) {
	d := &c.Manifest.Design
	specs := make(map[string]*tables.TaskSpec, len(d.Tasks))
	for i := range d.Tasks {
		if _, seen := specs[d.Tasks[i].ID]; !seen {
			specs[d.Tasks[i].ID] = &d.Tasks[i]
		}
	}
	truths := make(map[string]*tables.Truth, len(c.Tasks))
	for i := range c.Tasks {
		if _, seen := truths[c.Tasks[i].Spec.ID]; !seen {
			truths[c.Tasks[i].Spec.ID] = &c.Tasks[i].Truth
		}
	}
	return specs, truths
}

// defectiveOracles reports every task whose oracle is marked defective
// (C22): it is rejected before scoring.
func defectiveOracles(c *tables.Campaign) rules.Findings {
	var out rules.Findings
	for _, t := range c.Tasks {
		if !t.Truth.Oracle.Defective {
			continue
		}
		out = append(out, rules.Finding{
			Code:     rules.CodeOracleDefective,
			Severity: rules.Reject,
			File:     t.Spec.TruthPath,
			Pointer:  "/oracle/defective",
			Message:  "the oracle of task " + t.Spec.ID + " is marked defective, so its runs are not scored and the campaign has no verdict",
		})
	}
	return out
}
