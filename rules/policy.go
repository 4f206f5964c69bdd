package rules

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"
)

// The frozen policies (rule F1). A preset is the one source of the numbers
// of the rules it states: its gate thresholds (Preset.Gates) and every other
// number and pinned value (Preset.Numbers: ceilings, the infrastructure
// replacement allowance, the pinned consumer and rate card). A manifest
// names its preset in gate_policy.preset; every number it states is
// compared with the preset's, and one that differs, stricter or looser,
// rejects the campaign with a code naming the field (PolicyCode). A custom
// policy (gate_policy.custom, an ID that is not a preset's) applies the
// manifest's own numbers, and every output says it is custom.

// Kinds of a policy number.
const (
	NumberThreshold = "threshold"
	NumberCeiling   = "ceiling"
	NumberPin       = "pin"
)

// PresetNumber is one number or pinned value a preset fixes besides its
// gate thresholds: Field is the manifest's JSON pointer (for the rate card,
// /rate_cards/<model>/...: the card whose model is the requested model),
// Name the short name the finding code carries, Value the exact text.
type PresetNumber struct {
	Field  string
	Kind   string // NumberCeiling or NumberPin
	Name   string // e.g. session_wall_ms, cli_version, rate_card_output
	Value  string // exact text; "null" for a price the card must leave unpriced
	Source string // where the contract states it, e.g. "contract #741 §5"
}

// Number returns the preset's fixed number at field.
func (p Preset) Number(field string) (PresetNumber, bool) {
	for _, n := range p.Numbers {
		if n.Field == field {
			return n, true
		}
	}
	return PresetNumber{}, false
}

// Label is how every output names the policy that judged a campaign.
func (p Preset) Label() string {
	return fmt.Sprintf("preset %s — %s's frozen rules", p.Name, p.Source)
}

// CustomLabel is how every output names a custom policy based on the
// preset's gates: never as the preset.
func CustomLabel(id string, base *Preset) string {
	src := "contract #741"
	if base != nil {
		src = base.Source
	}
	return fmt.Sprintf("custom policy %s — not %s's frozen rules", id, src)
}

// ThresholdField is the field of a gate threshold in PolicyNumber rows.
func ThresholdField(g GateName) string { return "/gate_policy/thresholds/" + string(g) }

// PolicyCode is the finding code of a manifest number that differs from its
// preset's: preset_threshold_<gate>, preset_ceiling_<name> or
// preset_pin_<name>.
func PolicyCode(kind, name string) Code { return Code("preset_" + kind + "_" + name) }

// Ceiling and pin fields of the presets (manifest JSON pointers).
const (
	FieldSessionWall      = "/ceilings/session/wall_ms"
	FieldSessionInput     = "/ceilings/session/input_tokens"
	FieldSessionOutput    = "/ceilings/session/output_tokens"
	FieldPlannedSessions  = "/ceilings/campaign/planned_sessions"
	FieldTotalSessions    = "/ceilings/campaign/total_sessions"
	FieldCampaignWall     = "/ceilings/campaign/wall_ms"
	FieldCampaignInput    = "/ceilings/campaign/input_tokens"
	FieldCampaignOutput   = "/ceilings/campaign/output_tokens"
	FieldReferenceCost    = "/ceilings/campaign/reference_cost"
	FieldActualCost       = "/ceilings/campaign/actual_cost"
	FieldReplacements     = "/ceilings/campaign/infrastructure_replacements"
	FieldRequestedModel   = "/identities/requested_model"
	FieldCLIVersion       = "/identities/cli_version"
	FieldReasoningEffort  = "/identities/reasoning_effort"
	FieldServiceTier      = "/identities/service_tier"
	FieldNodeRuntime      = "/identities/runtimes/node"
	FieldRateCardDate     = "/rate_cards/requested_model/date_checked"
	FieldRateCardCurrency = "/rate_cards/requested_model/currency"
	FieldRateUncached     = "/rate_cards/requested_model/prices/uncached_input"
	FieldRateCached       = "/rate_cards/requested_model/prices/cached_input"
	FieldRateWrite5m      = "/rate_cards/requested_model/prices/cache_write_5m"
	FieldRateWrite1h      = "/rate_cards/requested_model/prices/cache_write_1h"
	FieldRateOutput       = "/rate_cards/requested_model/prices/output"
)

