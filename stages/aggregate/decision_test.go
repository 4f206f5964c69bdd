package aggregate

import (
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

func TestThresholdOverrides(t *testing.T) {
	t.Run("raising the gain threshold flips advance to stop_no_gain", func(t *testing.T) {
		// Gain 0.15 passes 0.10 but not 0.20.
		f := newFixture(t, 8, 1)
		f.c.Manifest.GatePolicy.Custom, f.c.Manifest.GatePolicy.Thresholds = "custom-test-policy", []tables.Threshold{{Name: string(rules.GateMacroGain), Value: "0.20"}}
		f.aggregate()
		f.wantGate(rules.GateMacroGain, "0.15", false)
		if g := f.gate(rules.GateMacroGain); g.Threshold != ">= 0.20" {
			t.Fatalf("threshold %q", g.Threshold)
		}
		f.wantDecision(tables.DecisionStopNoGain, failingList(rules.GateMacroGain))
	})
	t.Run("lowering the pair bound flips C21's do_not_advance to advance", func(t *testing.T) {
		f := newFixture(t, 8, 3)
		f.setCost("T3", "B", 1, "1.30")
		f.setCost("T3", "B", 2, "1.00")
		f.setCost("T3", "B", 3, "1.00")
		f.c.Manifest.GatePolicy.Custom, f.c.Manifest.GatePolicy.Thresholds = "custom-test-policy", []tables.Threshold{{Name: string(rules.GateCostPair), Value: "1.30"}}
		f.aggregate()
		f.wantDecision(tables.DecisionAdvance, "")
	})
	bad := []struct {
		name string
		th   []tables.Threshold
		code rules.Code
		ptr  string
	}{
		{"unknown name", []tables.Threshold{{Name: "g9_magic", Value: "1"}}, rules.CodeGateThresholdUnknown, "/gate_policy/thresholds/0/name"},
		{"invalid value", []tables.Threshold{{Name: string(rules.GateMacroGain), Value: "1e-1"}}, rules.CodeGateThresholdInvalid, "/gate_policy/thresholds/0/value"},
		{"negative value", []tables.Threshold{{Name: string(rules.GateMacroGain), Value: "-0.1"}}, rules.CodeGateThresholdInvalid, "/gate_policy/thresholds/0/value"},
		{"repeated name", []tables.Threshold{{Name: string(rules.GateMacroGain), Value: "0.10"}, {Name: string(rules.GateMacroGain), Value: "0.00"}}, rules.CodeGateThresholdRepeat, "/gate_policy/thresholds/1/name"},
	}
	for _, tc := range bad {
		t.Run(tc.name+" is refused and gives no_verdict", func(t *testing.T) {
			f := newFixture(t, 8, 1)
			f.c.Manifest.GatePolicy.Custom, f.c.Manifest.GatePolicy.Thresholds = "custom-test-policy", tc.th
			f.aggregate()
			var hit *rules.Finding
			for i := range f.s.Rejections {
				if f.s.Rejections[i].Code == tc.code {
					hit = &f.s.Rejections[i]
				}
			}
			if hit == nil || hit.Pointer != tc.ptr || hit.File != "manifest.json" || hit.Severity != rules.Reject {
				t.Fatalf("findings %v, want %s at %s", f.s.Rejections, tc.code, tc.ptr)
			}
			if d := f.decision(); d.Decision != tables.DecisionNoVerdict {
				t.Fatalf("decision %+v", d)
			}
		})
	}
	t.Run("unknown preset", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.c.Manifest.GatePolicy.Preset = "lenient-v0"
		f.aggregate()
		if !hasCode(f.s.Rejections, rules.CodeGatePresetUnknown) || len(f.s.Gates) != 0 || f.decision().Decision != tables.DecisionNoVerdict {
			t.Fatalf("findings %v gates %d decision %+v", f.s.Rejections, len(f.s.Gates), f.decision())
		}
	})
}

func TestStopNoGain(t *testing.T) {
	t.Run("A ceiling: both arms at 1.00", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		for _, task := range []string{"T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"} {
			f.setR(task, "A", 0, 100)
			f.setR(task, "B", 0, 100)
		}
		f.aggregate()
		f.wantGate(rules.GateMacroGain, "0", false)
		f.wantGate(rules.GateImprovedTasks, "0", false)
		f.wantDecision(tables.DecisionStopNoGain, failingList(rules.GateMacroGain, rules.GateImprovedTasks))
	})
	t.Run("gain just below 0.10", func(t *testing.T) {
		// B 0.89 everywhere vs A 0.80: gain 0.09; B's macro 0.89 < 0.90 too.
		f := newFixture(t, 8, 1)
		for _, task := range []string{"T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"} {
			f.setR(task, "B", 0, 89)
		}
		f.aggregate()
		f.wantGate(rules.GateMacroGain, "0.09", false)
		if d := f.decision(); d.Decision != tables.DecisionStopNoGain {
			t.Fatalf("decision %+v", d)
		}
	})
}

