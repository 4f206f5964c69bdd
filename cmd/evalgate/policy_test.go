package main

// Policy tests: a preset's numbers are frozen — each one-edit probe of a
// threshold, ceiling or pin gives no_verdict naming the field through the
// CLI, and its custom twin is labelled a custom policy; and no gate or
// decision depends on the exploratory intervals.

import (
	"bytes"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures/controls"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// contractNumbers are the frozen numbers as contract #741 (§4, §5, §6) and
// the reviewer-benchmark pilot plan state them, typed by hand from the documents: every preset must
// fix exactly these, so a number moved in code fails here.
var contractNumbers = map[rules.PresetName]map[string]string{
	rules.PresetEvaluation: pairedContract("4"),
	// §5 round 2: "positive improvement on at least two of four tasks".
	rules.PresetDevelopmentRound2: pairedContract("2"),
	rules.PresetSystemComparison: merge(contract741Pins, map[string]string{
		// §6: the same absolute source/safety and final-plan floors; Madar at
		// least 15% cheaper and faster than Native (ratio ≤ 0.85) with no
		// critical loss; against Serena at most 0.05 macro loss and 5%
		// regression (≤ 1.05); no task-median regression > 15%, individual > 25%.
		"g1_critical_source": "0", "g2_task_floor": "0.80", "g2_macro_floor": "0.90", "g2_uncertainty": "0", "g4_protocol": "0",
		"sc_baseline_cost_aggregate": "0.85", "sc_baseline_time_aggregate": "0.85", "sc_baseline_critical_loss": "0",
		"sc_comparator_macro_loss": "0.05", "sc_comparator_cost_aggregate": "1.05", "sc_comparator_time_aggregate": "1.05",
		"sc_baseline_cost_task": "1.15", "sc_baseline_time_task": "1.15", "sc_comparator_cost_task": "1.15", "sc_comparator_time_task": "1.15",
		"sc_baseline_cost_pair": "1.25", "sc_baseline_time_pair": "1.25", "sc_comparator_cost_pair": "1.25", "sc_comparator_time_pair": "1.25",
		"g5_session_limits": "0", "sc_workflow_limits": "0",
		// §6 campaign: 72 planned model sessions, at most 90, 8 h, 3M/600k,
		// US$30/US$30; 90,000/8,000 per session; a session within its
		// workflow's 12 minutes; §5's one replacement.
		"/ceilings/session/wall_ms": "720000", "/ceilings/session/input_tokens": "90000", "/ceilings/session/output_tokens": "8000",
		"/ceilings/campaign/planned_sessions": "72", "/ceilings/campaign/total_sessions": "90", "/ceilings/campaign/wall_ms": "28800000",
		"/ceilings/campaign/input_tokens": "3000000", "/ceilings/campaign/output_tokens": "600000",
		"/ceilings/campaign/reference_cost": "30", "/ceilings/campaign/actual_cost": "30", "/ceilings/campaign/infrastructure_replacements": "1",
	}),
	rules.PresetReviewerBenchmark: {
		// The reviewer-benchmark pilot plan: contract and regression cases pass, false blocking falls
		// (at least one fewer), no detection regression, within the budget;
		// the US$150 hard cap; no upheld block of an audited clean case awaiting
		// label adjudication ("every original label remains provisional");
		// decidability and execution errors no worse on either model.
		"rb_contract": "0", "rb_regression": "0", "rb_blocking_selection": "1", "rb_detection_selection": "0",
		"rb_blocking_final": "1", "rb_detection_final": "0", "rb_budget": "0", "rb_labels_settled": "0", "rb_decidability": "0", "rb_execution_errors": "0",
		"/ceilings/campaign/reference_cost": "150", "/ceilings/campaign/actual_cost": "150",
	},
}

// contract741Pins are §5's pins: Codex CLI 0.149.0, gpt-5.6-sol, reasoning
// medium, Standard processing with Fast mode disabled, Node 22.22.3, the
// Codex/Work card checked 5 September 2026 (US$4, US$0.40, US$20 per
// million; no cache-write modifier).
var contract741Pins = map[string]string{
	"/identities/requested_model": "gpt-5.6-sol", "/identities/cli_version": "0.149.0", "/identities/reasoning_effort": "medium",
	"/identities/service_tier": "standard (fast mode disabled)", "/identities/runtimes/node": "22.22.3",
	"/rate_cards/requested_model/date_checked": "2026-09-05", "/rate_cards/requested_model/currency": "USD",
	"/rate_cards/requested_model/prices/uncached_input": "4", "/rate_cards/requested_model/prices/cached_input": "0.40",
	"/rate_cards/requested_model/prices/cache_write_5m": "null", "/rate_cards/requested_model/prices/cache_write_1h": "null",
	"/rate_cards/requested_model/prices/output": "20",
}

// pairedContract is §4's gates 1–4 and cost/time bounds, §5's ceilings
// (96 planned, 120 total, one replaced triplet, 4 min and 90,000/8,000
// tokens per session, 8 h, 3M/600k tokens, US$30/US$30) and pins.
func pairedContract(improved string) map[string]string {
	return merge(contract741Pins, map[string]string{
		"g1_critical_source": "0", "g2_task_floor": "0.80", "g2_macro_floor": "0.90", "g2_uncertainty": "0",
		"g3_macro_gain": "0.10", "g3_improved_tasks": improved, "g3_max_task_drop": "0.05", "g4_protocol": "0",
		"g5_cost_aggregate": "1.10", "g5_time_aggregate": "1.10", "g5_cost_task": "1.15", "g5_time_task": "1.15",
		"g5_cost_pair": "1.25", "g5_time_pair": "1.25", "g5_session_limits": "0",
		"/ceilings/session/wall_ms": "240000", "/ceilings/session/input_tokens": "90000", "/ceilings/session/output_tokens": "8000",
		"/ceilings/campaign/planned_sessions": "96", "/ceilings/campaign/total_sessions": "120", "/ceilings/campaign/wall_ms": "28800000",
		"/ceilings/campaign/input_tokens": "3000000", "/ceilings/campaign/output_tokens": "600000",
		"/ceilings/campaign/reference_cost": "30", "/ceilings/campaign/actual_cost": "30", "/ceilings/campaign/infrastructure_replacements": "1",
	})
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestPresetNumbersAreTheContracts: every preset fixes exactly the numbers
// the documents state, no more and no fewer.
func TestPresetNumbersAreTheContracts(t *testing.T) {
	for _, p := range rules.Presets() {
		want := contractNumbers[p.Name]
		got := map[string]string{}
		for _, g := range p.Gates {
			got[string(g.Gate)] = g.Threshold
		}
		for _, n := range p.Numbers {
			got[n.Field] = n.Value
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("preset %s fixes\n%v\nthe documents state\n%v", p.Name, got, want)
		}
	}
	if len(rules.Presets()) != len(contractNumbers) {
		t.Errorf("%d presets, %d in the documents", len(rules.Presets()), len(contractNumbers))
	}
}

// probeCustom is the custom policy the custom twins of the probes declare.
const probeCustom = "probe-custom"

// probe is one one-edit change of a preset number on a copy of an example
// that advances under it.
type probe struct {
	name    string
	example string
	code    rules.Code // the finding that must name the field
	edit    func(m *tables.Manifest)
	twin    bool // also run its custom twin
}

// step is the smallest loosening of threshold text: one unit of its last
// written decimal place (an integer's unit is 1), added to an upper bound,
// taken from a lower one. A lower bound of 0 cannot be loosened in the
// format (no negative threshold): it is tightened by the same step, which
// is refused as well.
func step(t *testing.T, text string, cmp rules.Comparison) (string, string) {
	t.Helper()
	places := 0
	if _, frac, ok := strings.Cut(text, "."); ok {
		places = len(frac)
	}
	v, ok := new(big.Rat).SetString(text)
	if !ok {
		t.Fatalf("threshold %q", text)
	}
	unit := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil))
	how := "loosened"
	switch {
	case cmp == rules.AtMost:
		v.Add(v, unit)
	case v.Sign() > 0:
		v.Sub(v, unit)
	default:
		v.Add(v, unit)
		how = "tightened (a lower bound of 0 cannot be loosened)"
	}
	return v.FloatString(places), how
}

