package stages

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/validate"
	"github.com/evalgate/evalgate/tables"
)

// AdmitResult is the outcome of an admission decision (rule A7).
type AdmitResult struct {
	Campaign *tables.Campaign
	Tables   *tables.Set // the account stage's tables: tokens, ledger
	// Loaded is false when the loader rejected the campaign: nothing is
	// admitted and Tables.Rejections says why.
	Loaded  bool
	Request account.Request
	Verdict account.Verdict
}

// Admit loads the campaign rooted at fsys, accounts what it has spent,
// held and reserved, and decides whether req's worst-case bound fits what
// is left of every ceiling. Before that it applies every stop condition of
// the campaign so far (stopCondition): a rejecting finding of the policy
// check, model or CLI drift on a dispatched session, more
// infrastructure-invalid units than the allowance, an exceeded campaign
// ceiling; any refuses the dispatch with that finding's code. It writes
// nothing.
func Admit(fsys fs.FS, name string, req *tables.AdmitRequest) *AdmitResult {
	c, findings := load.Campaign(fsys, name)
	res := &AdmitResult{Campaign: c, Tables: &tables.Set{Rejections: findings}, Request: accountRequest(req)}
	if c == nil || findings.Rejected() {
		return res
	}
	res.Loaded = true
	accounted := account.Run(c)
	var ledger *spool.Spool[tables.LedgerEntry]
	stops := stopConditions(c, accounted.Findings)
	if len(stops) > 0 {
		ledger = accounted.Ledger
		res.Verdict = account.Verdict{Code: stops[0].Code, Message: "The campaign has stopped: " + stops[0].Error(), Used: account.Summarize(ledger).Used}
	} else {
		res.Verdict, ledger = account.Admit(c, accounted.Ledger, res.Request)
	}
	res.Tables = &tables.Set{Tokens: accounted.Tokens, Ledger: ledger, Rejections: slices.Concat(findings, stops, accounted.Findings)}
	return res
}

// stopCodes are the account stage's findings that stop a campaign: a
// campaign ceiling exceeded (rule A6).
var stopCodes = []rules.Code{
	rules.CodeCeilingPlannedSessions, rules.CodeCeilingTotalSessions, rules.CodeCeilingCampaignWall,
	rules.CodeCeilingCampaignInput, rules.CodeCeilingCampaignOutput, rules.CodeCeilingReferenceCost, rules.CodeCeilingActualCost,
}

// stopConditions are the findings of the campaign so far that forbid any
// further dispatch, in order: the policy check's rejecting findings (rule
// F1), a design a preset does not judge (rules D8, D9, P3, G8: nothing
// dispatched under it could count), model or CLI drift on a dispatched session (identity_mismatch; rule
// V1, contract #741 §5: drift stops the campaign), more
// infrastructure-invalid units than the allowance (rule A6), and an
// exceeded campaign ceiling. Sessions not yet dispatched are no stop: the
// campaign is under way.
func stopConditions(c *tables.Campaign, accounted rules.Findings) rules.Findings {
	var out rules.Findings
	for _, f := range slices.Concat(validate.Policy(c), validate.Design(&c.Manifest)) {
		if f.Severity == rules.Reject {
			out = append(out, f)
		}
	}
	if c.Manifest.Kind != rules.KindReviewerBenchmark {
		for line := range c.Receipts.All() {
			r := &line.Record
			if r.Status == tables.StatusNotDispatched {
				continue
			}
			if bad := validate.ConsumerDrift(&c.Manifest, r); len(bad) > 0 {
				out = append(out, rules.Finding{Code: rules.CodeIdentityMismatch, Severity: rules.Reject, File: "receipts.jsonl", Line: line.Line, Session: r.SessionID,
					Message: "The session reported " + strings.Join(bad, " and ") + " other than the manifest's: model or CLI drift stops the campaign."})
				break
			}
		}
		if v := validate.Run(c, load.Answers(c)); v.Replacements.Exceeded {
			r := v.Replacements
			out = append(out, rules.Finding{Code: rules.CodeInvalidTripletsExceeded, Severity: rules.Reject, File: manifestFile, Pointer: "/ceilings/campaign/infrastructure_replacements",
				Message: fmt.Sprintf("%d infrastructure-invalid %s, at most %d may be replaced: the campaign stops.", r.Invalid, r.Unit, r.Allowed)})
		}
	}
	for _, f := range accounted {
		if slices.Contains(stopCodes, f.Code) {
			out = append(out, f)
		}
	}
	return out
}

// accountRequest is the decoded request file as the account stage's request.
func accountRequest(r *tables.AdmitRequest) account.Request {
	return account.Request{
		RequestID: r.RequestID, SessionID: r.SessionID, RateCard: r.RateCard, MeterShape: r.MeterShape,
		ReservationID: r.ReservationID, MaxInputTokens: r.MaxInputTokens, MaxOutputTokens: r.MaxOutputTokens,
	}
}