// contract741Pins are contract #741 §5's pinned consumer and dated rate
// card: Codex CLI 0.149.0, gpt-5.6-sol, reasoning medium, Standard
// processing with Fast mode disabled, Node 22.22.3, and the Codex/Work
// token-USD card checked 5 September 2026 (US$4 uncached input, US$0.40
// cached input, US$20 output per million tokens, no cache-write modifier).
func contract741Pins() []PresetNumber {
	const s = "contract #741 §5"
	return []PresetNumber{
		{FieldRequestedModel, NumberPin, "requested_model", "gpt-5.6-sol", s},
		{FieldCLIVersion, NumberPin, "cli_version", "0.149.0", s},
		{FieldReasoningEffort, NumberPin, "reasoning_effort", "medium", s},
		{FieldServiceTier, NumberPin, "service_tier", "standard (fast mode disabled)", s},
		{FieldNodeRuntime, NumberPin, "node", "22.22.3", s},
		{FieldRateCardDate, NumberPin, "rate_card_date_checked", "2026-09-05", s},
		{FieldRateCardCurrency, NumberPin, "rate_card_currency", "USD", s},
		{FieldRateUncached, NumberPin, "rate_card_uncached_input", "4", s},
		{FieldRateCached, NumberPin, "rate_card_cached_input", "0.40", s},
		{FieldRateWrite5m, NumberPin, "rate_card_cache_write_5m", "null", s},
		{FieldRateWrite1h, NumberPin, "rate_card_cache_write_1h", "null", s},
		{FieldRateOutput, NumberPin, "rate_card_output", "20", s},
	}
}

// campaignCeilings lists the ceilings in manifest order with the section
// that states them; values in the manifest's units (ms, tokens, sessions,
// US$).
func campaignCeilings(src string, sessionWallMS, planned, total, replacements string) []PresetNumber {
	return []PresetNumber{
		{FieldSessionWall, NumberCeiling, "session_wall_ms", sessionWallMS, src},
		{FieldSessionInput, NumberCeiling, "session_input_tokens", "90000", src},
		{FieldSessionOutput, NumberCeiling, "session_output_tokens", "8000", src},
		{FieldPlannedSessions, NumberCeiling, "campaign_planned_sessions", planned, src},
		{FieldTotalSessions, NumberCeiling, "campaign_total_sessions", total, src},
		{FieldCampaignWall, NumberCeiling, "campaign_wall_ms", "28800000", src},
		{FieldCampaignInput, NumberCeiling, "campaign_input_tokens", "3000000", src},
		{FieldCampaignOutput, NumberCeiling, "campaign_output_tokens", "600000", src},
		{FieldReferenceCost, NumberCeiling, "campaign_reference_cost", "30", src},
		{FieldActualCost, NumberCeiling, "campaign_actual_cost", "30", src},
		{FieldReplacements, NumberCeiling, "campaign_infrastructure_replacements", replacements, src},
	}
}

// pairedNumbers are the first campaign's ceilings (contract #741 §5: 96
// planned D/A/B sessions, at most 120 model sessions, one three-session
// infrastructure replacement, 4 minutes and 90,000/8,000 tokens per
// session, 8 hours, 3,000,000/600,000 tokens and US$30 reference / US$30
// actual per campaign) and its pins. Development and evaluation are one
// campaign, so both paired-review presets fix the same numbers.
func pairedNumbers() []PresetNumber {
	return slices.Concat(campaignCeilings("contract #741 §5", "240000", "96", "120", "1"), contract741Pins())
}