// examplesOf are the embedded examples that advance under each preset.
// development-round2-v1 has none (no example has four two-round
// development tasks): TestDevelopmentPresetFrozen checks it on the
// manifest.
var examplesOf = map[rules.PresetName]string{
	rules.PresetEvaluation:        controls.GreenExample,
	rules.PresetSystemComparison:  "system-comparison-green",
	rules.PresetReviewerBenchmark: "reviewer-benchmark",
}

func probes(t *testing.T) []probe {
	var out []probe
	for _, p := range rules.Presets() {
		ex, ok := examplesOf[p.Name]
		if !ok {
			continue
		}
		for _, g := range p.Gates {
			doc, _ := rules.FindGate(g.Gate)
			v, how := step(t, g.Threshold, doc.Compare)
			out = append(out, probe{
				name: fmt.Sprintf("%s threshold %s %s %s %s to %s", p.Name, g.Gate, doc.Compare, g.Threshold, how, v), example: ex,
				code: rules.Code("preset_threshold_" + string(g.Gate)),
				edit: func(m *tables.Manifest) {
					m.GatePolicy.Thresholds = append(m.GatePolicy.Thresholds, tables.Threshold{Name: string(g.Gate), Value: v})
				},
				twin: p.Name == rules.PresetEvaluation,
			})
		}
	}
	// Every ceiling of the green campaign raised by one unit (a millisecond,
	// a token, a session, a pico-dollar); the replacement allowance 1 → 2.
	ceiling := func(name, code string, edit func(c *tables.Ceilings)) probe {
		return probe{name: "ceiling " + name, example: controls.GreenExample, code: rules.Code("preset_ceiling_" + code), twin: true,
			edit: func(m *tables.Manifest) { edit(&m.Ceilings) }}
	}
	const pico = "000000000001"
	out = append(out,
		ceiling("session wall 240000 → 240001 ms", "session_wall_ms", func(c *tables.Ceilings) { c.Session.WallMS++ }),
		ceiling("session input 90000 → 90001", "session_input_tokens", func(c *tables.Ceilings) { c.Session.InputTokens++ }),
		ceiling("session output 8000 → 8001", "session_output_tokens", func(c *tables.Ceilings) { c.Session.OutputTokens++ }),
		ceiling("planned sessions 96 → 97", "campaign_planned_sessions", func(c *tables.Ceilings) { c.Campaign.PlannedSessions++ }),
		ceiling("total sessions 120 → 121", "campaign_total_sessions", func(c *tables.Ceilings) { c.Campaign.TotalSessions++ }),
		ceiling("campaign wall 28800000 → 28800001 ms", "campaign_wall_ms", func(c *tables.Ceilings) { c.Campaign.WallMS++ }),
		ceiling("campaign input 3000000 → 3000001", "campaign_input_tokens", func(c *tables.Ceilings) { c.Campaign.InputTokens++ }),
		ceiling("campaign output 600000 → 600001", "campaign_output_tokens", func(c *tables.Ceilings) { c.Campaign.OutputTokens++ }),
		ceiling("reference cost US$30 → 30.000000000001", "campaign_reference_cost", func(c *tables.Ceilings) { c.Campaign.ReferenceCost = "30." + pico }),
		ceiling("actual cost US$30 → 30.000000000001", "campaign_actual_cost", func(c *tables.Ceilings) { c.Campaign.ActualCost = "30." + pico }),
		ceiling("infrastructure replacements 1 → 2", "campaign_infrastructure_replacements", func(c *tables.Ceilings) { c.Campaign.InfrastructureReplacements = 2 }),
	)
	// Every pin changed.
	pin := func(name, code string, edit func(m *tables.Manifest)) probe {
		return probe{name: "pin " + name, example: controls.GreenExample, code: rules.Code("preset_pin_" + code), twin: true, edit: edit}
	}
	str := func(s string) *string { return &s }
	card := func(edit func(r *tables.RateCard)) func(m *tables.Manifest) {
		return func(m *tables.Manifest) { edit(&m.RateCards[0]) }
	}
	out = append(out,
		pin("requested model gpt-5.6-sol → gpt-5.6-sol-pro (and its card)", "requested_model", func(m *tables.Manifest) {
			m.Identities.RequestedModel, m.RateCards[0].Model = "gpt-5.6-sol-pro", "gpt-5.6-sol-pro"
		}),
		pin("Codex CLI 0.149.0 → 0.149.1", "cli_version", func(m *tables.Manifest) { m.Identities.CLIVersion = "0.149.1" }),
		pin("reasoning effort → high", "reasoning_effort", func(m *tables.Manifest) { m.Identities.ReasoningEffort = str("high") }),
		pin("service tier → fast", "service_tier", func(m *tables.Manifest) { m.Identities.ServiceTier = str("standard (fast mode enabled)") }),
		pin("Node 22.22.3 → 22.22.4", "node", func(m *tables.Manifest) { m.Identities.Runtimes[0].Version = "22.22.4" }),
		pin("rate card checked 2026-09-06", "rate_card_date_checked", card(func(r *tables.RateCard) { r.DateChecked = "2026-09-06" })),
		pin("rate card in EUR", "rate_card_currency", card(func(r *tables.RateCard) { r.Currency = "EUR" })),
		pin("uncached input US$4 → 4.000001", "rate_card_uncached_input", card(func(r *tables.RateCard) { r.Prices.UncachedInput = "4.000001" })),
		pin("cached input US$0.40 → 0.400001", "rate_card_cached_input", card(func(r *tables.RateCard) { r.Prices.CachedInput = str("0.400001") })),
		pin("cache write 5m priced", "rate_card_cache_write_5m", card(func(r *tables.RateCard) { r.Prices.CacheWrite5m = str("5") })),
		pin("cache write 1h priced", "rate_card_cache_write_1h", card(func(r *tables.RateCard) { r.Prices.CacheWrite1h = str("8") })),
		pin("output US$20 → 20.000001", "rate_card_output", card(func(r *tables.RateCard) { r.Prices.Output = "20.000001" })),
	)
	return out
}

