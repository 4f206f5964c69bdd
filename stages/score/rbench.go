package score

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Reviewer-benchmark scoring (rules I8, G6): effective ratings derived in
// code, the decision of every review, detection of the planted defect and
// blocking on clean cases, and the settled adjudication of every finding.
//
// Effective ratings: a grounded blocking finding of a criterion makes it
// fail whatever was proposed (a model can rate pass before it finds the
// defect later in the same response); a proposed fail without one becomes
// unknown. Raw and effective ratings are both kept.

// BenchmarkOut is what the stage produces for a reviewer benchmark.
type BenchmarkOut = tables.ReviewsScored

// Benchmark scores every attempt of a validated reviewer benchmark; tokens
// and duration come from the account stage's token rows, cost and holds
// from its ledger (rbench_cost.go).
func Benchmark(c *tables.Campaign, validated tables.ReviewsValidated, accounted tables.Accounted) BenchmarkOut {
	var out BenchmarkOut
	tokens := map[string]*tables.Token{}
	for t := range accounted.Tokens.All() {
		if _, seen := tokens[t.SessionID]; !seen {
			tokens[t.SessionID] = &t
		}
	}
	charges := ledgerCharges(accounted.Ledger)
	findings := map[string][]*tables.FindingRow{}
	out.Findings = slices.Clone(validated.Findings)
	settleFindings(out.Findings, validated.Adjudications)
	for i := range out.Findings {
		f := &out.Findings[i]
		findings[f.SessionID] = append(findings[f.SessionID], f)
	}
	criteria := map[string][]tables.CriterionRow{}
	for _, cr := range validated.Criteria {
		criteria[cr.SessionID] = append(criteria[cr.SessionID], cr)
	}
	var bench tables.Benchmark
	if c.Benchmark != nil {
		bench = *c.Benchmark
	}
	for _, a := range validated.Attempts {
		row := a.Row
		fs := findings[row.SessionID]
		if row.Status == tables.ReviewStatusCompleted {
			rows, problems := effective(criteria[row.SessionID], fs, reviewFile(a))
			out.Criteria = append(out.Criteria, rows...)
			out.Problems = append(out.Problems, problems...)
			d := decide(rows)
			row.Decision = &d
			row.Decidable = d != tables.ReviewUndecided
		} else if row.Status == tables.ReviewStatusAbstained {
			out.Criteria = append(out.Criteria, abstained(criteria[row.SessionID])...)
		}
		for _, f := range fs {
			if f.Grounded && f.Severity == tables.FindingBlocking {
				row.Grounded++
			}
		}
		cs := bench.Case(row.CaseID)
		if cs != nil && cs.Kind == tables.CaseVariant {
			hit := row.Status == tables.ReviewStatusCompleted && slices.ContainsFunc(fs, groundedMatch)
			row.Detected = &hit
			if !hit && row.Status == tables.ReviewStatusCompleted {
				out.Problems = append(out.Problems, wrongLocation(a, fs, cs)...)
			}
		} else {
			blocked := row.Decision != nil && *row.Decision == tables.ReviewBlock
			row.Blocked = &blocked
		}
		if t := tokens[row.SessionID]; t != nil && row.SessionID != "" {
			row.InputTokens, row.OutputTokens = t.InputTotal, t.Output
			row.DurationNS = t.DurationNS
		}
		replacedTokens(&row, a.Replaced, tokens)
		attemptCharges(&row, a.Replaced, charges)
		out.Reviews = append(out.Reviews, row)
		out.LabelQueue = append(out.LabelQueue, queued(row, cs, fs)...)
	}
	out.Problems.Sort()
	return out
}

func reviewFile(a tables.ReviewAttempt) string {
	return "reviews/" + a.Row.SessionID + "/review.json"
}

func groundedMatch(f *tables.FindingRow) bool {
	return f.Grounded && f.Severity == tables.FindingBlocking && f.MatchesDefect
}

