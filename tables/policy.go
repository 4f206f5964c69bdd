package tables

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
)

// PolicyNumber is one number a policy applied, as scorecard.json lists it.
type PolicyNumber struct {
	Field       string  `json:"field"` // manifest JSON pointer (rules.ThresholdField for a gate)
	Kind        string  `json:"kind"`  // threshold, ceiling or pin
	Name        string  `json:"name"`
	Comparison  string  `json:"comparison,omitzero"` // a threshold's >= or <=
	Value       *string `json:"value"`               // what was applied; null when the manifest states none
	PresetValue *string `json:"preset_value"`        // the (base) preset's frozen value, also for a custom policy: what a custom number departs from
}

// AppliedPolicy is the policy that judged a campaign: its identity and
// every number it applied.
type AppliedPolicy struct {
	ID      string           // the preset's name, or the custom ID
	Custom  bool             // a custom policy: not the preset's frozen rules
	BasedOn rules.PresetName // the preset whose gates and judged runs it uses
	Preset  *rules.Preset    // nil when BasedOn names no preset
	Numbers []PolicyNumber   // thresholds in gate order, then the preset's other numbers
}

// Label is how every output names the policy.
func (a AppliedPolicy) Label() string {
	switch {
	case a.Custom:
		return rules.CustomLabel(a.ID, a.Preset)
	case a.Preset != nil:
		return a.Preset.Label()
	}
	return fmt.Sprintf("unknown preset %q — no frozen rules", a.ID)
}

// ResolvePolicy is the policy the manifest's gate_policy names. A preset
// applies its own thresholds whatever the manifest's overrides say (a
// differing override is a finding of the policy check, never applied); a
// custom policy applies its overrides. Every number is listed with the
// manifest's value (the one the evaluator enforces for ceilings and pins)
// and the preset's.
func ResolvePolicy(m *Manifest) AppliedPolicy {
	gp := m.GatePolicy
	a := AppliedPolicy{ID: gp.Preset, BasedOn: rules.PresetName(gp.Preset), Custom: gp.Custom != ""}
	if a.Custom {
		a.ID = gp.Custom
	}
	p, ok := rules.FindPreset(a.BasedOn)
	if !ok {
		return a
	}
	a.Preset = &p
	for _, g := range p.Gates {
		doc, _ := rules.FindGate(g.Gate)
		preset := g.Threshold
		value := preset
		if a.Custom {
			if o, ok := Override(gp, g.Gate); ok {
				value = o
			}
		}
		a.Numbers = append(a.Numbers, PolicyNumber{Field: rules.ThresholdField(g.Gate), Kind: rules.NumberThreshold, Name: string(g.Gate), Comparison: string(doc.Compare), Value: &value, PresetValue: &preset})
	}
	for _, pn := range p.Numbers {
		preset := pn.Value
		a.Numbers = append(a.Numbers, PolicyNumber{Field: pn.Field, Kind: pn.Kind, Name: pn.Name, Value: ManifestValue(m, pn.Field), PresetValue: &preset})
	}
	return a
}

// Override returns the manifest's override of gate g, the last one when
// repeated (a repeat is refused by the aggregate stage).
func Override(gp GatePolicy, g rules.GateName) (string, bool) {
	v, ok := "", false
	for _, o := range gp.Thresholds {
		if rules.GateName(o.Name) == g {
			v, ok = o.Value, true
		}
	}
	return v, ok
}

// RequestedRateCard returns the index of the first rate card pricing the
// requested model, or -1.
func RequestedRateCard(m *Manifest) int {
	return slices.IndexFunc(m.RateCards, func(r RateCard) bool { return r.Model == m.Identities.RequestedModel })
}

// ManifestValue is the manifest's value at a preset field, nil when it
// states none (an absent optional identity, no node runtime, no rate card
// for the requested model). An unpriced rate-card bucket is "null".
func ManifestValue(m *Manifest, field string) *string {
	s := func(v string) *string { return &v }
	d := func(v int64) *string { return s(fmt.Sprint(v)) }
	ce, id := &m.Ceilings, &m.Identities
	switch field {
	case rules.FieldSessionWall:
		return d(ce.Session.WallMS)
	case rules.FieldSessionInput:
		return d(ce.Session.InputTokens)
	case rules.FieldSessionOutput:
		return d(ce.Session.OutputTokens)
	case rules.FieldPlannedSessions:
		return d(ce.Campaign.PlannedSessions)
	case rules.FieldTotalSessions:
		return d(ce.Campaign.TotalSessions)
	case rules.FieldCampaignWall:
		return d(ce.Campaign.WallMS)
	case rules.FieldCampaignInput:
		return d(ce.Campaign.InputTokens)
	case rules.FieldCampaignOutput:
		return d(ce.Campaign.OutputTokens)
	case rules.FieldReferenceCost:
		return s(ce.Campaign.ReferenceCost)
	case rules.FieldActualCost:
		return s(ce.Campaign.ActualCost)
	case rules.FieldReplacements:
		return d(ce.Campaign.InfrastructureReplacements)
	case rules.FieldRequestedModel:
		return s(id.RequestedModel)
	case rules.FieldCLIVersion:
		return s(id.CLIVersion)
	case rules.FieldReasoningEffort:
		return id.ReasoningEffort
	case rules.FieldServiceTier:
		return id.ServiceTier
	case rules.FieldNodeRuntime:
		for _, r := range id.Runtimes {
			if r.Name == "node" {
				return s(r.Version)
			}
		}
		return nil
	}
	i := RequestedRateCard(m)
	if i < 0 || !strings.HasPrefix(field, "/rate_cards/requested_model/") {
		return nil
	}
	r := &m.RateCards[i]
	price := func(p *string) *string {
		if p == nil {
			return s("null")
		}
		return p
	}
	switch field {
	case rules.FieldRateCardDate:
		return s(r.DateChecked)
	case rules.FieldRateCardCurrency:
		return s(r.Currency)
	case rules.FieldRateUncached:
		return s(r.Prices.UncachedInput)
	case rules.FieldRateCached:
		return price(r.Prices.CachedInput)
	case rules.FieldRateWrite5m:
		return price(r.Prices.CacheWrite5m)
	case rules.FieldRateWrite1h:
		return price(r.Prices.CacheWrite1h)
	case rules.FieldRateOutput:
		return s(r.Prices.Output)
	}
	return nil
}

// ManifestPointer is where a preset field lies in the manifest, for a
// finding's position: the rate card's fields under its index, the node
// runtime under its index (or the runtimes list when there is none).
func ManifestPointer(m *Manifest, field string) string {
	if rest, ok := strings.CutPrefix(field, "/rate_cards/requested_model"); ok {
		if i := RequestedRateCard(m); i >= 0 {
			return fmt.Sprintf("/rate_cards/%d%s", i, rest)
		}
		return "/rate_cards"
	}
	if field == rules.FieldNodeRuntime {
		if i := slices.IndexFunc(m.Identities.Runtimes, func(r Runtime) bool { return r.Name == "node" }); i >= 0 {
			return fmt.Sprintf("/identities/runtimes/%d/version", i)
		}
		return "/identities/runtimes"
	}
	return field
}
