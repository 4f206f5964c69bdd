package score

import (
	"fmt"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// runKind says how a run is scored.
type runKind int

const (
	kindRated             runKind = iota // valid final answer: scored from settled ratings
	kindCompletionFailure                // review without a valid final: R=0 without ratings
	kindSharedDraft                      // the shared draft failed: R=0, cost and time are the draft's
	kindInvalid                          // invalid or missing execution: unscored
	kindDefectiveOracle                  // C22: unscored
)

// classify decides how a run is scored and its classification column.
func classify(p *plannedRun) (runKind, tables.Classification) {
	d, r := p.draft, p.review
	switch {
	case d == nil || d.Status == tables.StatusMissing || r == nil || r.Status == tables.StatusMissing:
		// A planned session without a receipt invalidates the execution
		// (V2, C15); the sessions table says which one is missing.
		return kindInvalid, tables.ClassInvalid
	case d.Classification == tables.ClassInvalid || r.Classification == tables.ClassInvalid:
		return kindInvalid, tables.ClassInvalid
	case p.truth != nil && p.truth.Oracle.Defective:
		return kindDefectiveOracle, r.Classification
	case draftFailed(d) || r.Classification == tables.ClassSharedDraftFailure:
		return kindSharedDraft, tables.ClassSharedDraftFailure
	case r.Status == tables.StatusNotDispatched:
		return kindCompletionFailure, tables.ClassNotDispatched
	case r.Status != tables.StatusResponse || !r.finalValid:
		return kindCompletionFailure, r.Classification
	}
	return kindRated, r.Classification
}

// needsRatings reports whether a run is scored from ratings.
func needsRatings(p *plannedRun) bool {
	k, _ := classify(p)
	return k == kindRated
}

// draftFailed: an error, no answer, or a final that is not valid (C23).
func draftFailed(d *session) bool {
	if d.investigation {
		return investigationFailed(d)
	}
	return d.Status != tables.StatusResponse || !d.finalValid ||
		d.Classification == tables.ClassSharedDraftFailure || d.Classification == tables.ClassScoredFailure
}

func isTrue(b *bool) bool { return b != nil && *b }

// scoreRun builds the run row and its obligation rows.
func scoreRun(in *inputs, p *plannedRun, u *usableRatings) (tables.Run, []tables.ObligationOutcome, rules.Findings) {
	kind, class := classify(p)
	run := baseRun(p, class)
	tally := newTally(p.truth)
	run.RDen, run.UDen = tally.answerable, tally.unanswerable
	fillCostTime(&run, p, kind == kindSharedDraft)
	var settled *tables.Adjudication
	by := settledInvalid
	var findings rules.Findings
	switch kind {
	case kindRated:
		settled, by = settle(u)
		if settled == nil {
			findings = append(findings, unratedFinding(p, by))
			by = settledUnrated
			break
		}
		scoreRated(&run, p, tally, settled, max(p.reviewCitations, 0)) // unknown counts none, as before
	case kindCompletionFailure, kindSharedDraft:
		by = settledNotScorable
		scoreCompletionFailure(&run, tally)
	case kindDefectiveOracle:
		by = settledDefective
	}
	run.StructuralPass = kind != kindSharedDraft && p.review != nil && p.review.Classification == tables.ClassValid
	return run, obligationRows(p, settled, by), findings
}

func baseRun(p *plannedRun, class tables.Classification) tables.Run {
	run := tables.Run{
		TaskID:         p.spec.ID,
		Repository:     p.spec.Repository,
		Family:         p.spec.Family,
		Repetition:     p.rep,
		Arm:            p.arm.ID,
		Position:       p.position,
		Classification: class,
	}
	if p.draft != nil {
		run.DraftSessionID = p.draft.SessionID
	}
	if p.review != nil {
		run.ReviewSessionID = p.review.SessionID
	}
	return run
}

func unratedFinding(p *plannedRun, reason string) rules.Finding {
	f := rules.Finding{
		Code:     rules.CodeRunUnrated,
		Severity: rules.Reject, // a rating the record lacks: the campaign cannot be judged
		File:     adjudicationsFile,
		Session:  p.review.SessionID,
		Message: fmt.Sprintf("run %s repetition %d arm %s lacks two usable blinded primary ratings, so it stays unscored and the decision is no_verdict",
			p.spec.ID, p.rep, p.arm.ID),
	}
	if reason == settledDisagreement {
		f.Code = rules.CodeDisagreementUnsettled
		f.Message = fmt.Sprintf("the primary ratings of run %s repetition %d arm %s disagree and no usable adjudicator record settles them, so it stays unscored",
			p.spec.ID, p.rep, p.arm.ID)
	}
	return f
}

// tally is the truth's obligation counts.
type tally struct {
	answerable, unanswerable, critical int64
	obligations                        []tables.TruthObligation
}

func newTally(truth *tables.Truth) tally {
	var t tally
	if truth == nil {
		return t
	}
	t.obligations = truth.Obligations
	for _, o := range truth.Obligations {
		if o.Answerable {
			t.answerable++
		} else {
			t.unanswerable++
		}
		if o.Critical {
			t.critical++
		}
	}
	return t
}

// scoreRated scores a valid final answer from its settled rating (Q2, Q3).
func scoreRated(run *tables.Run, p *plannedRun, t tally, a *tables.Adjudication, citations int64) {
	outcome := outcomeMap(a)
	var critical int64
	for _, o := range t.obligations {
		got := outcome[o.ID]
		switch {
		case o.Answerable && got == tables.OutcomeAddressed:
			run.RNum++
		case !o.Answerable && got == tables.OutcomeUnknownCredited:
			run.UNum++
		case o.Critical:
			critical++ // critical answerable not addressed, or critical unanswerable not credited
		}
	}
	run.Scored = true
	run.R = stats.Float(stats.Fraction(run.RNum, run.RDen))
	run.U = stats.Float(stats.Fraction(run.UNum, run.UDen))
	run.CriticalFailures = critical + a.CriticalWrongClaims
	run.WrongClaims = ptr(a.WrongClaims)
	run.CriticalWrongClaims = ptr(a.CriticalWrongClaims)
	run.UnsupportedClaims = ptr(a.UnsupportedClaims)
	run.FalseCompletenessClaims = ptr(a.FalseCompletenessClaims)
	allSupport := true
	for _, c := range a.Citations {
		allSupport = allSupport && c.Supports
	}
	r := p.review
	run.SourceGate = r.CitationFailures == 0 && allSupport && a.CriticalWrongClaims == 0 &&
		a.UnsupportedClaims == 0 && a.FalseCompletenessClaims == 0
	run.ProtocolGate = r.finalValid && r.answerNotInvalid && (!p.arm.Reconciliation || r.reconciliationValid)
	semantic := run.CriticalFailures == 0 && allSupport && a.WrongClaims == 0 && a.UnsupportedClaims == 0 &&
		a.FalseCompletenessClaims == 0 && a.WrongExclusions == 0 && !hasOutcome(a, tables.OutcomeWrong)
	run.SemanticPass = &semantic
}

func hasOutcome(a *tables.Adjudication, outcome string) bool {
	for _, r := range a.Obligations {
		if r.Outcome == outcome {
			return true
		}
	}
	return false
}

// scoreCompletionFailure scores a run without a valid final answer (V7,
// C16, C23): R=0, U=0, every critical obligation failed, gates false and
// wrong-claim counts unscorable (null).
func scoreCompletionFailure(run *tables.Run, t tally) {
	run.Scored = true
	run.R = stats.Float(stats.Fraction(0, run.RDen))
	run.U = stats.Float(stats.Fraction(0, run.UDen))
	run.CriticalCompletionFailed = true
	run.CriticalFailures = t.critical
	semantic := false
	run.SemanticPass = &semantic
}

func ptr[T any](v T) *T { return &v }

// obligationRows is one row per truth obligation of the run.
func obligationRows(p *plannedRun, settled *tables.Adjudication, by string) []tables.ObligationOutcome {
	if p.truth == nil {
		return nil
	}
	var outcome map[string]string
	if settled != nil {
		outcome = outcomeMap(settled)
	}
	rows := make([]tables.ObligationOutcome, 0, len(p.truth.Obligations))
	for _, o := range p.truth.Obligations {
		row := tables.ObligationOutcome{
			SessionID:    p.reviewID(),
			TaskID:       p.spec.ID,
			Arm:          p.arm.ID,
			Repetition:   p.rep,
			ObligationID: o.ID,
			Critical:     o.Critical,
			Answerable:   o.Answerable,
			SettledBy:    by,
		}
		if v, ok := outcome[o.ID]; ok {
			row.Outcome = ptr(v)
		}
		rows = append(rows, row)
	}
	return rows
}