// TestPresetProbes are the one-edit probes: on a copy of an example that
// advances under its preset, each edit of one preset number alone gives
// no_verdict naming the field in validate and in run; its custom twin (the
// same edit under gate_policy.custom) is judged as a custom policy, which
// every decision says, and an advance of it never names a preset.
func TestPresetProbes(t *testing.T) {
	for _, ex := range examplesOf {
		if o := judgeExample(t, ex, nil); o.run.Decision != "advance" {
			t.Fatalf("setup: %s decides %s (%s)", ex, o.run.Decision, o.run.Reason)
		}
	}
	for _, pr := range probes(t) {
		t.Run(pr.name, func(t *testing.T) {
			t.Parallel()
			o := judgeExample(t, pr.example, func(c *controls.Campaign) error { return c.EditManifest(pr.edit) })
			o.wantNoVerdict(t, pr.code)
			if !strings.HasPrefix(o.run.Policy, "preset ") {
				t.Errorf("policy %q, want the preset's", o.run.Policy)
			}
			if !pr.twin {
				return
			}
			tw := judgeCopy(t, pr.example, func(c *controls.Campaign) error {
				return c.EditManifest(func(m *tables.Manifest) { pr.edit(m); m.GatePolicy.Custom = probeCustom })
			}, false)
			label := "custom policy " + probeCustom + " — not contract #741's frozen rules"
			if tw.run.Policy != label {
				t.Errorf("custom twin: policy %q, want %q", tw.run.Policy, label)
			}
			if slices.Contains(tw.run.RejectingCodes, string(pr.code)) {
				t.Errorf("custom twin still reports %s", pr.code)
			}
			if tw.run.Decision == "advance" && (!strings.HasPrefix(tw.run.Reason, label) || strings.Contains(tw.run.Reason, "-v1")) {
				t.Errorf("custom twin's advance reason %q must name the custom policy and no preset", tw.run.Reason)
			}
		})
	}
}

