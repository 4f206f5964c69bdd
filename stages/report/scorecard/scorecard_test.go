package scorecard

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/stages/report/internal/fixture"
	"github.com/evalgate/evalgate/tables"
)

func TestScorecardIdentity(t *testing.T) {
	sc := Build(fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), "1.2.3")
	checks := []struct{ name, got, want string }{
		{"scorecard_version", sc.ScorecardVersion, "evalgate.scorecard/v1"},
		{"campaign_id", sc.CampaignID, "camp-1"},
		{"manifest_sha256", sc.ManifestSHA256, "ab00000000000000000000000000000000000000000000000000000000000000"},
		{"tool_version", sc.ToolVersion, "1.2.3"},
		{"kind", sc.Kind, "paired-review"},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("got %q, want %q", c.got, c.want)
			}
		})
	}
	t.Run("synthetic", func(t *testing.T) {
		if !sc.Synthetic {
			t.Error("synthetic = false")
		}
	})
	t.Run("nil_campaign", func(t *testing.T) {
		sc := Build(nil, &tables.Set{}, figuresOf(nil, &tables.Set{}), "")
		if sc.CampaignID != "" || sc.Decision.Decision != "no_verdict" {
			t.Errorf("nil campaign: id %q decision %q", sc.CampaignID, sc.Decision.Decision)
		}
	})
}

func TestScorecardCompletion(t *testing.T) {
	c := Build(fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), "").Completion
	// 3 sessions: valid ×2, invalid ×1; statuses error ×1, response ×2.
	// 8 runs, all scored, all classified valid. Findings: reject 2, warn 1;
	// codes a_code ×2, b_code ×1.
	want := Completion{
		Sessions:                 3,
		SessionsByClassification: []Count{{"invalid", 1}, {"valid", 2}},
		SessionsByStatus:         []Count{{"error", 1}, {"response", 2}},
		Runs:                     8, RunsScored: 8, RunsUnscored: 0,
		RunsByClassification: []Count{{"valid", 8}},
		Findings:             3,
		FindingsBySeverity:   []Count{{"reject", 2}, {"warn", 1}},
		FindingsByCode:       []Count{{"a_code", 2}, {"b_code", 1}},
	}
	if !equalJSON(t, c, want) {
		t.Errorf("completion\n%+v\nwant\n%+v", c, want)
	}
}

func TestScorecardSourceAndProtocol(t *testing.T) {
	sp := Build(fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), "").SourceAndProtocol
	t.Run("campaign", func(t *testing.T) {
		if sp.IdentityMismatches != 1 || sp.CitationFailures != 2 {
			t.Errorf("identity mismatches %d (want 1), citation failures %d (want 2)", sp.IdentityMismatches, sp.CitationFailures)
		}
	})
	t.Run("arm_order", func(t *testing.T) {
		if len(sp.Arms) != 2 || sp.Arms[0].Arm != "A" || sp.Arms[1].Arm != "B" {
			t.Fatalf("arms %+v, want A then B", sp.Arms)
		}
	})
	t.Run("A", func(t *testing.T) {
		// A: 4 runs; run T2 r1 has source gate false, 2 critical failures and
		// critical completion failed; T2 r2 semantic fail; T1 r2 wrong claims null.
		a := sp.Arms[0]
		want := SourceProtocolArm{Arm: "A", Runs: 4, ScoredRuns: 4, CriticalFailures: 2, CriticalCompletionFailed: 1,
			SourceGatePass: 3, ProtocolGatePass: 4, StructuralPass: 4, SemanticPass: 3, SemanticFail: 1,
			WrongClaims: ClaimCount{0, 1}}
		if a != want {
			t.Errorf("got  %+v\nwant %+v", a, want)
		}
	})
	t.Run("B", func(t *testing.T) {
		// B: T2 r1 semantic unrated; T2 r2 has 3 critical wrong claims.
		b := sp.Arms[1]
		want := SourceProtocolArm{Arm: "B", Runs: 4, ScoredRuns: 4, SourceGatePass: 4, ProtocolGatePass: 4,
			StructuralPass: 4, SemanticPass: 3, SemanticUnrated: 1, CriticalWrongClaims: ClaimCount{3, 0}}
		if b != want {
			t.Errorf("got  %+v\nwant %+v", b, want)
		}
	})
}

