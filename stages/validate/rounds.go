package validate

import (
	"fmt"
	"slices"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The development flow of a paired review in one campaign (rule G8,
// contract #741 §5): round 1 runs one triplet on each development task;
// the results may lead to one revision of B's instruction text only,
// frozen before round 2, which runs a new triplet on each same task; no
// third round; the evaluation tasks are run only after the freeze that
// follows round 2 (design.development, tables/development.go).
//
// Readings:
//   - "One revision to B's instruction text only": at most one revision
//     (a second one is development_revision_repeated), of the
//     reconciliation arm, replacing one role instruction it receives by
//     another role-instruction file that no other role receives. A
//     revision of A, of the draft, of the common instruction or of a
//     schema changes what the contract keeps unchanged
//     (development_revision_scope). Gates, sample counts and budgets are
//     one manifest's and cannot change between rounds of one campaign.
//   - Two rounds, never three (development_rounds_invalid).
//   - The revision is frozen after every round-1 session's terminal
//     receipt and before any round-2 session starts; the evaluation freeze
//     after every round-2 session and before any evaluation session
//     (development_revision_order, evaluation_before_freeze). A campaign
//     with evaluation sessions must record its evaluation freeze.
//   - Each is a defect of the record: the campaign is not the contract's
//     development flow, so it cannot be judged (no verdict).

// armPrompts is the prompt list the design gives arm for r's session:
// its prompts, with the development revision applied from round 2 on and
// for evaluation tasks.
func (v *runner) armPrompts(arm tables.Arm, r *tables.Receipt) []string {
	split := ""
	if t := v.tasks[r.TaskID]; t != nil {
		split = t.Spec.Split
	}
	return v.c.Manifest.Design.PromptsOf(arm, split, r.Repetition)
}

// DevelopmentFindings checks a manifest's development flow on its own:
// the member's kind, the rounds and the one revision's scope.
func DevelopmentFindings(m *tables.Manifest) rules.Findings {
	dev := m.Design.Development
	if dev == nil {
		return nil
	}
	var out rules.Findings
	add := func(code rules.Code, ptr, format string, args ...any) {
		out = append(out, rules.Finding{Code: code, Severity: rules.Reject, File: manifestFile, Pointer: "/design/development" + ptr, Message: fmt.Sprintf(format, args...) + "."})
	}
	if m.Kind != rules.KindPairedReview {
		add(rules.CodeDevelopmentRevisionScope, "", "a %s campaign has no development flow; only a paired review runs development rounds", m.Kind)
		return out
	}
	if dev.Rounds != tables.DevelopmentRounds {
		add(rules.CodeDevelopmentRoundsInvalid, "/rounds", "the development flow has %d rounds; the contract runs exactly %d (round 1, one revision, round 2) and no third round", dev.Rounds, tables.DevelopmentRounds)
	}
	for i := 1; i < len(dev.Revisions); i++ {
		add(rules.CodeDevelopmentRevisionRepeated, fmt.Sprintf("/revisions/%d", i), "revision %d of the development flow: only one revision of B's instruction is permitted between round 1 and round 2", i+1)
	}
	prompts := map[string]tables.PromptFile{}
	for _, p := range m.Prompts {
		prompts[p.ID] = p
	}
	for i, rv := range dev.Revisions {
		for _, why := range revisionScope(m, rv, prompts) {
			add(rules.CodeDevelopmentRevisionScope, fmt.Sprintf("/revisions/%d", i), "the revision of prompt %q to %q %s: only the reconciliation arm's instruction text may be revised", rv.Prompt, rv.Revised, why)
		}
	}
	return out
}

// revisionScope lists why rv is not a revision of the reconciliation
// arm's role instruction.
func revisionScope(m *tables.Manifest, rv tables.Revision, prompts map[string]tables.PromptFile) []string {
	var out []string
	var arm *tables.Arm
	for i := range m.Design.Arms {
		if m.Design.Arms[i].ID == rv.Arm {
			arm = &m.Design.Arms[i]
		}
	}
	switch {
	case arm == nil:
		out = append(out, fmt.Sprintf("names arm %q, which design.arms does not list", rv.Arm))
	case !arm.Reconciliation:
		out = append(out, fmt.Sprintf("changes arm %s, which is not the reconciliation arm (A, D, response semantics and the evaluator stay unchanged)", rv.Arm))
	case !slices.Contains(arm.Prompts, rv.Prompt):
		out = append(out, fmt.Sprintf("replaces a prompt arm %s does not receive", rv.Arm))
	}
	if p, ok := prompts[rv.Prompt]; !ok || p.Kind != tables.PartRole {
		out = append(out, "replaces a prompt that is not a role instruction")
	}
	if p, ok := prompts[rv.Revised]; !ok || p.Kind != tables.PartRole {
		out = append(out, "revises to a prompt that is not a role instruction of the manifest")
	}
	if rv.Revised == rv.Prompt {
		out = append(out, "revises a prompt to itself")
	}
	others := slices.Clone(m.Design.DraftPrompts)
	for _, a := range m.Design.Arms {
		others = append(others, a.Prompts...)
	}
	if slices.Contains(others, rv.Revised) {
		out = append(out, "revises to a prompt that a round-1 session already receives")
	}
	return out
}

// roundTimes collects, in the pass over the receipts, the times the
// development freezes are checked against: per phase (round 1, round 2,
// evaluation) the earliest start and the latest end, with the receipt
// lines that set them.
type roundTimes struct {
	first, last [3]*roundStamp
}

type roundStamp struct {
	at   time.Time
	line int64
	id   string
}

const (
	phaseRound1 = iota
	phaseRound2
	phaseEvaluation
)

// noteRound records r's start and end under its phase.
func (v *runner) noteRound(sr *sessionResult, r *tables.Receipt) {
	d := &v.c.Manifest.Design
	t := v.tasks[r.TaskID]
	if d.Development == nil || t == nil || r.Role == tables.RoleAdjudication || r.Status == tables.StatusNotDispatched {
		return
	}
	phase := phaseEvaluation
	if t.Spec.Split == tables.SplitDevelopment {
		phase = phaseRound1
		if r.Repetition >= 2 {
			phase = phaseRound2
		}
	}
	rt := &v.rounds
	if s := rt.first[phase]; s == nil || r.StartedAt.Before(s.at) {
		rt.first[phase] = &roundStamp{r.StartedAt, sr.line, r.SessionID}
	}
	end := r.StartedAt
	if r.EndedAt != nil {
		end = *r.EndedAt
	}
	if s := rt.last[phase]; s == nil || end.After(s.at) {
		rt.last[phase] = &roundStamp{end, sr.line, r.SessionID}
	}
}

// roundFreezes checks the revision and evaluation freezes against the
// sessions of each round, once the pass has noted every receipt.
func (v *runner) roundFreezes() {
	dev := v.c.Manifest.Design.Development
	if dev == nil || v.c.Manifest.Kind != rules.KindPairedReview {
		return
	}
	rt := &v.rounds
	add := func(code rules.Code, s *roundStamp, format string, args ...any) {
		v.findings = append(v.findings, rules.Finding{Code: code, Severity: rules.Reject, File: receiptsFile, Line: s.line, Session: s.id, Message: fmt.Sprintf(format, args...) + "."})
	}
	for _, rv := range dev.Revisions[:min(len(dev.Revisions), 1)] {
		if s := rt.last[phaseRound1]; s != nil && !rv.FrozenAt.After(s.at) {
			add(rules.CodeDevelopmentRevisionOrder, s, "Round-1 session %s ended at %s, not before the revision of %q was frozen at %s: the revision must follow every round-1 result", s.id, stampText(s.at), rv.Prompt, stampText(rv.FrozenAt))
		}
		if s := rt.first[phaseRound2]; s != nil && !s.at.After(rv.FrozenAt) {
			add(rules.CodeDevelopmentRevisionOrder, s, "Round-2 session %s started at %s, not after the revision of %q was frozen at %s: the revised prompt is frozen before round 2", s.id, stampText(s.at), rv.Prompt, stampText(rv.FrozenAt))
		}
	}
	s := rt.first[phaseEvaluation]
	if s == nil {
		return
	}
	if dev.EvaluationFrozenAt == nil {
		add(rules.CodeEvaluationBeforeFreeze, s, "Evaluation session %s ran, but the development flow records no evaluation freeze (design.development.evaluation_frozen_at): the evaluation tasks open only after round 2 passes and the prompt is frozen", s.id)
		return
	}
	frozen := *dev.EvaluationFrozenAt
	if !s.at.After(frozen) {
		add(rules.CodeEvaluationBeforeFreeze, s, "Evaluation session %s started at %s, not after the evaluation freeze at %s", s.id, stampText(s.at), stampText(frozen))
	}
	if last := rt.last[phaseRound2]; last != nil && !frozen.After(last.at) {
		add(rules.CodeEvaluationBeforeFreeze, last, "Round-2 session %s ended at %s, not before the evaluation freeze at %s: evaluation follows the round-2 admission check", last.id, stampText(last.at), stampText(frozen))
	}
}

func stampText(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
