package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Auxiliary calls and infrastructure replacements of a reviewer
// benchmark's receipts.
//
// Auxiliary calls (the reviewer-benchmark protocol: "All billed reasoning, context expansion,
// retries and adjudication calls count"; "Remote checks, failed-request
// holds and adjudication are tracked separately in the ... campaign
// ledger under the approved $150 cap") are receipts of the roles
// tables.AuxiliaryRoles: no scheduled review attempt, never scored, and
// each metered, priced or held by the account stage under the cap. They
// are not shown to a reviewer, so the label check does not apply to them
// (an adjudicator reads the labels by design).
//
// Infrastructure replacement (contract #741's rule, which the reviewer-benchmark protocol's
// "keep original task, failed attempts and costs" repeats): an execution
// of an attempt that is infrastructure-invalid — an infrastructure error
// class (recorder loss, wrong inputs, undeclared permissions, cross-arm
// leakage, platform outage), or another model, CLI, permission policy or
// prompt than the design's — may be replaced by a later attempt of the
// same (case, profile, run), under the campaign's
// ceilings.campaign.infrastructure_replacements. Within the allowance the
// replacement is the scored execution and the original is retained and
// charged (its ledger entry stays), its identity finding a note. More
// invalid executions than the allowance stop the campaign. A model's own
// failure (a timeout, a refusal, a malformed review) is never replaced: a
// later attempt after it is refused.

// executionState is what the receipts of a reviewer benchmark leave for
// the replacement rule (embedded in bench).
type executionState struct {
	executions        map[attemptKey]execution // the execution filling each attempt so far
	replaced          []replacedExecution
	invalidExecutions int64 // infrastructure-invalid executions, replaced or not
	auxSessions       []auxSession
}

// auxiliary reports whether the receipt is an auxiliary call, and records
// it: it fills no attempt. Its session ID must not be a review attempt's.
func (b *bench) auxiliary(line tables.Line[tables.Receipt]) bool {
	r := &line.Record
	if !slices.Contains(tables.AuxiliaryRoles, r.Role) {
		return false
	}
	b.auxSessions = append(b.auxSessions, auxSession{id: r.SessionID, line: line.Line})
	b.remoteBill(line)
	return true
}

// auxSession is an auxiliary receipt's session, checked against the
// attempts' session IDs once every receipt is read.
type auxSession struct {
	id   string
	line int64
}

// execution is the execution of an attempt read so far.
type execution struct {
	session, request string
	attempt, line    int64
	invalid          string // why it is infrastructure-invalid; "" when it is not
}

// replacedExecution is an execution replaced by a later attempt.
type replacedExecution struct {
	key  attemptKey
	old  execution
	by   string // the replacing session
	line int64  // the replacing receipt's line
}

// invalidity says why an execution is infrastructure-invalid, "" when it
// is not.
func (b *bench) invalidity(r *tables.Receipt) string {
	if r.ErrorClass != nil && slices.Contains(infraErrors, *r.ErrorClass) {
		return "error class " + *r.ErrorClass
	}
	if bad := b.identity(r); len(bad) > 0 {
		return "another " + strings.Join(bad, ", ")
	}
	return ""
}

// execute decides whether the receipt is the execution that fills attempt
// i: the first receipt of the attempt, or the replacement of an
// infrastructure-invalid one. A resumed session (the same request ID)
// fills nothing and is charged once by the account stage; another
// receipt is refused.
func (b *bench) execute(key attemptKey, i int, line tables.Line[tables.Receipt]) bool {
	r := &line.Record
	reject := func(code rules.Code, ptr, format string, args ...any) {
		b.add(code, rules.Reject, receiptsFile, line.Line, ptr, r.SessionID, format, args...)
	}
	next := execution{session: r.SessionID, request: r.RequestID, attempt: r.Attempt, line: line.Line, invalid: b.invalidity(r)}
	if next.invalid != "" {
		b.invalidExecutions++
	}
	if b.executions == nil {
		b.executions = map[attemptKey]execution{}
	}
	prev, seen := b.executions[key]
	switch {
	case !seen:
		if r.Attempt != 1 {
			reject(rules.CodeRbenchAttemptMissing, "/attempt", "attempt %d is the first receipt of case %q, profile %q, run %d: the receipts of its attempts 1 to %d are missing, and every attempt, an aborted one too, is kept",
				r.Attempt, r.TaskID, key.profile, r.Repetition, r.Attempt-1)
		}
		b.executions[key] = next
		return true
	case prev.request == r.RequestID:
		if next.invalid != "" {
			b.invalidExecutions-- // the same execution, resumed
		}
		return false // a resumed session reuses its first receipt; account charges it once
	case r.Attempt <= prev.attempt:
		reject(rules.CodeRbenchAttemptDuplicate, "/request_id", "case %q, profile %q, run %d already has a receipt with request %s", r.TaskID, key.profile, r.Repetition, prev.request)
		return false
	case r.Attempt != prev.attempt+1:
		reject(rules.CodeRbenchAttemptMissing, "/attempt", "attempt %d of case %q, profile %q, run %d follows attempt %d (session %s): the receipts of the attempts between them are missing, and every attempt, an aborted one too, is kept",
			r.Attempt, r.TaskID, key.profile, r.Repetition, prev.attempt, prev.session)
		return false
	case prev.invalid == "":
		reject(rules.CodeReplacementUnjustified, "/attempt", "attempt %d of case %s, profile %s, run %d replaces attempt %d (session %s), which is not infrastructure-invalid: a model's own failure is scored, never replaced",
			r.Attempt, r.TaskID, key.profile, r.Repetition, prev.attempt, prev.session)
		return false
	}
	b.replaced = append(b.replaced, replacedExecution{key: key, old: prev, by: r.SessionID, line: line.Line})
	a := &b.out.Attempts[i]
	a.Replaced = append(a.Replaced, prev.session)
	b.forget(prev.session)
	executions := a.Row.Executions
	a.Row = b.scheduled(a.Row)
	a.Row.Executions, a.Review = executions, nil
	b.executions[key] = next
	return true
}