func TestNoVerdict(t *testing.T) {
	t.Run("a rejecting campaign finding from load or validate", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.s.Rejections = append(f.s.Rejections, rules.Finding{Code: "duplicate_key", Severity: rules.Reject, File: "receipts.jsonl", Line: 4, Message: "duplicate key"})
		f.aggregate()
		if d := f.decision(); d.Decision != tables.DecisionNoVerdict || !contains(d.Reason, "duplicate_key") {
			t.Fatalf("decision %+v", d)
		}
	})
	t.Run("a malformed answer is the model's scored failure, not an invalid execution", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.s.Sessions = spool.Of(append(f.s.Sessions.Collect(), tables.Session{SessionID: "T1-r1-B", TaskID: "T1", Repetition: 1, Role: "review", Attempt: 1, Classification: "scored_failure"})...)
		f.s.Rejections = append(f.s.Rejections, rules.Finding{Code: rules.CodeJSONSyntax, Severity: rules.Warn, File: "answers/T1-r1-B.json", Session: "T1-r1-B"})
		f.aggregate()
		f.wantDecision(tables.DecisionAdvance, "")
	})
	t.Run("a rejecting finding on a valid session invalidates", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.s.Sessions = spool.Of(append(f.s.Sessions.Collect(), tables.Session{SessionID: "T1-r1-B", TaskID: "T1", Repetition: 1, Role: "review", Attempt: 1, Classification: "valid"})...)
		f.s.Rejections = append(f.s.Rejections, rules.Finding{Code: "identity_mismatch", Severity: rules.Reject, Session: "T1-r1-B"})
		f.aggregate()
		if d := f.decision(); d.Decision != tables.DecisionNoVerdict {
			t.Fatalf("decision %+v", d)
		}
	})
	t.Run("an exceeded replacement allowance gives no verdict", func(t *testing.T) {
		// The validate stage counts the invalid attempts and owns the rule
		// (its run cases test the count); aggregate reads the outcome.
		f := newFixture(t, 8, 1)
		f.replacements = tables.Replacements{Unit: "triplets", Invalid: 1, Allowed: 1}
		f.aggregate()
		f.wantDecision(tables.DecisionAdvance, "")

		f = newFixture(t, 8, 1)
		f.replacements = tables.Replacements{Unit: "triplets", Invalid: 2, Allowed: 1, Exceeded: true}
		f.aggregate()
		if d := f.decision(); d.Decision != tables.DecisionNoVerdict || !contains(d.Reason, "2 infrastructure-invalid triplets, at most 1 may be replaced") {
			t.Fatalf("decision %+v", d)
		}
	})
	t.Run("a missing session", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.edit("T4", "A", 1, func(r *tables.Run) { r.Scored, r.R, r.Classification = false, nil, "missing" })
		f.aggregate()
		if d := f.decision(); d.Decision != tables.DecisionNoVerdict || !contains(d.Reason, "missing session: T4/r1/A") {
			t.Fatalf("decision %+v", d)
		}
	})
	t.Run("a defective oracle", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.s.Rejections = append(f.s.Rejections, rules.Finding{Code: rules.CodeOracleDefective, Severity: rules.Reject, File: "tasks/T1/truth.json"})
		f.aggregate()
		if d := f.decision(); d.Decision != tables.DecisionNoVerdict {
			t.Fatalf("decision %+v", d)
		}
	})
	t.Run("an account tariff finding does not invalidate; it nulls the cost", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.edit("T1", "B", 1, func(r *tables.Run) { r.WorkflowCost = nil })
		f.aggregate()
		f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateCostAggregate, rules.GateCostTask, rules.GateCostPair))
		f.wantGate(rules.GateCostAggregate, "null", false)
	})
}

