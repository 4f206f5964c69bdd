package score

import (
	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// Cost and time of a run (rules A4, A5; control C20). A run's complete
// workflow is the shared draft plus its own review: reference cost and tool charges of both
// sessions, and both sessions' durations and validation times. Waiting for
// the sibling arm is not part of either session, so it is never counted.
// After a shared-draft failure the workflow is the draft alone: no review
// charge is invented (C23).

// fillCostTime sets WorkflowCost, ReviewCost, WorkflowNS, ReviewNS and
// TimeComplete.
func fillCostTime(run *tables.Run, p *plannedRun, sharedDraftFailure bool) {
	draftCost := sessionCost(p.draft)
	draftNS, draftKnown := sessionNS(p.draft)
	if sharedDraftFailure {
		zero := tables.Money(0)
		run.WorkflowCost = draftCost
		run.ReviewCost = &zero
		run.WorkflowNS, run.ReviewNS, run.TimeComplete = draftNS, 0, draftKnown
		return
	}
	reviewCost := sessionCost(p.review)
	reviewNS, reviewKnown := sessionNS(p.review)
	run.ReviewCost = reviewCost
	run.WorkflowCost = addMoney(draftCost, reviewCost)
	total, ok := stats.AddInt64(draftNS, reviewNS)
	run.WorkflowNS, run.ReviewNS = total, reviewNS
	run.TimeComplete = draftKnown && reviewKnown && ok
}

// sessionCost is the session's reference cost plus its tool charges, or
// nil when the session, its token row or either part is unknown.
func sessionCost(s *session) *tables.Money {
	if s == nil {
		return nil
	}
	return s.cost
}

// addMoney adds two nullable amounts; the sum is null when either is null
// or it overflows.
func addMoney(a, b *tables.Money) *tables.Money {
	if a == nil || b == nil {
		return nil
	}
	sum, ok := stats.AddInt64(int64(*a), int64(*b))
	if !ok {
		return nil
	}
	m := tables.Money(sum)
	return &m
}

// sessionNS is the session's duration plus its validation time, and
// whether the duration is known. A session without a duration counts its
// validation time only.
func sessionNS(s *session) (int64, bool) {
	if s == nil {
		return 0, false
	}
	if s.DurationNS == nil {
		return s.ValidationNS, false
	}
	total, ok := stats.AddInt64(*s.DurationNS, s.ValidationNS)
	return total, ok
}