// scheduled is the attempt row as scheduled, before any receipt filled it.
func (b *bench) scheduled(row tables.ReviewRow) tables.ReviewRow {
	return tables.ReviewRow{CaseID: row.CaseID, Family: row.Family, Split: row.Split, CaseKind: row.CaseKind, Label: row.Label,
		Regression: row.Regression, Profile: row.Profile, Model: b.c.Manifest.Identities.ReturnedModel, Run: row.Run,
		Status: tables.ReviewStatusMissing}
}

// forget drops the findings and criteria a replaced execution's review
// left: only the replacement is scored.
func (b *bench) forget(session string) {
	b.out.Findings = slices.DeleteFunc(b.out.Findings, func(f tables.FindingRow) bool { return f.SessionID == session })
	b.out.Criteria = slices.DeleteFunc(b.out.Criteria, func(c tables.CriterionRow) bool { return c.SessionID == session })
	for k := range b.findings {
		if s, _, _ := strings.Cut(k, "\x00"); s == session {
			delete(b.findings, k)
		}
	}
}

// finishExecutions applies the allowance to the replacements and checks
// the auxiliary sessions' IDs once every receipt is read.
func (b *bench) finishExecutions() {
	attempts := map[string]bool{}
	for _, a := range b.out.Attempts {
		attempts[a.Row.SessionID] = true
		for _, s := range a.Replaced {
			attempts[s] = true
		}
	}
	for _, s := range b.auxSessions {
		if attempts[s.id] {
			b.add(rules.CodeRbenchAttemptUnplanned, rules.Reject, receiptsFile, s.line, "/session_id", s.id,
				"an auxiliary call's receipt uses session ID %s, which is a review attempt's", s.id)
		}
	}
	allowed := b.c.Manifest.Ceilings.Campaign.InfrastructureReplacements
	if b.invalidExecutions > allowed {
		b.add(rules.CodeRbenchReplacementsExceed, rules.Reject, receiptsFile, 0, "", "",
			"%d review executions are infrastructure-invalid but the campaign allows %d replacement(s); the campaign stops", b.invalidExecutions, allowed)
		return
	}
	old := map[string]replacedExecution{}
	for _, rp := range b.replaced {
		old[rp.old.session] = rp
		b.add(rules.CodeRbenchAttemptReplaced, rules.ClassOf(rules.CodeRbenchAttemptReplaced).Severity(), receiptsFile, rp.old.line, "", rp.old.session,
			"attempt %d of case %s, profile %s, run %d (%s) was replaced within the allowance by session %s on line %d; it is retained and charged, and only the replacement is scored",
			rp.old.attempt, rp.key.caseID, rp.key.profile, rp.key.run, rp.old.invalid, rp.by, rp.line)
	}
	for i, f := range b.out.Problems {
		rp, replaced := old[f.Session]
		if !replaced || f.Severity != rules.Reject || f.Code != rules.CodeIdentityMismatch {
			continue
		}
		b.out.Problems[i] = rules.Finding{Code: rules.CodeReplacedAttemptNoted, Severity: rules.ClassOf(rules.CodeReplacedAttemptNoted).Severity(),
			File: f.File, Line: f.Line, Pointer: f.Pointer, Session: f.Session,
			Message: fmt.Sprintf("Attempt %d of case %s was replaced within the infrastructure-replacement allowance, so its %s is a note: %s", rp.old.attempt, rp.key.caseID, f.Code, f.Message)}
	}
}