func TestScorecardEvidenceAndPlan(t *testing.T) {
	ep := Build(fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), "").EvidenceAndPlan
	// Task medians (mean of the two middle values, two repetitions):
	//   A T1: 3/4, 2/4 → 5/8;  A T2: 1/3, 2/3 → 1/2;  macro A = (5/8+1/2)/2 = 9/16
	//   B T1: 4/4, 3/4 → 7/8;  B T2: 3/3, 2/3 → 5/6;  macro B = (21/24+20/24)/2 = 41/48
	//   U only on T1: A 1/1, 0/1 → 1/2; B 1/1, 1/1 → 1.
	arms := []struct {
		arm, r, rDec, u string
	}{
		{"A", "9/16", "0.562500000000", "1/2"},
		{"B", "41/48", "0.854166666667", "1"},
	}
	for i, w := range arms {
		t.Run(w.arm, func(t *testing.T) {
			a := ep.Arms[i]
			if a.Arm != w.arm || a.Tasks != 2 || a.UncertaintyTasks != 1 {
				t.Errorf("arm %+v", a)
			}
			if a.MacroMedianR == nil || a.MacroMedianR.Exact != w.r || a.MacroMedianR.Decimal != w.rDec {
				t.Errorf("macro R %+v, want %s = %s", a.MacroMedianR, w.r, w.rDec)
			}
			if a.MacroMedianU == nil || a.MacroMedianU.Exact != w.u {
				t.Errorf("macro U %+v, want %s", a.MacroMedianU, w.u)
			}
		})
	}
	t.Run("tasks", func(t *testing.T) {
		var got []string
		for _, tk := range ep.Tasks {
			u := "null"
			if tk.MedianU != nil {
				u = tk.MedianU.Exact
			}
			got = append(got, tk.Task+"/"+tk.Arm+" R="+tk.MedianR.Exact+" U="+u)
		}
		want := []string{"T1/A R=5/8 U=1/2", "T1/B R=7/8 U=1", "T2/A R=1/2 U=null", "T2/B R=5/6 U=null"}
		if !slices.Equal(got, want) {
			t.Errorf("tasks %q, want %q", got, want)
		}
	})
	t.Run("unscored_run_nulls_macro", func(t *testing.T) {
		s := fixtureSet(t)
		fixture.EditRuns(s, func(runs []tables.Run) { runs[7].Scored, runs[7].R = false, nil }) // B T2 r2 lacks ratings
		ep := Build(fixtureCampaign(), s, figuresOf(fixtureCampaign(), s), "").EvidenceAndPlan
		if ep.Arms[1].MacroMedianR != nil {
			t.Errorf("macro R of B = %+v with an unscored run, want null", ep.Arms[1].MacroMedianR)
		}
		if ep.Arms[0].MacroMedianR == nil {
			t.Error("macro R of A became null")
		}
		if ep.Tasks[3].MedianR != nil || ep.Tasks[3].ScoredRuns != 1 {
			t.Errorf("B T2 = %+v, want median R null and 1 scored run", ep.Tasks[3])
		}
	})
}

func TestScorecardCostAndTime(t *testing.T) {
	ct := Build(fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), "").CostAndTime
	t.Run("sessions", func(t *testing.T) {
		// reference: 0.09 + 0.01 + 24.00 + 0 = 24.10; actual: one null → unavailable.
		if ct.SessionReferenceCost == nil || *ct.SessionReferenceCost != "24.10" || ct.SessionActualCharge != nil {
			t.Errorf("session costs %v %v, want 24.10 and null", deref(ct.SessionReferenceCost), deref(ct.SessionActualCharge))
		}
	})
	t.Run("arms", func(t *testing.T) {
		// A: total 1.00+1.20+2.00+2.00 = 6.20; median of 1.00 1.20 2.00 2.00 = 1.60.
		// B: total 1.10+1.30+2.10+2.000000000001 = 6.500000000001;
		//    median (1.30 + 2.000000000001)/2 = 1.6500000000005 (half a pico-unit).
		// ns: A total 100+120+200+210 = 630, median (120+200)/2 = 160; B total 700, median (140+220)/2 = 180.
		// review ns: A 40 60 100 110 → median 80; B 50 80 120 130 → 100.
		// Σ task-median cost (exact task medians, as the gates use them):
		// A median(1.00, 1.20) + median(2.00, 2.00) = 1.10 + 2.00 = 3.10;
		// B median(1.10, 1.30) + median(2.10, 2.000000000001) = 1.20 + 2.0500000000005
		//   = 3.2500000000005 (the tasks table rounds 2.0500000000005 to 2.05;
		//   the sum is not a sum of rounded medians).
		want := [][]string{
			{"A", "6.20", "1.60", "630", "160", "80", "3.10", "315"},
			{"B", "6.500000000001", "1.6500000000005", "700", "180", "100", "3.2500000000005", "350"},
		}
		for i, w := range want {
			a := ct.Arms[i]
			got := []string{a.Arm, deref(a.TotalWorkflowCost), deref(a.MedianWorkflowCost), Int(a.TotalWorkflowNS),
				deref(a.MedianWorkflowNS), deref(a.MedianReviewNS), deref(a.SumTaskMedianCost), Int(a.SumTaskMedianNS)}
			if !slices.Equal(got, w) {
				t.Errorf("arm %s: got %q, want %q", w[0], got, w)
			}
		}
	})
	t.Run("ratios", func(t *testing.T) {
		// cost 3.2500000000005/3.10 = 6500000000001/6200000000000 = 1.048387…;
		// review cost: A 0.50 + 1.00 = 1.50, B median(0.50, 0.70) + median(1.10, 1.10)
		// = 0.60 + 1.10 = 1.70, so 1.70/1.50 = 17/15;
		// time 350/315 = 10/9; review time (65+125)/(50+105) = 190/155 = 38/31.
		if ct.Baseline != "A" || len(ct.Ratios) != 1 || ct.Ratios[0].Arm != "B" {
			t.Fatalf("baseline %q ratios %+v", ct.Baseline, ct.Ratios)
		}
		r := ct.Ratios[0]
		cases := []struct {
			name string
			got  *Change
			want Change
		}{
			{"cost", r.Cost, Change{Ratio{"6500000000001/6200000000000", "1.048387096774"}, "increase", "4.84"}},
			{"review_cost", r.ReviewCost, Change{Ratio{"17/15", "1.133333333333"}, "increase", "13.33"}},
			{"time", r.Time, Change{Ratio{"10/9", "1.111111111111"}, "increase", "11.11"}},
			{"review_time", r.ReviewTime, Change{Ratio{"38/31", "1.225806451613"}, "increase", "22.58"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				if c.got == nil || *c.got != c.want {
					t.Errorf("got %+v, want %+v", c.got, c.want)
				}
			})
		}
	})
	t.Run("missing_task_median_gives_null_ratio", func(t *testing.T) {
		s := fixtureSet(t)
		fixture.EditRuns(s, func(runs []tables.Run) { runs[0].WorkflowCost = nil }) // A T1 r1 unknown, so A T1's task median is
		ct := Build(fixtureCampaign(), s, figuresOf(fixtureCampaign(), s), "").CostAndTime
		if ct.Ratios[0].Cost != nil || ct.Arms[0].SumTaskMedianCost != nil {
			t.Errorf("cost ratio %+v, Σ %v: want null, never a partial sum", ct.Ratios[0].Cost, deref(ct.Arms[0].SumTaskMedianCost))
		}
	})
}