// effective derives the effective rating of every criterion of one
// completed review from its raw rating and its findings.
func effective(raw []tables.CriterionRow, fs []*tables.FindingRow, file string) ([]tables.CriterionRow, rules.Findings) {
	var problems rules.Findings
	warn := func(row *tables.CriterionRow, code rules.Code, format string, args ...any) {
		problems = append(problems, rules.Finding{Code: code, Severity: rules.Warn, File: file,
			Pointer: "", Session: row.SessionID, Message: fmt.Sprintf(format, args...) + "."})
	}
	rows := slices.Clone(raw)
	for i := range rows {
		row := &rows[i]
		grounded, blocking, reported := false, false, false
		owned := row.Owned
		ownsBlocking := false
		for _, f := range fs {
			if f.Criterion != row.Criterion || f.Severity != tables.FindingBlocking {
				if slices.Contains(owned, f.FindingID) && f.Severity == tables.FindingBlocking {
					ownsBlocking = true
				}
				continue
			}
			blocking = true
			grounded = grounded || f.Grounded
			reported = reported || ungroundedReported(f.Ungrounded)
			if slices.Contains(owned, f.FindingID) {
				ownsBlocking = true
			}
		}
		row.Effective, row.Reason = row.Raw, tables.EffectiveProposed
		switch row.Raw {
		case tables.RatingPass:
			switch {
			case ownsBlocking:
				warn(row, rules.CodeRbenchPassOwnsBlocking, "criterion %s is rated pass but owns blocking finding(s) %s", row.Criterion, strings.Join(row.Owned, ","))
				row.Effective, row.Reason = tables.RatingUnknown, tables.EffectiveUnsupportedFailure
				if grounded {
					row.Effective, row.Reason = tables.RatingFail, tables.EffectiveGroundedOverride
				}
			case grounded:
				warn(row, rules.CodeRbenchPassOverridden, "criterion %s is rated pass but a grounded blocking finding of it stands; its effective rating is fail", row.Criterion)
				row.Effective, row.Reason = tables.RatingFail, tables.EffectiveGroundedOverride
			}
		case tables.RatingFail:
			if !grounded {
				if !blocking || !reported {
					warn(row, rules.CodeRbenchFailureUnsupported, "criterion %s is rated fail without a grounded blocking finding; its effective rating is unknown", row.Criterion)
				}
				row.Effective, row.Reason = tables.RatingUnknown, tables.EffectiveUnsupportedFailure
			}
		case tables.RatingUnknown:
			if grounded {
				row.Effective, row.Reason = tables.RatingFail, tables.EffectiveGroundedOverride
			}
		case tables.RatingAbsent:
			row.Effective, row.Reason = tables.RatingUnknown, tables.EffectiveNotRated
			if grounded {
				row.Effective, row.Reason = tables.RatingFail, tables.EffectiveGroundedOverride
			}
		}
	}
	return rows, problems
}

// ungroundedReported reports whether a finding is ungrounded for a reason
// validate already reported with its own code, so that the failure it
// backed becomes unknown without a second finding.
func ungroundedReported(reason string) bool {
	switch reason {
	case tables.UngroundedFabricatedQuote, tables.UngroundedUnboundProbe, tables.UngroundedInstrumentation, tables.UngroundedOtherCase:
		return true
	}
	return false
}

// abstained keeps the raw ratings of an abstained review with every
// effective rating unknown.
func abstained(raw []tables.CriterionRow) []tables.CriterionRow {
	rows := slices.Clone(raw)
	for i := range rows {
		rows[i].Effective, rows[i].Reason = tables.RatingUnknown, tables.EffectiveNotRated
	}
	return rows
}

// decide is a review's decision: block when any effective rating fails,
// pass when every one passes, undecided otherwise.
func decide(rows []tables.CriterionRow) string {
	pass := len(rows) > 0
	for _, r := range rows {
		switch r.Effective {
		case tables.RatingFail:
			return tables.ReviewBlock
		case tables.RatingPass:
		default:
			pass = false
		}
	}
	if pass {
		return tables.ReviewPass
	}
	return tables.ReviewUndecided
}

// wrongLocation reports grounded blocking findings at the planted
// category but not its location: the planted defect was missed.
func wrongLocation(a tables.ReviewAttempt, fs []*tables.FindingRow, cs *tables.Case) rules.Findings {
	var out rules.Findings
	for _, f := range fs {
		if f.Grounded && f.Severity == tables.FindingBlocking && f.Category == cs.Defect.Category && !f.MatchesDefect {
			l := cs.Defect.Location
			out = append(out, rules.Finding{Code: rules.CodeRbenchWrongLocation, Severity: rules.Warn, File: reviewFile(a),
				Session: a.Row.SessionID, Message: fmt.Sprintf("finding %s has the planted category %s at %s:%d-%d, not at the planted lines %d-%d of %s: a miss.",
					f.FindingID, f.Category, f.Path, f.StartLine, f.EndLine, l.StartLine, l.EndLine, l.Path)})
		}
	}
	return out
}

// settleFindings sets every finding's adjudication: the one outcome its
// adjudicators agree on, disputed when they disagree (every line is
// kept), unadjudicated when none settled it.
func settleFindings(fs []tables.FindingRow, lines []tables.FindingAdjudicationRow) {
	outcomes := map[string][]string{}
	for _, l := range lines {
		if l.Outcome == tables.AdjudicationUnadjudicated {
			continue
		}
		k := l.SessionID + "\x00" + l.FindingID
		if !slices.Contains(outcomes[k], l.Outcome) {
			outcomes[k] = append(outcomes[k], l.Outcome)
		}
	}
	for i := range fs {
		o := outcomes[fs[i].SessionID+"\x00"+fs[i].FindingID]
		switch len(o) {
		case 0:
			fs[i].Adjudication = tables.AdjudicationUnadjudicated
		case 1:
			fs[i].Adjudication = o[0]
		default:
			fs[i].Adjudication = tables.AdjudicationDisputed
		}
	}
}
