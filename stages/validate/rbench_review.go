package validate

import (
	"time"

	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// output reads and checks the review a response returned.
func (b *bench) output(a *tables.ReviewAttempt, r *tables.Receipt, line int64) {
	reject := func(code rules.Code, ptr, format string, args ...any) {
		b.add(code, rules.Reject, receiptsFile, line, ptr, r.SessionID, format, args...)
	}
	if r.Output == nil {
		a.Row.Status = tables.ReviewStatusSchemaViolation
		b.add(rules.CodeRbenchReviewMalformed, rules.Warn, receiptsFile, line, "/output", r.SessionID, "the response returned no review")
		return
	}
	data, matches, err := b.files.Read(r.Output)
	switch {
	case err != nil:
		reject(rules.CodeOutputMissing, "/output", "%s cannot be read: %v", r.Output.Path, err)
		a.Row.Status = tables.ReviewStatusExecutionError
		return
	case !matches:
		reject(rules.CodeOutputMismatch, "/output", "%s does not have the receipt's sha256 and byte count", r.Output.Path)
		a.Row.Status = tables.ReviewStatusExecutionError
		return
	}
	key := a.Row.CaseID + "\x00" + a.Row.Profile + "\x00" + r.Output.SHA256
	if first, dup := b.outputs[key]; dup {
		reject(rules.CodeRbenchRunsIdentical, "/output", "run %d returned byte for byte the output of run %d of the same case and profile: the repeat did not bypass response caching", a.Row.Run, first.run)
	} else {
		b.outputs[key] = attemptKey{a.Row.CaseID, a.Row.Profile, a.Row.Run}
	}
	rev, problems := b.files.DecodeReview(r.Output.Path, data)
	if rev == nil {
		a.Row.Status = tables.ReviewStatusSchemaViolation
		first := "it does not decode"
		if len(problems) > 0 {
			problems.Sort()
			first = problems[0].Error()
		}
		b.add(rules.CodeRbenchReviewMalformed, rules.Warn, r.Output.Path, 0, "", r.SessionID,
			"the review is not a valid review document (%d problems; first: %s)", len(problems), first)
		return
	}
	var own []byte
	if b.inputOK {
		own = b.norm
	}
	b.noteDecisions(a, r, rev, own)
	if rev.Profile != a.Row.Profile {
		b.add(rules.CodeRbenchProfileMismatch, rules.Reject, r.Output.Path, 0, "/profile", r.SessionID,
			"the review names profile %q but its receipt's arm is %q", rev.Profile, a.Row.Profile)
	}
	if rev.ResponseCache == tables.CacheHit {
		b.add(rules.CodeRbenchResponseCacheHit, rules.Reject, r.Output.Path, 0, "/response_cache", r.SessionID,
			"the review came from a model response cache; repeated sessions must bypass it")
	}
	a.Review = rev
	if rev.Outcome == tables.ReviewAbstained {
		a.Row.Status = tables.ReviewStatusAbstained
	}
	b.review(a, rev, r.Output.Path)
}

// review records the grounding of every finding and the raw rating of
// every criterion of a decoded review. A review that breaks the finding
// contract — a finding ID or a criterion used twice, or a rating
// attaching a finding the review does not have — is rejected as a whole
// (rule G6: "Use one stable ID per issue within an immutable review";
// "inconsistent findings are rejected"): its status is
// contract_violation, and it has no finding or criterion rows, so that
// its reviews row and the findings table count the same findings. Its
// finding IDs stay known, so that an adjudication of one is no record
// defect.
func (b *bench) review(a *tables.ReviewAttempt, rev *tables.Review, file string) {
	warn := func(code rules.Code, ptr, format string, args ...any) {
		b.add(code, rules.Warn, file, 0, ptr, a.Row.SessionID, format, args...)
	}
	broken := false
	ids := map[string]bool{}
	for i, f := range rev.Findings {
		if ids[f.ID] {
			warn(rules.CodeRbenchFindingIDRepeated, fmt.Sprintf("/findings/%d/id", i),
				"finding ID %s is used twice: one stable ID per issue; the review is rejected as a contract violation", f.ID)
			broken = true
		}
		ids[f.ID] = true
		b.findings[a.Row.SessionID+"\x00"+f.ID] = true
	}
	rated := map[string]int{}
	for i, cr := range rev.Criteria {
		ptr := fmt.Sprintf("/criteria/%d", i)
		if _, dup := rated[cr.Criterion]; dup {
			warn(rules.CodeRbenchReviewInconsistent, ptr+"/criterion", "criterion %s is rated twice; the review is rejected as a contract violation", cr.Criterion)
			broken = true
			continue
		}
		rated[cr.Criterion] = i
		for j, id := range cr.FindingIDs {
			if !ids[id] {
				warn(rules.CodeRbenchReviewInconsistent, fmt.Sprintf("%s/finding_ids/%d", ptr, j),
					"criterion %s attaches finding %s, which the review does not have; the review is rejected as a contract violation", cr.Criterion, id)
				broken = true
			}
		}
	}
	if broken {
		a.Row.Status = tables.ReviewStatusContractViolation
		return
	}
	cs := b.b.Case(a.Row.CaseID)
	a.Row.Findings = int64(len(rev.Findings))
	for i := range rev.Findings {
		b.out.Findings = append(b.out.Findings, b.ground(a, cs, &rev.Findings[i], fmt.Sprintf("/findings/%d", i), file))
	}
	for _, c := range tables.Criteria {
		row := tables.CriterionRow{SessionID: a.Row.SessionID, CaseID: a.Row.CaseID, Profile: a.Row.Profile, Run: a.Row.Run,
			Criterion: c, Raw: tables.RatingAbsent}
		if i, ok := rated[c]; ok {
			cr := rev.Criteria[i]
			row.Raw = cr.Rating
			row.Owned = slices.Clone(cr.FindingIDs)
		}
		b.out.Criteria = append(b.out.Criteria, row)
	}
}

// ground checks one finding's evidence: every excerpt must be the task
// file's exact bytes at those lines with the inventory's sha256, every
// probe claim a bound trial of this case that produced a reward without
// an exception. A finding is grounded when it is supported, has evidence
// and all of its evidence holds.
func (b *bench) ground(a *tables.ReviewAttempt, cs *tables.Case, f *tables.ReviewFinding, ptr, file string) tables.FindingRow {
	row := tables.FindingRow{SessionID: a.Row.SessionID, CaseID: a.Row.CaseID, Profile: a.Row.Profile, Run: a.Row.Run,
		FindingID: f.ID, Criterion: f.Criterion, Category: f.Category, Path: f.Location.Path,
		StartLine: f.Location.StartLine, EndLine: f.Location.EndLine, Severity: f.Severity,
		Conclusion: f.Conclusion, Effective: f.Conclusion,
		Excerpts: int64(len(f.Excerpts)), Trials: int64(len(f.Trials))}
	if cs != nil && cs.Defect != nil {
		row.MatchesDefect = f.Category == cs.Defect.Category && f.Location.Overlaps(cs.Defect.Location)
	}
	reason := ""
	set := func(r string) {
		if reason == "" {
			reason = r
		}
	}
	for j, e := range f.Excerpts {
		if msg := b.excerptProblem(a.Row.CaseID, e); msg != "" {
			b.add(rules.CodeRbenchQuoteFabricated, rules.Warn, file, 0, fmt.Sprintf("%s/excerpts/%d", ptr, j), a.Row.SessionID,
				"finding %s quotes %s lines %d-%d: %s; the finding is not grounded", f.ID, e.Path, e.StartLine, e.EndLine, msg)
			set(tables.UngroundedFabricatedQuote)
		}
	}
	for j, t := range f.Trials {
		tptr := fmt.Sprintf("%s/trials/%d", ptr, j)
		res, exists := b.files.Trial(t.Path, t.SHA256)
		switch {
		case !exists || res == nil:
			b.add(rules.CodeRbenchProbeUnbound, rules.Warn, file, 0, tptr, a.Row.SessionID,
				"finding %s says a probe ran, but %s is no readable trial result with sha256 %s; only a bound receipt establishes execution", f.ID, t.Path, t.SHA256)
			set(tables.UngroundedUnboundProbe)
			row.Effective = tables.ConclusionUnresolved
		case res.TaskChecksum != b.b.Checksums[a.Row.CaseID]:
			other := b.bySum[res.TaskChecksum]
			if other == "" {
				other = "no case"
			}
			b.add(rules.CodeRbenchReceiptOtherCase, rules.Reject, file, 0, tptr, a.Row.SessionID,
				"finding %s cites trial %s, whose task_checksum is that of %s, not of the reviewed case %s", f.ID, t.Path, other, a.Row.CaseID)
			set(tables.UngroundedOtherCase)
		case res.ExceptionInfo != nil || res.VerifierResult == nil || len(res.VerifierResult.Rewards) == 0:
			if f.Conclusion == tables.ConclusionSupported {
				b.add(rules.CodeRbenchInstrumentation, rules.Warn, file, 0, tptr, a.Row.SessionID,
					"finding %s rests on trial %s, which %s: unresolved instrumentation, not a detected defect", f.ID, t.Path, trialFailure(res))
			}
			set(tables.UngroundedInstrumentation)
			row.Effective = tables.ConclusionUnresolved
		}
	}
	switch {
	case reason != "":
	case row.Effective != tables.ConclusionSupported:
		reason = tables.UngroundedNotSupported
	case len(f.Excerpts)+len(f.Trials) == 0:
		reason = tables.UngroundedNoEvidence
	}
	row.Ungrounded, row.Grounded = reason, reason == ""
	return row
}

func trialFailure(res *tables.TrialResult) string {
	if e := res.ExceptionInfo; e != nil {
		return "ended in " + e.ExceptionType
	}
	return "produced no reward"
}

// excerptProblem says why an excerpt is not the exact bytes it claims,
// or "".
func (b *bench) excerptProblem(caseID string, e tables.Excerpt) string {
	files := b.b.Files[caseID]
	k := slices.IndexFunc(files, func(f tables.InventoryFile) bool { return f.Path == e.Path })
	if k < 0 {
		return "no such task file in the case's inventory"
	}
	if files[k].SHA256 != e.FileSHA256 {
		return "its file sha256 is not the inventory's"
	}
	src := b.c.Sources[e.FileSHA256]
	starts := tables.LineStarts(src)
	if n := int64(len(starts) - 1); e.StartLine > e.EndLine || e.EndLine > n {
		return fmt.Sprintf("the file has %d lines", n)
	}
	if string(src[starts[e.StartLine-1]:starts[e.EndLine]]) != e.Text {
		return "the text is not the file's bytes at those lines"
	}
	return ""
}

// missing reports every scheduled attempt without a receipt.
func (b *bench) missing() {
	for _, a := range b.out.Attempts {
		if a.Row.Status == tables.ReviewStatusMissing {
			b.add(rules.CodeRbenchAttemptMissing, rules.Reject, receiptsFile, 0, "", "",
				"case %s, profile %s, run %d has no receipt; it stays in every denominator: import the review's record (an import mapping entry with task_id %s, arm %s, repetition %d and role review) or append its receipt to receipts.jsonl", a.Row.CaseID, a.Row.Profile, a.Row.Run, a.Row.CaseID, a.Row.Profile, a.Row.Run)
		}
	}
}

const findingAdjudicationsFile = "finding_adjudications.jsonl"

// adjudications keeps every adjudication line and rejects those naming
// no finding of a completed review, decided before that review ended, or
// by the reviewer under review.
func (b *bench) adjudications() {
	for _, l := range b.b.Adjudications {
		a := &l.Record
		known := b.findings[a.SessionID+"\x00"+a.FindingID]
		if !known {
			b.add(rules.CodeRbenchAdjudicationTarget, rules.Reject, findingAdjudicationsFile, l.Line, "/finding_id", a.SessionID,
				"no review of session %s has finding %s", a.SessionID, a.FindingID)
		}
		if end, ok := b.ended[a.SessionID]; known && ok && a.DecidedAt.Before(end) {
			b.add(rules.CodeRbenchAdjudicationEarly, rules.Reject, findingAdjudicationsFile, l.Line, "/decided_at", a.SessionID,
				"finding %s of session %s is adjudicated at %s, before the review ended at %s", a.FindingID, a.SessionID,
				a.DecidedAt.UTC().Format(time.RFC3339Nano), end.UTC().Format(time.RFC3339Nano))
		}
		if who := b.reviewerIdentity(a); who != "" {
			b.add(rules.CodeRbenchAdjudicatorReviewer, rules.Reject, findingAdjudicationsFile, l.Line, "/adjudicator", a.SessionID,
				"adjudicator %q of finding %s is %s: the reviewer under review cannot adjudicate its own findings", a.Adjudicator, a.FindingID, who)
		}
		b.out.Adjudications = append(b.out.Adjudications, tables.FindingAdjudicationRow{Line: l.Line, SessionID: a.SessionID,
			FindingID: a.FindingID, Adjudicator: a.Adjudicator, Outcome: a.Outcome, DecidedAtNS: a.DecidedAt.UnixNano(), Known: known})
	}
}

// reviewerIdentity says which identity of the reviewer under review the
// adjudicator is — a profile of the benchmark (ID or label), the reviewed
// session itself, or the model that returned the reviewed session's
// review — or "" when it is none of them. Names are compared ignoring
// case and surrounding spaces.
func (b *bench) reviewerIdentity(a *tables.FindingAdjudication) string {
	same := func(x string) bool {
		return x != "" && strings.EqualFold(strings.TrimSpace(a.Adjudicator), strings.TrimSpace(x))
	}
	for _, arm := range b.c.Manifest.Design.Arms {
		if same(arm.ID) || same(arm.Label) {
			return "reviewer profile " + arm.ID
		}
	}
	if same(a.SessionID) {
		return "the reviewed session"
	}
	if i, ok := b.sessions[a.SessionID]; ok && same(b.out.Attempts[i].Row.Model) {
		return "the model that returned the reviewed session's review (" + b.out.Attempts[i].Row.Model + ")"
	}
	return ""
}
