package score

import (
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// System comparison (rule G5). A run is one workflow of one
// system: its own investigation session (in the draft_session_id column)
// plus its review; there is no shared draft, so the workflow's cost and
// time are the two sessions' (fillCostTime), and after a failed
// investigation the workflow is the investigation alone, classified
// investigation_failure with R_sys=0 and U=0.
//
// Cold setup: the one preparation session of a (system, repository) is
// charged in full to that system's first workflow in the repository
// (schedule order; stages/validate enforces that the receipt names it).
// That run has cold=true and its setup_cost and setup_ns are included in
// workflow_cost and workflow_ns; every other run is warm (setup 0), so
// the warm cost of a cold run is workflow_cost − setup_cost. A missing
// setup leaves the cold run's cost null: the cost gates cannot pass.
//
// R_sys is the ordinary R over the truth's answerable obligations, read
// as repository-answerable: one denominator shared by every system,
// independent of what each returned. Packet-supported coverage is
// reported apart: the share of those obligations whose truth evidence
// (the task's reference excerpts) lies wholly inside the lines of the
// observations the investigation returned, file by file. It never enters
// R_sys or a gate.

// tables.ClassInvestigationFailure is the run classification of a workflow whose
// investigation failed (the system-comparison counterpart of a shared
// draft failure).

// systems holds what the system-comparison columns need.
type systems struct {
	c     *tables.Campaign
	setup map[setupKey]*session // (system, repository) → preparation
	cold  map[setupKey]slotRef  // (system, repository) → first workflow
	calls map[attemptKey]int64  // tool calls per receipt
	// packetTokens is each investigation's returned packet size under the
	// frozen tokenizer (stages/load).
	packetTokens map[string]int64
}

type setupKey struct{ arm, repo string }

type slotRef struct {
	task string
	rep  int64
}

// newSystems returns nil unless c is a system comparison.
func newSystems(c *tables.Campaign, sessions *spool.Spool[tables.Session], in *inputs) *systems {
	if c.Manifest.Kind != rules.KindSystemComparison {
		return nil
	}
	sy := &systems{c: c, setup: map[setupKey]*session{}, cold: map[setupKey]slotRef{},
		calls: map[attemptKey]int64{}, packetTokens: c.ObservationTokens}
	for l := range c.Receipts.All() {
		sy.calls[attemptKey{l.Record.SessionID, l.Record.Attempt}] += int64(len(l.Record.ToolCalls))
	}
	var setups sessionSlab // the few preparation sessions
	for row := range sessions.All() {
		if row.Role != tables.RolePreparation || row.Arm == nil {
			continue
		}
		k := setupKey{*row.Arm, row.Repository}
		if sy.setup[k] == nil {
			sy.setup[k] = setups.add(&row, tables.NoCitationCount)
		}
	}
	setups.price(in.tokens)
	d := &c.Manifest.Design
	repoOf := make(map[string]string, len(d.Tasks)) // the first task of each ID, as taskSpec finds it
	for _, t := range d.Tasks {
		if _, seen := repoOf[t.ID]; !seen {
			repoOf[t.ID] = t.Repository
		}
	}
	for _, slot := range d.Schedule {
		repo := repoOf[slot.Task]
		for _, arm := range d.Arms {
			k := setupKey{arm.ID, repo}
			if _, seen := sy.cold[k]; !seen {
				sy.cold[k] = slotRef{slot.Task, slot.Repetition}
			}
		}
	}
	return sy
}

// investigationFailed: the investigation erred or returned an empty draft.
func investigationFailed(d *session) bool {
	return d.Status != tables.StatusResponse || d.Classification == tables.ClassScoredFailure
}

// apply fills the system-comparison columns of one run and returns its
// findings. A failed investigation whose packet was over the token limit
// is an evidence_budget_exceeded system failure, any other an
// investigation failure; both score R_sys = U = 0.
func (sy *systems) apply(run *tables.Run, p *plannedRun) rules.Findings {
	if run.Classification == tables.ClassSharedDraftFailure {
		run.Classification = tables.ClassInvestigationFailure
		if n, ok := sy.packetTokens[run.DraftSessionID]; ok && n > tables.PacketTokenLimit {
			run.Classification = tables.ClassEvidenceBudgetExceeded
		}
	}
	sy.chargeSetup(run, p)
	sy.coverage(run, p)
	return sy.limits(run, p)
}

// chargeSetup adds the cold setup to the first workflow of its system in
// its repository.
func (sy *systems) chargeSetup(run *tables.Run, p *plannedRun) {
	zero := tables.Money(0)
	run.SetupCost = &zero
	k := setupKey{p.arm.ID, p.spec.Repository}
	if sy.cold[k] != (slotRef{p.spec.ID, p.rep}) {
		return
	}
	run.Cold = true
	prep := sy.setup[k]
	if prep == nil {
		run.SetupCost, run.WorkflowCost, run.TimeComplete = nil, nil, false
		return
	}
	run.SetupSessionID = prep.SessionID
	run.SetupCost = sessionCost(prep)
	run.WorkflowCost = addMoney(run.WorkflowCost, run.SetupCost)
	ns, known := sessionNS(prep)
	total, ok := stats.AddInt64(run.WorkflowNS, ns)
	run.SetupNS, run.WorkflowNS = ns, total
	run.TimeComplete = run.TimeComplete && known && ok
}

// coverage fills the packet-supported columns: null when the
// investigation's observations are unknown, 0 after an investigation
// failure.
func (sy *systems) coverage(run *tables.Run, p *plannedRun) {
	t := newTally(p.truth)
	run.PacketSupportedDen = t.answerable
	var obs *tables.Packet
	if p.draft != nil {
		obs = sy.c.Observations[p.draft.SessionID]
	}
	task := sy.c.Task(p.spec.ID)
	switch {
	case run.Classification == tables.ClassInvestigationFailure || run.Classification == tables.ClassEvidenceBudgetExceeded:
		run.PacketSupported = stats.Float(stats.Fraction(0, t.answerable))
		return
	case obs == nil || task == nil:
		return
	}
	for _, o := range t.obligations {
		if o.Answerable && supported(o, &task.Packet, obs) {
			run.PacketSupportedNum++
		}
	}
	run.PacketSupported = stats.Float(stats.Fraction(run.PacketSupportedNum, run.PacketSupportedDen))
}

// supported reports whether every reference excerpt of o lies inside the
// union of the observations' lines of the same file. An obligation without
// truth evidence is never packet-supported.
func supported(o tables.TruthObligation, ref, obs *tables.Packet) bool {
	if len(o.EvidenceIDs) == 0 {
		return false
	}
	for _, id := range o.EvidenceIDs {
		it := itemByID(ref, id)
		if it == nil || !covered(it, obs) {
			return false
		}
	}
	return true
}

func itemByID(p *tables.Packet, id string) *tables.PacketItem {
	for i := range p.Items {
		if p.Items[i].ID == id {
			return &p.Items[i]
		}
	}
	return nil
}

// covered walks the item's lines forward through observations of the same
// file until it passes the item's end or finds a gap.
func covered(it *tables.PacketItem, obs *tables.Packet) bool {
	next := it.StartLine
	for next <= it.EndLine {
		advanced := false
		for _, o := range obs.Items {
			if o.FileSHA256 == it.FileSHA256 && o.StartLine <= next && next <= o.EndLine {
				next, advanced = o.EndLine+1, true
			}
		}
		if !advanced {
			return false
		}
	}
	return true
}