func TestQualityGates(t *testing.T) {
	t.Run("g1 critical failure in one treatment review", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.edit("T5", "B", 1, func(r *tables.Run) { r.CriticalFailures = 1 })
		f.aggregate()
		f.wantGate(rules.GateCriticalSource, "1", false)
		f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateCriticalSource))
	})
	t.Run("g1 baseline failures do not count", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.edit("T5", "A", 1, func(r *tables.Run) { r.CriticalFailures, r.SourceGate = 2, false })
		f.aggregate()
		f.wantDecision(tables.DecisionAdvance, "")
	})
	t.Run("g2 uncertainty case without full U credit", func(t *testing.T) {
		// T6 has one unanswerable obligation; B credits it in r1 but not r2.
		f := newFixture(t, 8, 2)
		f.edit("T6", "A", 0, func(r *tables.Run) { r.UDen = 1 })
		f.edit("T6", "B", 1, func(r *tables.Run) { r.UNum, r.UDen = 1, 1 })
		f.edit("T6", "B", 2, func(r *tables.Run) { r.UNum, r.UDen = 0, 1 })
		f.aggregate()
		f.wantGate(rules.GateUncertainty, "1", false)
		if g := f.gate(rules.GateUncertainty); strings.Join(g.Failing, ",") != "T6/r2" {
			t.Fatalf("failing %q", g.Failing)
		}
		f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateUncertainty))
	})
	t.Run("g4 protocol failure (valid final, malformed reconciliation)", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.edit("T7", "B", 1, func(r *tables.Run) { r.ProtocolGate = false })
		f.aggregate()
		f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateProtocol))
	})
	t.Run("improvement must be strict", func(t *testing.T) {
		// T1..T5 tie with A at 0.80 (B 0.80); T6..T8 improve to 1.00.
		// Improved 3 < 4. Macro B = (5×0.80+3×1.00)/8 = 0.875 < 0.90.
		f := newFixture(t, 8, 1)
		for _, task := range []string{"T1", "T2", "T3", "T4", "T5"} {
			f.setR(task, "B", 0, 80)
		}
		for _, task := range []string{"T6", "T7", "T8"} {
			f.setR(task, "B", 0, 100)
		}
		f.aggregate()
		f.wantGate(rules.GateImprovedTasks, "3", false)
		f.wantGate(rules.GateMacroFloor, "0.875", false)
		f.wantGate(rules.GateMacroGain, "0.075", false) // 0.875 − 0.80
		f.wantDecision(tables.DecisionStopNoGain, failingList(rules.GateMacroFloor, rules.GateMacroGain, rules.GateImprovedTasks))
	})
}

// TestSessionLimits: the gate reads the account stage's fact
// within_session_ceilings (the inclusive per-session rule is tested in
// stages/account); it never recomputes it or reads findings.
func TestSessionLimits(t *testing.T) {
	t.Run("every session within its ceilings passes", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		f.s.Tokens.Add(soundToken("T1-r1-B"))
		f.aggregate()
		f.wantGate(rules.GateSessionLimits, "0", true)
		f.wantDecision(tables.DecisionAdvance, "")
	})
	t.Run("a session beyond one fails", func(t *testing.T) {
		f := newFixture(t, 8, 1)
		tok := soundToken("T1-r1-B")
		tok.WithinSessionCeilings = false
		f.s.Tokens.Add(tok, soundToken("T1-r1-A"))
		f.aggregate()
		f.wantGate(rules.GateSessionLimits, "1", false)
		if g := f.gate(rules.GateSessionLimits); strings.Join(g.Failing, ",") != "T1-r1-B" {
			t.Fatalf("failing %q", g.Failing)
		}
		f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateSessionLimits))
	})
}

// soundToken is the token row of a dispatched session with every stop
// condition met.
func soundToken(session string) tables.Token {
	return tables.Token{SessionID: session, CostStatus: tables.CostPriced, ReservationPresent: true, ReservationCoversUse: true,
		MeterComplete: true, TimesConsistent: true, WithinSessionCeilings: true, WithinCeilings: true}
}

// TestCostStopConditions: a missing or insufficient reservation, an
// incomplete meter or an unpriced cost makes every cost gate fail with the
// session and the reason, so the decision is never advance; time gates
// are unaffected.
func TestCostStopConditions(t *testing.T) {
	cases := []struct {
		name string
		edit func(*tables.Token)
		why  string
	}{
		{"no reservation", func(t *tables.Token) { t.ReservationPresent, t.ReservationCoversUse = false, false }, "no reservation"},
		{"reservation below use", func(t *tables.Token) { t.ReservationCoversUse = false }, "use not covered by its reservation"},
		{"incomplete meter", func(t *tables.Token) { t.MeterComplete = false }, "meter incomplete"},
		{"missing tariff", func(t *tables.Token) { t.CostStatus = tables.CostMissingTariff }, "cost missing_tariff"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, 8, 1)
			tok := soundToken("T2-r1-A")
			tc.edit(&tok)
			f.s.Tokens.Add(soundToken("T1-r1-B"), tok)
			f.aggregate()
			for _, g := range []rules.GateName{rules.GateCostAggregate, rules.GateCostTask, rules.GateCostPair} {
				gate := f.gate(g)
				if gate.Pass || !slices.Contains(gate.Failing, "T2-r1-A") || !contains(gate.Detail, "T2-r1-A ("+tc.why+")") {
					t.Errorf("%s: pass %v failing %q detail %q", g, gate.Pass, gate.Failing, gate.Detail)
				}
			}
			f.wantGate(rules.GateTimeAggregate, "1.05", true) // the fixture's B time is 5% above A's
			f.wantDecision(tables.DecisionDoNotAdvance, failingList(rules.GateCostAggregate, rules.GateCostTask, rules.GateCostPair))
		})
	}
}

