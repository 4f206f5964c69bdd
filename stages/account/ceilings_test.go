package account

import (
	"testing"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// ceilingCampaign has two priced sessions, billed actually at 0.01 each:
//
//	session 1: t0 → t0+60s, 1,000 in / 100 out, (4×1000 + 20×100)/10^6 = 0.006
//	session 2: t0+30s → t0+120s (90 s), the same meter
//
// Totals: 2 sessions (3 planned), 120,000 ms wall, 2,000 in, 200 out,
// reference 0.012, actual 0.02. Every ceiling starts generous.
func ceilingCampaign() *tables.Campaign {
	r1 := receipt("T1-r1-D", tables.ShapeNormalized, normalized(1000, 0, 0, 0, 100, 0))
	r2 := receipt("T1-r1-A", tables.ShapeNormalized, normalized(1000, 0, 0, 0, 100, 0))
	start2, end2 := t0.Add(30*time.Second), t0.Add(120*time.Second)
	r2.StartedAt, r2.EndedAt = start2, &end2
	for _, r := range []*tables.Receipt{&r1, &r2} {
		r.Billing = tables.Billing{Basis: tables.BillingActual, ActualCharge: strp("0.01")}
	}
	return testCampaign(r1, r2)
}

// For every ceiling: just below the campaign's figure is exceeded; exactly
// at it and just above are within (inclusive ceilings, C18).
func TestRunCeilings(t *testing.T) {
	cases := []struct {
		name   string
		code   rules.Code
		figure int64 // the campaign's own figure, computed by hand above
		set    func(c *tables.Ceilings, v int64)
	}{
		{"session wall", rules.CodeCeilingSessionWall, 90_000, func(c *tables.Ceilings, v int64) { c.Session.WallMS = v }},
		{"session input", rules.CodeCeilingSessionInput, 1000, func(c *tables.Ceilings, v int64) { c.Session.InputTokens = v }},
		{"session output", rules.CodeCeilingSessionOutput, 100, func(c *tables.Ceilings, v int64) { c.Session.OutputTokens = v }},
		{"planned sessions", rules.CodeCeilingPlannedSessions, 3, func(c *tables.Ceilings, v int64) { c.Campaign.PlannedSessions = v }},
		{"total sessions", rules.CodeCeilingTotalSessions, 2, func(c *tables.Ceilings, v int64) { c.Campaign.TotalSessions = v }},
		{"campaign wall", rules.CodeCeilingCampaignWall, 120_000, func(c *tables.Ceilings, v int64) { c.Campaign.WallMS = v }},
		{"campaign input", rules.CodeCeilingCampaignInput, 2000, func(c *tables.Ceilings, v int64) { c.Campaign.InputTokens = v }},
		{"campaign output", rules.CodeCeilingCampaignOutput, 200, func(c *tables.Ceilings, v int64) { c.Campaign.OutputTokens = v }},
		{"reference cost", rules.CodeCeilingReferenceCost, 12_000_000_000, // 0.012 in pico-units
			func(c *tables.Ceilings, v int64) { c.Campaign.ReferenceCost = tables.Money(v).String() }},
		{"actual cost", rules.CodeCeilingActualCost, 20_000_000_000, // 0.02
			func(c *tables.Ceilings, v int64) { c.Campaign.ActualCost = tables.Money(v).String() }},
	}
	for _, tc := range cases {
		for _, step := range []struct {
			name     string
			delta    int64
			exceeded bool
		}{{"below", -1, true}, {"at", 0, false}, {"above", 1, false}} {
			t.Run(tc.name+"/"+step.name, func(t *testing.T) {
				c := ceilingCampaign()
				tc.set(&c.Manifest.Ceilings, tc.figure+step.delta)
				s := runOn(c)
				if got := hasCode(s.Rejections, tc.code); got != step.exceeded {
					t.Errorf("%s reported = %v, want %v; findings %v", tc.code, got, step.exceeded, codes(s.Rejections))
				}
				for _, f := range s.Rejections {
					if f.Code != tc.code {
						t.Errorf("unexpected finding %v", f)
					}
				}
			})
		}
	}
}

func TestRunCeilingInvalid(t *testing.T) {
	c := ceilingCampaign()
	c.Manifest.Ceilings.Session.InputTokens = -1
	c.Manifest.Ceilings.Campaign.ReferenceCost = "thirty"
	s := runOn(c)
	var ptrs []string
	for _, f := range s.Rejections {
		if f.Code == rules.CodeCeilingInvalid && f.Severity == rules.Reject && f.File == manifestFile {
			ptrs = append(ptrs, f.Pointer)
		}
	}
	if want := []string{"/ceilings/session/input_tokens", "/ceilings/campaign/reference_cost"}; !equal(ptrs, want) {
		t.Errorf("ceiling_invalid at %v, want %v", ptrs, want)
	}
}

func TestPlannedSessions(t *testing.T) {
	m := tables.Manifest{Kind: rules.KindPairedReview, Design: tables.Design{Repetitions: 3, Arms: []tables.Arm{{ID: "A"}, {ID: "B"}}, Tasks: make([]tables.TaskSpec, 8)}}
	// 8 tasks × 3 repetitions × (D + A + B) = 72.
	if got := PlannedSessions(&m); got != 72 {
		t.Errorf("PlannedSessions = %d, want 72", got)
	}
	m.Design.Schedule = make([]tables.Slot, 4)
	if got := PlannedSessions(&m); got != 12 { // 4 slots × 3
		t.Errorf("PlannedSessions with schedule = %d, want 12", got)
	}
	// Rule G5: 6 tasks × 2 repetitions × 3 systems × (investigation +
	// review) = 72 planned model sessions; setup is not a planned session.
	sc := tables.Manifest{Kind: rules.KindSystemComparison, Design: tables.Design{Repetitions: 2,
		Arms: []tables.Arm{{ID: "native"}, {ID: "madar"}, {ID: "serena"}}}}
	for i := range 6 {
		sc.Design.Tasks = append(sc.Design.Tasks, tables.TaskSpec{Repository: []string{"R1", "R2", "R3"}[i/2]})
	}
	if got := PlannedSessions(&sc); got != 72 {
		t.Errorf("PlannedSessions(system comparison) = %d, want 72", got)
	}
}

// TestFindingUnits: a ceiling finding prints a duration in hours, minutes
// and seconds, never in nanoseconds: 5,675,532,000,000 ns is 1 h 34 min
// 35.532 s.
func TestFindingUnits(t *testing.T) {
	for _, c := range []struct {
		unit string
		v    int64
		want string
	}{{"ns", 5_675_532_000_000, "1h34m35.532s"}, {"ns", 240_000_000_000, "4m0s"}, {"tokens", 90001, "90001 tokens"}} {
		if got := inUnit(c.unit, c.v); got != c.want {
			t.Errorf("inUnit(%s, %d) = %q, want %q", c.unit, c.v, got, c.want)
		}
	}
}

// TestWallBeyondInt64 refuses a span of the receipts' times that does not
// fit in int64 nanoseconds (2^63−1 ns ≈ 292.3 years) instead of
// saturating it: before, the campaign's wall time became
// 9,223,372,036,854,775,807 ns, above the largest ceiling wall_ms can
// express (9,223,372,036,854 ms = 9,223,372,036,854,000,000 ns), and the
// ceiling was reported exceeded by a figure printed equal to it.
func TestWallBeyondInt64(t *testing.T) {
	// Session 2 starts 300 years (≈ 9.47e18 ns) after session 1 ends: each
	// session is 60 s, the campaign's span is beyond int64.
	r1 := receipt("T1-r1-D", tables.ShapeNormalized, normalized(1000, 0, 0, 0, 100, 0))
	r2 := receipt("T1-r1-A", tables.ShapeNormalized, normalized(1000, 0, 0, 0, 100, 0))
	start := t0.AddDate(300, 0, 0)
	end := start.Add(60 * time.Second)
	r2.StartedAt, r2.EndedAt = start, &end
	c := testCampaign(r1, r2)
	c.Manifest.Ceilings.Campaign.WallMS = (1<<63 - 1) / 1_000_000
	out := Run(c)
	var got []rules.Finding
	for _, f := range out.Findings {
		if f.Code == rules.CodeSessionTimeInvalid {
			got = append(got, f)
		}
		if f.Code == rules.CodeCeilingCampaignWall {
			t.Errorf("the saturated span was reported as exceeding the ceiling: %v", f)
		}
	}
	if len(got) != 1 || got[0].Line != 2 || got[0].Severity != rules.Reject {
		t.Fatalf("session_time_invalid findings %v, want one at the receipt with the last end", got)
	}
	for _, row := range out.Ceilings {
		if row.Ceiling == "wall_time" && (row.Use != nil || row.Held != nil) {
			t.Errorf("the wall-time ceiling row holds use %v, held %v; want both unknown", row.Use, row.Held)
		}
	}

	// One session spanning 300 years is refused the same way, never
	// counted as 2^63−1 ns against the per-session ceiling.
	r1 = receipt("T1-r1-D", tables.ShapeNormalized, normalized(1000, 0, 0, 0, 100, 0))
	end = r1.StartedAt.AddDate(300, 0, 0)
	r1.EndedAt = &end
	c = testCampaign(r1)
	c.Manifest.Ceilings.Session.WallMS = (1<<63 - 1) / 1_000_000
	s := runOn(c)
	if !hasCode(s.Rejections, rules.CodeSessionTimeInvalid) || hasCode(s.Rejections, rules.CodeCeilingSessionWall) {
		t.Errorf("a 300-year session: findings %v, want session_time_invalid and no ceiling_session_wall", codes(s.Rejections))
	}
}
