package account

import (
	"fmt"
	"strconv"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// limits are the manifest's ceilings (A6), checked and parsed. A nil field
// is a ceiling that is invalid and therefore never satisfied by Admit.
type limits struct {
	sessionWallNS, sessionInput, sessionOutput *int64
	planned, total, campaignWallNS             *int64
	campaignInput, campaignOutput              *int64
	referenceCost, actualCost                  *tables.Money
}

// parseLimits checks every ceiling: counts must be non-negative, wall
// times must fit in nanoseconds, money must be an exact decimal.
func parseLimits(c *tables.Ceilings) (limits, []rules.Finding) {
	var l limits
	var fs []rules.Finding
	count := func(ptr string, v int64, scale int64) *int64 {
		if v < 0 || v > (1<<63-1)/scale {
			fs = append(fs, ceilingFinding(ptr, "is negative or out of range"))
			return nil
		}
		v *= scale
		return &v
	}
	money := func(ptr, s string) *tables.Money {
		m, err := tables.ParseMoney(s)
		if err != nil {
			fs = append(fs, ceilingFinding(ptr, "is not an exact non-negative decimal"))
			return nil
		}
		return &m
	}
	ms := int64(time.Millisecond)
	l.sessionWallNS = count("/ceilings/session/wall_ms", c.Session.WallMS, ms)
	l.sessionInput = count("/ceilings/session/input_tokens", c.Session.InputTokens, 1)
	l.sessionOutput = count("/ceilings/session/output_tokens", c.Session.OutputTokens, 1)
	l.planned = count("/ceilings/campaign/planned_sessions", c.Campaign.PlannedSessions, 1)
	l.total = count("/ceilings/campaign/total_sessions", c.Campaign.TotalSessions, 1)
	l.campaignWallNS = count("/ceilings/campaign/wall_ms", c.Campaign.WallMS, ms)
	l.campaignInput = count("/ceilings/campaign/input_tokens", c.Campaign.InputTokens, 1)
	l.campaignOutput = count("/ceilings/campaign/output_tokens", c.Campaign.OutputTokens, 1)
	l.referenceCost = money("/ceilings/campaign/reference_cost", c.Campaign.ReferenceCost)
	l.actualCost = money("/ceilings/campaign/actual_cost", c.Campaign.ActualCost)
	return l, fs
}

func ceilingFinding(ptr, what string) rules.Finding {
	return rules.Finding{Code: rules.CodeCeilingInvalid, Severity: rules.Reject, File: manifestFile,
		Pointer: ptr, Message: "The ceiling " + ptr + " " + what + "."}
}

// exceeds reports whether v is above an inclusive ceiling (an invalid
// ceiling was already reported and is not checked again).
func exceeds(v int64, ceiling *int64) bool { return ceiling != nil && v > *ceiling }

// sessionCeilings checks one session's wall time, input and output against
// the per-session ceilings and its own reservation, recording each outcome
// on row (within_session_ceilings, reservation_covers_use); it reports
// whether the session is shown within all of them (an unknown cost is not).
func (a *accountant) sessionCeilings(line tables.Line[tables.Receipt], row *tables.Token, res *reservation) bool {
	ok := true
	over := func(code rules.Code, ptr, what string, v int64, ceiling *int64) {
		if exceeds(v, ceiling) {
			ok = false
			unit := "tokens"
			if ptr == "/ended_at" {
				unit = "ns"
			}
			a.add(line, code, rules.ClassOf(code).Severity(), ptr, fmt.Sprintf("The session's %s (%s) exceeds the per-session ceiling (%s).", what, inUnit(unit, v), inUnit(unit, *ceiling)))
		}
	}
	if row.DurationNS == nil {
		ok = false
	} else {
		over(rules.CodeCeilingSessionWall, "/ended_at", "wall time", *row.DurationNS, a.limits.sessionWallNS)
	}
	over(rules.CodeCeilingSessionInput, "/meter", "cumulative input", row.InputTotal, a.limits.sessionInput)
	over(rules.CodeCeilingSessionOutput, "/meter", "billed output", row.Output, a.limits.sessionOutput)
	row.WithinSessionCeilings = ok
	if res == nil {
		return false
	}
	costOver := row.ReferenceCost != nil && res.cost != nil && *row.ReferenceCost > *res.cost
	if row.InputTotal > res.input || row.Output > res.output || costOver {
		a.add(line, rules.CodeReservationExceeded, rules.ClassOf(rules.CodeReservationExceeded).Severity(), "/reservation", fmt.Sprintf(
			"The session used %d input and %d output tokens (reference cost %s), beyond its reservation %s of %d, %d (%s).",
			row.InputTotal, row.Output, moneyText(row.ReferenceCost), res.id, res.input, res.output, moneyText(res.cost)))
		return false
	}
	row.ReservationCoversUse = row.ReferenceCost != nil && res.cost != nil
	return ok && row.ReferenceCost != nil
}

func moneyText(m *tables.Money) string {
	if m == nil {
		return "unknown"
	}
	return m.String()
}

// PlannedSessions is the number of model sessions the manifest plans. For
// every scheduled (task, repetition) a paired review plans one shared draft
// plus one review per arm; a system comparison plans one investigation and
// one review per system (rule G5: 72 planned model sessions for 6
// tasks × 2 repetitions × 3 systems); cold-setup preparation sessions are
// not planned model sessions, though they count against total sessions.
// Without a schedule every task runs every repetition.
func PlannedSessions(m *tables.Manifest) int64 {
	d := &m.Design
	slots := int64(len(d.Schedule))
	if slots == 0 {
		for _, t := range d.Tasks {
			slots += max(d.RepetitionsOf(t.Split), 0)
		}
	}
	arms := int64(len(d.Arms))
	if m.Kind == rules.KindSystemComparison {
		return slots * 2 * arms
	}
	return slots * (1 + arms)
}

// campaignCeilings checks the campaign-wide ceilings over the whole ledger
// and records one Ceiling row for each, in manifest order.
func (a *accountant) campaignCeilings() {
	planned := PlannedSessions(&a.c.Manifest)
	if b := a.c.Benchmark; b != nil && a.c.Manifest.Kind == rules.KindReviewerBenchmark {
		// a reviewer benchmark plans one review per case × profile × run
		planned = int64(len(b.Cases)) * int64(len(a.c.Manifest.Design.Arms)) * max(a.c.Manifest.Design.Repetitions, 0)
	}
	u := Summarize(a.ledger).Used
	var wall *int64
	if w, ok := a.campaignWall(); ok {
		wall = &w
	}
	a.countCeiling("planned_sessions", rules.CodeCeilingPlannedSessions, "sessions", "planned sessions", &planned, a.limits.planned)
	a.countCeiling("total_sessions", rules.CodeCeilingTotalSessions, "sessions", "dispatched sessions", &u.Sessions, a.limits.total)
	a.countCeiling("wall_time", rules.CodeCeilingCampaignWall, "ns", "wall time (first start to last end)", wall, a.limits.campaignWallNS)
	a.countCeiling("input_tokens", rules.CodeCeilingCampaignInput, "tokens", "accounted and held input", &u.InputTokens, a.limits.campaignInput)
	a.countCeiling("output_tokens", rules.CodeCeilingCampaignOutput, "tokens", "accounted and held output", &u.OutputTokens, a.limits.campaignOutput)
	a.moneyCeiling("reference_cost", rules.CodeCeilingReferenceCost, "reference cost", u.ReferenceCost, a.limits.referenceCost)
	a.moneyCeiling("actual_cost", rules.CodeCeilingActualCost, "attributable actual cost", u.ActualCost, a.limits.actualCost)
}

// inUnit prints a count in its unit for a finding's message: a duration
// in hours, minutes and seconds (exact: "1h34m35.532s"), never a count of
// nanoseconds; any other count as it is, with its unit.
func inUnit(unit string, v int64) string {
	if unit == "ns" {
		return time.Duration(v).String()
	}
	return fmt.Sprintf("%d %s", v, unit)
}

// countCeiling records a count or duration ceiling: held when the use is
// at most the limit, null when either is unknown.
func (a *accountant) countCeiling(name string, code rules.Code, unit, what string, use, limit *int64) {
	member := name
	if name == "wall_time" {
		member = "wall_ms"
	}
	row := tables.Ceiling{Ceiling: name, Pointer: "/ceilings/campaign/" + member, Unit: unit, Limit: limit, Use: use}
	if use != nil && limit != nil {
		held := !exceeds(*use, limit)
		row.Held = &held
		if !held {
			row.Code = string(code)
			a.findings = append(a.findings, rules.Finding{Code: code, Severity: rules.ClassOf(code).Severity(), File: manifestFile, Pointer: row.Pointer,
				Message: fmt.Sprintf("The campaign's %s (%s) exceeds its ceiling (%s).", what, inUnit(unit, *use), inUnit(unit, *limit))})
		}
	}
	a.ceilings = append(a.ceilings, row)
}

// moneyCeiling records a money ceiling; an unknown use cannot be shown
// within it.
func (a *accountant) moneyCeiling(name string, code rules.Code, what string, use, limit *tables.Money) {
	row := tables.Ceiling{Ceiling: name, Pointer: "/ceilings/campaign/" + name, Unit: "money", LimitCost: limit, UseCost: use}
	switch {
	case use == nil:
		row.Code = string(rules.CodeCampaignCostUnknown)
		a.findings = append(a.findings, rules.Finding{Code: rules.CodeCampaignCostUnknown, Severity: rules.ClassOf(rules.CodeCampaignCostUnknown).Severity(), File: manifestFile, Pointer: row.Pointer,
			Message: "The campaign's " + what + " is unknown (a charge without tariff, meter or reservation), so it cannot be shown within its ceiling."})
	case limit != nil:
		held := *use <= *limit
		row.Held = &held
		if !held {
			row.Code = string(code)
			a.findings = append(a.findings, rules.Finding{Code: code, Severity: rules.ClassOf(code).Severity(), File: manifestFile, Pointer: row.Pointer,
				Message: "The campaign's " + what + " (" + use.String() + ") exceeds its ceiling (" + limit.String() + ")."})
		}
	}
	a.ceilings = append(a.ceilings, row)
}

// wallSpan is first start to last end over dispatched receipts (UTC),
// taken as the receipts pass (see accountant.receipt), with the receipt
// lines and sessions that set them, to position a span that cannot be
// counted.
type wallSpan struct {
	first, last         time.Time
	firstLine, lastLine int64
	lastSession         string
	seen                bool
}

// add takes one dispatched receipt's start and end.
func (w *wallSpan) add(line tables.Line[tables.Receipt]) {
	r := &line.Record
	if !w.seen || r.StartedAt.Before(w.first) {
		w.first, w.firstLine = r.StartedAt, line.Line
	}
	if r.EndedAt != nil && (w.last.IsZero() || r.EndedAt.After(w.last)) {
		w.last, w.lastLine, w.lastSession = *r.EndedAt, line.Line, r.SessionID
	}
	w.seen = true
}

// campaignWall is first start to last end over dispatched receipts (UTC),
// exactly: a span beyond int64 nanoseconds (about 292 years) is not
// saturated into a number equal to or just above any ceiling, it is a
// defect of the record (session_time_invalid, at the receipt with the
// last end) and the wall time is unknown.
func (a *accountant) campaignWall() (int64, bool) {
	w := a.wall
	if !w.seen || w.last.IsZero() || w.last.Before(w.first) {
		return 0, false
	}
	d, ok := exactSpan(w.first, w.last)
	if !ok {
		a.findings = append(a.findings, rules.Finding{Code: rules.CodeSessionTimeInvalid, Severity: rules.Reject,
			File: receiptsFile, Line: w.lastLine, Session: w.lastSession, Pointer: "/ended_at",
			Message: fmt.Sprintf("The campaign's wall time, from the first start (receipts.jsonl:%d) to this last end, does not fit in int64 nanoseconds (about 292 years): the receipts' times are not a campaign's, so the wall-time ceiling cannot be checked.", w.firstLine)})
		return 0, false
	}
	return d, true
}

// exactSpan is end − start in nanoseconds, and false when it does not fit
// in an int64 (time.Time.Sub saturates instead).
func exactSpan(start, end time.Time) (int64, bool) {
	d := end.Sub(start)
	return int64(d), start.Add(d).Equal(end)
}

// pointer joins a JSON pointer base, an index and a member.
func pointer(base string, i int, member string) string {
	return base + "/" + strconv.Itoa(i) + "/" + member
}
