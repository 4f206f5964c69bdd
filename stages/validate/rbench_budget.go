package validate

import (
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Equal terms (rule G6: "Compare the baseline and one frozen candidate
// using the same pinned model, tools and budget"; "Both profiles share each
// stratum's fixed model/settings"): within a model stratum every
// dispatched review session reserves the same worst-case bound — input
// tokens, output tokens and cost — whichever profile it runs, so that
// neither profile is compared with a larger budget. A session reserving
// another bound than the stratum's first is a record defect.

// budgetBound is one stratum's reservation bound and the session that set
// it, for a stratum whose profiles froze no budget (their terms are
// then unpinned, and the sessions are still compared with each other).
type budgetBound struct {
	input, output int64
	cost          tables.Money
	session       string
	profile       string
}

// checkBudget compares one dispatched review receipt's reservation with
// its stratum's.
func (b *bench) checkBudget(r *tables.Receipt, line int64, model, profile string) {
	res := r.Reservation
	if res == nil || r.Status == tables.StatusNotDispatched {
		return // a missing reservation is the ledger's finding
	}
	cost, err := tables.ParseMoney(res.Cost)
	if err != nil {
		return // an unreadable cost is the ledger's finding
	}
	if p := b.c.Manifest.Benchmark.Profile(profile, model); p != nil && p.Budget != nil {
		// The profile's frozen budget is the bound every one of its
		// sessions in the stratum reserves.
		want := &tables.AttemptBudget{InputTokens: res.InputTokens, OutputTokens: res.OutputTokens, Cost: res.Cost}
		if !want.Equal(p.Budget) {
			b.add(rules.CodeRbenchBudgetUnequal, rules.Reject, receiptsFile, line, "/reservation", r.SessionID,
				"session %s (profile %s, model %s) reserves %d input and %d output tokens and %s, but the profile's frozen per-attempt budget in the stratum is %d, %d and %s: both profiles are compared under one budget",
				r.SessionID, profile, model, res.InputTokens, res.OutputTokens, cost.String(), p.Budget.InputTokens, p.Budget.OutputTokens, p.Budget.Cost)
		}
		return
	}
	if b.budgets == nil {
		b.budgets = map[string]budgetBound{}
	}
	first, seen := b.budgets[model]
	if !seen {
		b.budgets[model] = budgetBound{res.InputTokens, res.OutputTokens, cost, r.SessionID, profile}
		return
	}
	if first.input != res.InputTokens || first.output != res.OutputTokens || first.cost != cost {
		b.add(rules.CodeRbenchBudgetUnequal, rules.Reject, receiptsFile, line, "/reservation", r.SessionID,
			"session %s (profile %s, model %s) reserves %d input and %d output tokens and %s, but session %s (profile %s) of the same model reserved %d, %d and %s: both profiles are compared under one budget",
			r.SessionID, profile, model, res.InputTokens, res.OutputTokens, cost.String(), first.session, first.profile, first.input, first.output, first.cost.String())
	}
}