// TestCustomTwinsOfLoosenedThresholdsAdvance: a loosened threshold under a
// custom policy is applied (the green campaign advances, every gate
// passing) and the decision is the custom policy's, never the preset's.
func TestCustomTwinsOfLoosenedThresholdsAdvance(t *testing.T) {
	o := judgeGreen(t, func(c *controls.Campaign) error {
		return c.EditManifest(func(m *tables.Manifest) {
			m.GatePolicy.Custom = probeCustom
			m.GatePolicy.Thresholds = []tables.Threshold{{Name: "g2_task_floor", Value: "0.79"}, {Name: "g5_cost_pair", Value: "1.26"}}
		})
	})
	o.wantAdvance(t)
	want := "custom policy probe-custom — not contract #741's frozen rules: every gate passes; "
	if !strings.HasPrefix(o.run.Reason, want) || strings.Contains(o.run.Reason, "paired-review-evaluation-v1") {
		t.Errorf("reason %q, want it to start %q and name no preset", o.run.Reason, want)
	}
}

// TestCustomPolicyIDCannotBeAPreset: a custom policy named like a preset
// (or a placeholder) is refused, so no custom policy passes for one.
func TestCustomPolicyIDCannotBeAPreset(t *testing.T) {
	for _, id := range []string{"paired-review-evaluation-v1", "reviewer-benchmark-v1", "TBD"} {
		t.Run(id, func(t *testing.T) {
			judgeGreen(t, func(c *controls.Campaign) error {
				return c.EditManifest(func(m *tables.Manifest) { m.GatePolicy.Custom = id })
			}).wantNoVerdict(t, rules.CodePolicyCustomID)
		})
	}
}

