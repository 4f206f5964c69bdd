package stages

import (
	"io/fs"
	"slices"

	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/stages/load"
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
// is left of every ceiling. It writes nothing.
func Admit(fsys fs.FS, name string, req *tables.AdmitRequest) *AdmitResult {
	c, findings := load.Campaign(fsys, name)
	res := &AdmitResult{Campaign: c, Tables: &tables.Set{Rejections: findings}, Request: accountRequest(req)}
	if c == nil || findings.Rejected() {
		return res
	}
	res.Loaded = true
	accounted := account.Run(c)
	var ledger *tables.Spool[tables.LedgerEntry]
	res.Verdict, ledger = account.Admit(c, accounted.Ledger, res.Request)
	res.Tables = &tables.Set{Tokens: accounted.Tokens, Ledger: ledger, Rejections: slices.Concat(findings, accounted.Findings)}
	return res
}

// accountRequest is the decoded request file as the account stage's request.
func accountRequest(r *tables.AdmitRequest) account.Request {
	return account.Request{
		RequestID: r.RequestID, SessionID: r.SessionID, RateCard: r.RateCard, MeterShape: r.MeterShape,
		ReservationID: r.ReservationID, MaxInputTokens: r.MaxInputTokens, MaxOutputTokens: r.MaxOutputTokens,
	}
}