// TestCampaignCeilings: a campaign ceiling that did not hold (the account
// stage's ceilings table) gives no_verdict naming the ceiling; one that
// held changes nothing.
func TestCampaignCeilings(t *testing.T) {
	held, over := true, false
	limit, at, above := int64(3_000_000), int64(3_000_000), int64(3_000_001)
	f := newFixture(t, 8, 1)
	f.s.Ceilings = []tables.Ceiling{{Ceiling: "input_tokens", Unit: "tokens", Limit: &limit, Use: &at, Held: &held}}
	f.aggregate()
	f.wantDecision(tables.DecisionAdvance, "")

	f = newFixture(t, 8, 1)
	f.s.Ceilings = []tables.Ceiling{{Ceiling: "input_tokens", Unit: "tokens", Limit: &limit, Use: &above, Held: &over}}
	f.aggregate()
	if d := f.decision(); d.Decision != tables.DecisionNoVerdict || !contains(d.Reason, "campaign ceiling input_tokens exceeded (3000001 tokens used, limit 3000000)") {
		t.Fatalf("decision %+v", d)
	}
}

func TestDevelopmentRound2(t *testing.T) {
	// Four development tasks, two rounds. Round 1 (r1) is poor and is not
	// judged; round 2 (r2) improves T1 and T2 (0.80 → 1.00) and ties T3, T4
	// at 0.90. Macro B = (1+1+0.9+0.9)/4 = 0.95; A = (0.8+0.8+0.9+0.9)/4 =
	// 0.85; gain 0.10 exactly; 2 of 4 improved ≥ 2.
	f := newFixture(t, 4, 2)
	f.c.Manifest.GatePolicy.Preset = string(rules.PresetDevelopmentRound2)
	for i := range f.c.Manifest.Design.Tasks {
		f.c.Manifest.Design.Tasks[i].Split = "development"
	}
	for _, task := range []string{"T1", "T2", "T3", "T4"} {
		f.setR(task, "B", 1, 10)
	}
	f.setR("T1", "B", 2, 100)
	f.setR("T2", "B", 2, 100)
	for _, task := range []string{"T3", "T4"} {
		f.setR(task, "A", 2, 90)
		f.setR(task, "B", 2, 90)
	}
	f.aggregate()
	f.wantGate(rules.GateMacroGain, "0.1", true)
	f.wantGate(rules.GateImprovedTasks, "2", true)
	if g := f.gate(rules.GateImprovedTasks); g.Threshold != ">= 2" {
		t.Fatalf("threshold %q", g.Threshold)
	}
	f.wantDecision(tables.DecisionAdvance, "")

	t.Run("the evaluation preset finds no evaluation task", func(t *testing.T) {
		f.s.Gates, f.s.Decision, f.s.Tasks, f.s.Repositories, f.s.Rejections = nil, nil, nil, nil, nil
		f.c.Manifest.GatePolicy.Preset = string(rules.PresetEvaluation)
		f.aggregate()
		if !hasCode(f.s.Rejections, rules.CodeGateNoTasks) || f.decision().Decision != tables.DecisionNoVerdict {
			t.Fatalf("findings %v decision %+v", f.s.Rejections, f.decision())
		}
	})
}

func TestRepositories(t *testing.T) {
	// R1 holds T1 and T2. With one repetition, B's R is 0.95 on both
	// (mean 0.95) and B's total cost 2 × 1.05 = 2.10.
	f := newFixture(t, 8, 1)
	f.aggregate()
	if len(f.s.Repositories) != 8 {
		t.Fatalf("got %d repository rows, want 4 repositories × 2 arms", len(f.s.Repositories))
	}
	r := f.s.Repositories[1]
	if r.Repository != "R1" || r.Arm != "B" || r.Tasks != 2 || r.Runs != 2 || *r.MeanMedianR != 0.95 || r.TotalCost.String() != "2.10" {
		t.Fatalf("repository row %+v", r)
	}
}
