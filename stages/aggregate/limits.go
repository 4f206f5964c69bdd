package aggregate

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// The stop conditions of a campaign are facts the account stage writes
// (token rows and ceiling rows); this file reads them for the gates and
// the decision. It never reads findings.

// sessionFacts are what the aggregate stage reads of the account stage's
// token rows, gathered in one pass: the rows are spooled, so each pass
// decodes all of them, and every judge (one per arm and split) shares
// these.
type sessionFacts struct {
	// overLimits lists every dispatched session not shown within its
	// absolute per-session ceilings (A6, inclusive: wall time, cumulative
	// input, billed output), as the account stage recorded in
	// tokens.within_session_ceilings. Sorted, unique.
	overLimits []string
	// costBlockers lists, per dispatched session, why its cost cannot be
	// shown within a hard spend bound (rules A2, A6, A7): no reservation
	// before dispatch, a reservation its use exceeds, an incomplete meter,
	// or a reference cost that is not priced (missing tariff, unknown rate
	// card). Any blocker makes every cost gate fail, so the decision cannot
	// be advance. Sorted by session.
	costBlockers []costBlocker
	// referenceCost sums every token row's reference cost plus tool
	// charges and actualCharge its actual charge; each is nil when any
	// amount is null.
	referenceCost, actualCharge *big.Rat
}

// readSessions reads the facts of every token row (see [sessionFacts]).
func readSessions(tokens *spool.Spool[tables.Token]) sessionFacts {
	var f sessionFacts
	ref, act := exactSum{}, exactSum{}
	for t := range tokens.All() {
		if !t.WithinSessionCeilings {
			f.overLimits = append(f.overLimits, t.SessionID)
		}
		if why := costBlocked(&t); why != "" {
			f.costBlockers = append(f.costBlockers, costBlocker{t.SessionID, why})
		}
		ref.add(t.ReferenceCost)
		ref.add(t.ToolCharges)
		act.add(t.ActualCharge)
	}
	slices.Sort(f.overLimits)
	f.overLimits = slices.Compact(f.overLimits)
	slices.SortFunc(f.costBlockers, func(a, b costBlocker) int { return strings.Compare(a.session, b.session) })
	f.referenceCost, f.actualCharge = ref.total(), act.total()
	return f
}

// costBlocked is why a token row's cost cannot be shown within a hard
// spend bound, "" when it can.
func costBlocked(t *tables.Token) string {
	var why []string
	switch {
	case !t.ReservationPresent:
		why = append(why, "no reservation")
	case !t.ReservationCoversUse:
		why = append(why, "use not covered by its reservation")
	}
	if !t.MeterComplete {
		why = append(why, "meter incomplete")
	}
	if t.MeterComplete && t.CostStatus != tables.CostPriced {
		why = append(why, "cost "+t.CostStatus)
	}
	return strings.Join(why, ", ")
}

// costBlocker is one session whose cost cannot be shown within a hard
// spend bound, and why.
type costBlocker struct{ session, why string }

// ceilingsExceeded describes every campaign ceiling that did not hold, as
// the account stage recorded it: an exceeded campaign ceiling means the
// execution cannot be made valid within its finite allowance (no verdict).
func ceilingsExceeded(ceilings []tables.Ceiling) []string {
	var out []string
	for _, c := range ceilings {
		if c.Held == nil || *c.Held {
			continue
		}
		use, limit := "", ""
		switch {
		case c.Use != nil && c.Limit != nil:
			use, limit = fmt.Sprint(*c.Use), fmt.Sprint(*c.Limit)
		case c.UseCost != nil && c.LimitCost != nil:
			use, limit = c.UseCost.String(), c.LimitCost.String()
		}
		out = append(out, fmt.Sprintf("campaign ceiling %s exceeded (%s %s used, limit %s)", c.Ceiling, use, c.Unit, limit))
	}
	return out
}
