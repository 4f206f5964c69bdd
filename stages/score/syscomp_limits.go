package score

import (
	"fmt"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Workflow limits of a system comparison (rule G5; the bounds are
// tables.WorkflowLimitMS and its siblings, all inclusive). The score stage
// writes them as facts on the run row — investigation_ns, operations,
// review_tool_calls, packet_tokens, limits_exceeded — and one warning per
// limit beyond its bound; the aggregate stage's workflow-limits gate reads
// the column, never the findings.
//
//   - workflow_time: workflow_ns (investigation, review, their validation
//     and any cold setup attributed to the run) beyond 12 minutes;
//   - investigation_time, review_time: a session's duration beyond 8 or 4
//     minutes (its validation time is part of the workflow, not of the
//     session);
//   - operations: ordinary and MCP tool calls of the investigation and
//     the review beyond 60. The preparation's own calls are setup; they
//     count in its cost and time, which the cold run carries.
//
// A tool call recorded by a review is a protocol violation (the review has
// no tools or further acquisition): protocol_gate is false. Unknown
// durations exceed nothing here; time_complete already keeps the time
// gates from passing.

// limits fills the limit columns of one run and returns its findings.
func (sy *systems) limits(run *tables.Run, p *plannedRun) rules.Findings {
	var out rules.Findings
	var exceeded []string
	over := func(limit string, code rules.Code, session, msg string) {
		exceeded = append(exceeded, limit)
		out = append(out, rules.Finding{Code: code, Severity: rules.Warn, File: receiptsFile, Session: session, Message: msg})
	}
	if p.draft != nil {
		if n, ok := sy.packetTokens[p.draft.SessionID]; ok {
			run.PacketTokens = &n
		}
		if d := p.draft.DurationNS; d != nil {
			run.InvestigationNS = *d
			if !tables.WithinMS(*d, tables.InvestigationLimitMS) {
				over(tables.LimitInvestigationTime, rules.CodeInvestigationTimeExceeded, p.draft.SessionID,
					fmt.Sprintf("The investigation took %s, beyond its %s limit.", nsText(*d), msText(tables.InvestigationLimitMS)))
			}
		}
	}
	if p.review != nil && p.review.DurationNS != nil && !tables.WithinMS(*p.review.DurationNS, tables.ReviewLimitMS) {
		over(tables.LimitReviewTime, rules.CodeReviewTimeExceeded, p.review.SessionID,
			fmt.Sprintf("The review took %s, beyond its %s limit.", nsText(*p.review.DurationNS), msText(tables.ReviewLimitMS)))
	}
	if !tables.WithinMS(run.WorkflowNS, tables.WorkflowLimitMS) {
		over(tables.LimitWorkflowTime, rules.CodeWorkflowTimeExceeded, run.ReviewSessionID,
			fmt.Sprintf("The workflow of %s repetition %d took %s (cold setup %s included), beyond its %s limit.",
				run.TaskID, run.Repetition, nsText(run.WorkflowNS), nsText(run.SetupNS), msText(tables.WorkflowLimitMS)))
	}
	inv, rev := sy.toolCalls(p.draft), sy.toolCalls(p.review)
	run.Operations, run.ReviewToolCalls = inv+rev, rev
	if run.Operations > tables.WorkflowOperationLimit {
		over(tables.LimitOperations, rules.CodeWorkflowOperationsExceeded, run.DraftSessionID,
			fmt.Sprintf("The workflow used %d ordinary and MCP operations (%d in the investigation, %d in the review), beyond its limit of %d.",
				run.Operations, inv, rev, tables.WorkflowOperationLimit))
	}
	run.LimitsExceeded = exceeded
	return out
}

// toolCalls is the number of tool calls on the receipt of a session
// attempt; 0 for a missing or not dispatched session.
func (sy *systems) toolCalls(s *session) int64 {
	if s == nil {
		return 0
	}
	return sy.calls[attemptKey{s.SessionID, s.Attempt}]
}

type attemptKey struct {
	session string
	attempt int64
}

const receiptsFile = "receipts.jsonl"

// nsText is a duration in seconds with millisecond precision, exactly.
func nsText(ns int64) string {
	return fmt.Sprintf("%d.%03d s", ns/1_000_000_000, ns%1_000_000_000/1_000_000)
}

func msText(ms int64) string { return fmt.Sprintf("%d min", ms/60_000) }