func TestScorecardGatesDecisionIntervals(t *testing.T) {
	sc := Build(fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), "")
	t.Run("gates", func(t *testing.T) {
		if len(sc.Gates) != 2 || !slices.Equal(sc.Gates[1].Failing, []string{"T1", "T2"}) || len(sc.Gates[0].Failing) != 0 {
			t.Errorf("gates %+v", sc.Gates)
		}
	})
	t.Run("decision", func(t *testing.T) {
		d := sc.Decision
		if d.Decision != "do_not_advance" || d.Arm != "B" || !slices.Equal(d.FailingGates, []string{"g2_quality"}) {
			t.Errorf("decision %+v", d)
		}
	})
	t.Run("two_decisions_no_verdict", func(t *testing.T) {
		s := fixtureSet(t)
		s.Decision = append(s.Decision, tables.Decision{Decision: "advance"})
		if d := Build(nil, s, figuresOf(nil, s), "").Decision; d.Decision != "no_verdict" {
			t.Errorf("two decision rows gave %q, want no_verdict", d.Decision)
		}
	})
	t.Run("intervals", func(t *testing.T) {
		iv := sc.Intervals
		if iv.Label != "EXPLORATORY" || iv.GateEffect != "none" || len(iv.Rows) != 1 {
			t.Fatalf("intervals %+v", iv)
		}
		r := iv.Rows[0]
		// Hi is NaN → null; seed 2^63+5 = 9223372036854775813 kept exact as a string.
		if r.Hi != nil || r.Lo != nil || r.Estimate == nil || *r.Estimate != 0.5 || r.Seed != "9223372036854775813" {
			t.Errorf("interval row %+v", r)
		}
	})
}

func TestMarshalScorecard(t *testing.T) {
	sc := Build(fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), "t")
	a, err := Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("trailing_newline", func(t *testing.T) {
		if !bytes.HasSuffix(a, []byte("}\n")) {
			t.Errorf("scorecard does not end in a newline: %q", a[len(a)-5:])
		}
	})
	t.Run("field_order", func(t *testing.T) {
		keys := []string{`"scorecard_version"`, `"campaign_id"`, `"manifest_sha256"`, `"synthetic"`, `"tool_version"`,
			`"kind"`, `"completion"`, `"source_and_protocol"`, `"evidence_and_plan"`, `"cost_and_time"`, `"gates"`,
			`"decision"`, `"intervals"`}
		last := -1
		for _, k := range keys {
			i := bytes.Index(a, []byte(k))
			if i <= last {
				t.Errorf("%s at %d, not after previous key at %d", k, i, last)
			}
			last = i
		}
	})
	t.Run("deterministic", func(t *testing.T) {
		b, _ := Marshal(Build(fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), "t"))
		if !bytes.Equal(a, b) {
			t.Error("two encodings differ")
		}
	})
	t.Run("nulls_not_zero", func(t *testing.T) {
		if !bytes.Contains(a, []byte(`"session_actual_charge": null`)) || !bytes.Contains(a, []byte(`"hi": null`)) {
			t.Error("unavailable values are not encoded as null")
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func marshalAny(v any) ([]byte, error) { return json.Marshal(v) }

// equalJSON compares two values by their scorecard encoding.
func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err1 := marshalAny(a)
	jb, err2 := marshalAny(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return bytes.Equal(ja, jb)
}
