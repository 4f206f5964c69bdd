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
	out := Out{Runs: tables.NewSpool[tables.Run](nil), Obligations: tables.NewSpool[tables.ObligationOutcome](nil)} // one run per planned run, in plan order (sorted); obligation rows come in run order
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
	arm      tables.Arm
	position int64
	draft    *tables.Session
	review   *tables.Session
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

// inputs indexes what the score stage reads.
type inputs struct {
	plan     []*plannedRun
	byReview map[string]*plannedRun // scored review session ID → run
	sessions map[string]*tables.Session
	costs    map[string]*tables.Money // session ID → reference cost plus tool charges (nil: unknown), from its token row
}

// sessionRow is a session row newInputs keeps, with its citation count.
type sessionRow struct {
	tables.Session
	citations int64 // validate's CitationCounts
}

// sessionSlab is how many session rows newInputs copies per allocation.
const sessionSlab = 1024

type sessionKey struct {
	task, role, arm string
	rep             int64
}

// newInputs indexes the sessions and their citation counts (validate's
// Sessions and CitationCounts; nil counts: every count unknown) and the
// token rows' costs, and plans the runs.
func newInputs(c *tables.Campaign, sessions *tables.Spool[tables.Session], citations []int64, tokens *tables.Spool[tables.Token]) *inputs {
	in := &inputs{
		byReview: map[string]*plannedRun{},
		sessions: make(map[string]*tables.Session, sessions.Len()),
		costs:    make(map[string]*tables.Money, sessions.Len()),
	}
	latest := make(map[sessionKey]*sessionRow, sessions.Len())
	var slab []sessionRow // the rows read, in blocks: one allocation per sessionSlab rows
	i := 0
	for row := range sessions.All() {
		if len(slab) == cap(slab) {
			slab = make([]sessionRow, 0, sessionSlab)
		}
		slab = append(slab, sessionRow{Session: row, citations: tables.NoCitationCount})
		sr := &slab[len(slab)-1]
		if i < len(citations) {
			sr.citations = citations[i]
		}
		i++
		sess := &sr.Session
		in.sessions[sess.SessionID] = sess
		k := sessionKey{task: sess.TaskID, role: sess.Role, rep: sess.Repetition}
		if sess.Arm != nil {
			k.arm = *sess.Arm
		}
		if old := latest[k]; old == nil || cmp.Or(cmp.Compare(sess.Attempt, old.Attempt), cmp.Compare(sess.SessionID, old.SessionID)) > 0 {
			latest[k] = sr
		}
	}
	for t := range tokens.All() { // the session's last row, as rows are sorted by session and line
		in.costs[t.SessionID] = addMoney(t.ReferenceCost, t.ToolCharges)
	}
	in.plan = planRuns(c)
	session := func(k sessionKey) *tables.Session {
		if sr := latest[k]; sr != nil {
			return &sr.Session
		}
		return nil
	}
	for _, p := range in.plan {
		p.draft = session(sessionKey{task: p.spec.ID, role: tables.RoleDraft, rep: p.rep})
		if c.Manifest.Kind == tables.KindSystemComparison { // the workflow's own investigation
			p.draft = session(sessionKey{task: p.spec.ID, role: tables.RoleInvestigation, rep: p.rep, arm: p.arm.ID})
		}
		p.reviewCitations = tables.NoCitationCount
		if sr := latest[sessionKey{task: p.spec.ID, role: tables.RoleReview, rep: p.rep, arm: p.arm.ID}]; sr != nil {
			p.review, p.reviewCitations = &sr.Session, sr.citations
			in.byReview[p.review.SessionID] = p
		}
	}
	return in
}

// planRuns lists every planned run, sorted by task, repetition and arm.
// The schedule is the plan; without one, every task × repetition × arm.
func planRuns(c *tables.Campaign) []*plannedRun {
	d := c.Manifest.Design
	slots := d.Schedule
	if len(slots) == 0 {
		for _, t := range d.Tasks {
			for rep := int64(1); rep <= d.Repetitions; rep++ {
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
		for i, arm := range d.Arms {
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
func defectiveOracles(c *tables.Campaign) tables.Findings {
	var out tables.Findings
	for _, t := range c.Tasks {
		if !t.Truth.Oracle.Defective {
			continue
		}
		out = append(out, tables.Finding{
			Code:     tables.CodeOracleDefective,
			Severity: tables.Reject,
			File:     t.Spec.TruthPath,
			Pointer:  "/oracle/defective",
			Message:  "the oracle of task " + t.Spec.ID + " is marked defective, so its runs are not scored and the campaign has no verdict",
		})
	}
	return out
}