// systemNumbers are the system comparison's own limits (contract #741 §6:
// 72 planned model sessions, at most 90 including retries and preparation,
// 8 hours, 3,000,000/600,000 tokens, US$30 reference / US$30 actual; each
// session 90,000/8,000 tokens and within its workflow's 12 minutes, the
// workflow-limits gate checking 8 minutes of investigation and 4 of
// review) with §5's one replaced infrastructure-invalid unit, and the same
// Codex model and host.
func systemNumbers() []PresetNumber {
	return slices.Concat(campaignCeilings("contract #741 §6", "720000", "72", "90", "1"), contract741Pins())
}

// reviewerBenchmarkNumbers are the reviewer-benchmark pilot plan's frozen
// budget: the separately approved US$150 hard cap on external API/cloud
// spending, kept unchanged in its follow-up. The plan fixes no other
// ceiling or pin: its model routes are per stratum.
func reviewerBenchmarkNumbers() []PresetNumber {
	const s = "the reviewer-benchmark pilot plan's budget"
	return []PresetNumber{
		{FieldReferenceCost, NumberCeiling, "campaign_reference_cost", "150", s},
		{FieldActualCost, NumberCeiling, "campaign_actual_cost", "150", s},
	}
}

var plainDecimal = regexp.MustCompile(`^[0-9]{1,32}(\.[0-9]{1,32})?$`)

// SameValue reports whether a manifest value states the preset's: decimals
// compare exactly by value ("0.8" is "0.80"), anything else as text.
func SameValue(preset string, value *string) bool {
	if value == nil {
		return false
	}
	if plainDecimal.MatchString(preset) && plainDecimal.MatchString(*value) {
		a, _ := new(big.Rat).SetString(preset)
		b, _ := new(big.Rat).SetString(*value)
		return a.Cmp(b) == 0
	}
	return preset == *value
}

// policyCodes are the codes of the policy check: one per field a preset
// fixes (every gate of any preset, every ceiling and pin), the custom-ID
// and rate-card refusals, and the evaluator identity.
func policyCodes() []CodeDoc {
	var out []CodeDoc
	seen := map[Code]bool{}
	add := func(c Code, doc string) {
		if !seen[c] {
			seen[c] = true
			out = append(out, CodeDoc{c, "validate", "F1", doc})
		}
	}
	for _, p := range presets {
		for _, g := range p.Gates {
			add(PolicyCode(NumberThreshold, string(g.Gate)), fmt.Sprintf("The manifest overrides threshold %s of its preset with another value: a preset's thresholds are fixed prospectively, stricter or looser (a custom policy may change them).", g.Gate))
		}
		for _, n := range p.Numbers {
			add(PolicyCode(n.Kind, n.Name), fmt.Sprintf("The manifest's %s %s differs from its preset's frozen value: the preset's numbers are fixed, stricter or looser (a custom policy may change them).", n.Kind, strings.TrimPrefix(n.Field, "/")))
		}
	}
	return append(out,
		CodeDoc{CodePolicyCustomID, "validate", "F1", "A custom gate policy's ID is a preset's name or a placeholder: a custom policy must never be taken for a preset."},
		CodeDoc{CodeRateCardModel, "validate", "A2/F1", "A rate card prices a model other than the requested model: the dated card must be the exact model's."},
		CodeDoc{CodeEvaluatorMismatch, "validate", "F1", "The manifest pins the evaluator version (or commit) it was frozen with and this evaluator is another: the evaluator is frozen with the campaign, and a different one invalidates the comparison."},
		CodeDoc{CodeEvaluatorUnverified, "validate", "F1", "The manifest pins the evaluator's commit but this binary's build recorded none, so the commit could not be compared (the version was)."},
	)
}

// Codes of the policy check besides the per-field preset_* codes.
const (
	CodePolicyCustomID      Code = "policy_custom_id_invalid"
	CodeRateCardModel       Code = "rate_card_model_mismatch"
	CodeEvaluatorMismatch   Code = "evaluator_mismatch"
	CodeEvaluatorUnverified Code = "evaluator_commit_unverified"
)

// EvaluatorVersion is evalgate's version: tool_version in every output, and
// what a manifest's evaluator.version must state.
const EvaluatorVersion = "0.1.0"