// TestPresetOverrideOfItsOwnValue: an override stating the preset's own
// value (however written) changes nothing.
func TestPresetOverrideOfItsOwnValue(t *testing.T) {
	judgeGreen(t, func(c *controls.Campaign) error {
		return c.EditManifest(func(m *tables.Manifest) {
			m.GatePolicy.Thresholds = []tables.Threshold{{Name: "g2_task_floor", Value: "0.8"}, {Name: "g3_improved_tasks", Value: "4.00"}}
		})
	}).wantAdvance(t)
}

// TestRateCardOfAnotherModel: a card pricing another model than the
// requested one is refused by validate and run, under a custom policy too.
func TestRateCardOfAnotherModel(t *testing.T) {
	judgeGreen(t, func(c *controls.Campaign) error {
		return c.EditManifest(func(m *tables.Manifest) { m.GatePolicy.Custom = probeCustom; m.RateCards[0].Model = "gpt-5.6-sol-mini" })
	}).wantNoVerdict(t, rules.CodeRateCardModel)
}

// TestEvaluatorPinned: a campaign pinned to this evaluator's version is
// judged; one pinned to another version gets no verdict.
func TestEvaluatorPinned(t *testing.T) {
	pin := func(v string) func(c *controls.Campaign) error {
		return func(c *controls.Campaign) error {
			return c.EditManifest(func(m *tables.Manifest) { m.Evaluator = &tables.EvaluatorPin{Version: v} })
		}
	}
	judgeGreen(t, pin("0.1.0")).wantAdvance(t)
	judgeGreen(t, pin("0.0.9")).wantNoVerdict(t, rules.CodeEvaluatorMismatch)
}

// TestGatesIgnoreIntervals: gates.parquet and decision.parquet are
// byte-identical with and without intervals, and their rows identical
// under an absurd interval plan (whose manifest, hence the campaign
// identity in every file's metadata, differs).
func TestGatesIgnoreIntervals(t *testing.T) {
	dir := rcCopyExample(t)
	absurd := semCampaign(t, func(c *controls.Campaign) error {
		return c.EditManifest(func(m *tables.Manifest) {
			m.Intervals = tables.IntervalPlan{Cluster: "repository", Resamples: 1, Seed: 4242}
		})
	})
	outs := map[string]string{"default": t.TempDir(), "no-intervals": t.TempDir(), "absurd": t.TempDir()}
	rcRunPipeline(t, dir, outs["default"])
	rcRunPipeline(t, dir, outs["no-intervals"], "--no-intervals")
	rcRunPipeline(t, absurd, outs["absurd"])
	for _, name := range []string{"gates.parquet", "decision.parquet"} {
		t.Run(name+" bytes", func(t *testing.T) {
			a, b := rcReadFile(t, outs["default"], name), rcReadFile(t, outs["no-intervals"], name)
			if !bytes.Equal(a, b) {
				t.Errorf("%s differs between the default run and --no-intervals", name)
			}
		})
	}
	t.Run("rows under an absurd plan", func(t *testing.T) {
		for _, name := range []string{"gates.parquet", "decision.parquet"} {
			var a, b any
			if name == "gates.parquet" {
				a, b = rcReadTable[tables.Gate](t, outs["default"], name), rcReadTable[tables.Gate](t, outs["absurd"], name)
			} else {
				a, b = rcReadTable[tables.Decision](t, outs["default"], name), rcReadTable[tables.Decision](t, outs["absurd"], name)
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s rows differ under the absurd interval plan:\n%v\n%v", name, a, b)
			}
		}
	})
	t.Run("the plans took effect", func(t *testing.T) {
		if n := len(rcReadTable[tables.Interval](t, outs["no-intervals"], "intervals.parquet")); n != 0 {
			t.Errorf("--no-intervals wrote %d interval rows", n)
		}
		for _, iv := range rcReadTable[tables.Interval](t, outs["absurd"], "intervals.parquet") {
			if iv.Resamples == 10000 || iv.Seed != 4242 {
				t.Fatalf("absurd plan ignored: interval row %+v", iv)
			}
		}
		if bytes.Equal(rcReadFile(t, outs["default"], "intervals.parquet"), rcReadFile(t, outs["absurd"], "intervals.parquet")) {
			t.Error("intervals.parquet is the same under both plans")
		}
	})
}

func rcReadFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
