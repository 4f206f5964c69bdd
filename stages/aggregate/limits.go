package aggregate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/tables"
)

// The stop conditions of a campaign are facts the account stage writes
// (token rows and ceiling rows); this file reads them for the gates and
// the decision. It never reads findings.

// sessionsOverLimits lists every dispatched session not shown within its
// absolute per-session ceilings (A6, inclusive: wall time, cumulative
// input, billed output), as the account stage recorded in
// tokens.within_session_ceilings. Sorted, unique.
func sessionsOverLimits(tokens *tables.Spool[tables.Token]) []string {
	var over []string
	for t := range tokens.All() {
		if !t.WithinSessionCeilings {
			over = append(over, t.SessionID)
		}
	}
	slices.Sort(over)
	return slices.Compact(over)
}

// costBlockers lists, per dispatched session, why its cost cannot be shown
// within a hard spend bound (rules A2, A6, A7): no reservation before
// dispatch, a reservation its use exceeds, an incomplete meter, or a
// reference cost that is not priced (missing tariff, unknown rate card).
// Any blocker makes every cost gate fail, so the decision cannot be
// advance. Sorted by session.
func costBlockers(tokens *tables.Spool[tables.Token]) []costBlocker {
	var out []costBlocker
	for t := range tokens.All() {
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
		if len(why) > 0 {
			out = append(out, costBlocker{t.SessionID, strings.Join(why, ", ")})
		}
	}
	slices.SortFunc(out, func(a, b costBlocker) int { return strings.Compare(a.session, b.session) })
	return out
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
