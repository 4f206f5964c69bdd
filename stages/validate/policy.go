package validate

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Policy applies rule F1 to c's manifest alone, as run, validate, preflight
// and admit all do: under a preset every threshold override, ceiling and
// pin must state the preset's own value, stricter or looser (each
// difference its own code, preset_<kind>_<name>, naming the field, the
// preset's value and the manifest's); a custom policy's ID must not be a
// preset's name or a placeholder; a rate card of a campaign on one pinned
// model must price exactly the requested model; and a pinned evaluator
// must be this one. Every finding rejects. An unknown preset is the
// aggregate stage's finding (gate_preset_unknown).
func Policy(c *tables.Campaign) rules.Findings {
	m := &c.Manifest
	var out rules.Findings
	add := func(code rules.Code, ptr, format string, args ...any) {
		out = append(out, rules.Finding{Code: code, Severity: rules.Reject, File: manifestFile, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
	}
	gp := m.GatePolicy
	p, preset := rules.FindPreset(rules.PresetName(gp.Preset))
	switch {
	case gp.Custom != "":
		if _, isPreset := rules.FindPreset(rules.PresetName(gp.Custom)); isPreset || tables.PlaceholderIdentity(gp.Custom) {
			add(rules.CodePolicyCustomID, "/gate_policy/custom", "custom policy ID %q is a preset's name or a placeholder: a custom policy needs an ID of its own", gp.Custom)
		}
	case preset:
		out = append(out, presetNumbers(m, p)...)
	}
	if m.Kind != rules.KindReviewerBenchmark { // one pinned model; a benchmark's strata have a route each
		for i, r := range m.RateCards {
			if !tables.SameModel(r.Model, m.Identities.RequestedModel) { // the model identity rule: one provider prefix ignored
				add(rules.CodeRateCardModel, fmt.Sprintf("/rate_cards/%d/model", i), "rate card %s prices model %q, not the requested model %q: the dated card must be the exact model's", r.ID, r.Model, m.Identities.RequestedModel)
			}
		}
	}
	return append(out, evaluatorIdentity(m)...)
}

// presetNumbers compares every number the manifest states with the
// preset's.
func presetNumbers(m *tables.Manifest, p rules.Preset) rules.Findings {
	var out rules.Findings
	for i, o := range m.GatePolicy.Thresholds {
		g := rules.GateName(o.Name)
		j := presetGate(p, g)
		if j < 0 || rules.SameValue(p.Gates[j].Threshold, &o.Value) {
			continue // an unknown name is the aggregate stage's finding
		}
		doc, _ := rules.FindGate(g)
		out = append(out, rules.Finding{Code: rules.PolicyCode(rules.NumberThreshold, o.Name), Severity: rules.Reject, File: manifestFile,
			Pointer: fmt.Sprintf("/gate_policy/thresholds/%d/value", i),
			Message: fmt.Sprintf("threshold %s is %s %s in preset %s and the manifest sets %s: the preset's thresholds are fixed (to run other numbers, declare your own policy ID at manifest.json#/gate_policy/custom; every output then says it is not the contract's rules)",
				o.Name, doc.Compare, p.Gates[j].Threshold, p.Name, o.Value)})
	}
	for _, n := range p.Numbers {
		v := tables.ManifestValue(m, n.Field)
		if rules.SameValue(n.Value, v) || (v == nil && optionalPin(m, n.Field)) {
			continue
		}
		got := "nothing"
		if v != nil {
			got = fmt.Sprintf("%q", *v)
		}
		out = append(out, rules.Finding{Code: rules.PolicyCode(n.Kind, n.Name), Severity: rules.Reject, File: manifestFile,
			Pointer: tables.ManifestPointer(m, n.Field),
			Message: fmt.Sprintf("%s %s is %q in preset %s (%s) and the manifest states %s: the preset's numbers are fixed, stricter or looser (to run other numbers, declare your own policy ID at manifest.json#/gate_policy/custom; every output then says it is not the contract's rules)",
				n.Kind, n.Name, n.Value, p.Name, n.Source, got)})
	}
	return out
}

// optionalPin reports whether an absent value is the format's to allow:
// a synthetic campaign may leave reasoning effort and service tier
// unpinned (a real one may not: identity_missing), and a missing rate card
// for the requested model is the preflight's and account's refusal.
func optionalPin(m *tables.Manifest, field string) bool {
	switch field {
	case rules.FieldReasoningEffort, rules.FieldServiceTier:
		return true
	}
	return tables.RequestedRateCard(m) < 0 && strings.HasPrefix(field, "/rate_cards/")
}

func presetGate(p rules.Preset, g rules.GateName) int {
	for i, pg := range p.Gates {
		if pg.Gate == g {
			return i
		}
	}
	return -1
}

// evaluatorIdentity refuses a campaign pinned to another evaluator
// (contract #741 §3: the evaluator is frozen with the campaign; §7:
// changing it invalidates the comparison). A pinned commit is checked
// against the binary's own when the build recorded one.
func evaluatorIdentity(m *tables.Manifest) rules.Findings {
	e := m.Evaluator
	if e == nil {
		return nil
	}
	var out rules.Findings
	if e.Version != rules.EvaluatorVersion {
		out = append(out, rules.Finding{Code: rules.CodeEvaluatorMismatch, Severity: rules.Reject, File: manifestFile, Pointer: "/evaluator/version",
			Message: fmt.Sprintf("the campaign was frozen with evaluator version %s and this is evalgate %s: a different evaluator invalidates the comparison", e.Version, rules.EvaluatorVersion)})
	}
	if e.Commit != "" {
		switch rev := buildRevision(); {
		case rev == "":
			out = append(out, rules.Finding{Code: rules.CodeEvaluatorUnverified, Severity: rules.Warn, File: manifestFile, Pointer: "/evaluator/commit",
				Message: fmt.Sprintf("the campaign was frozen with evaluator commit %s and this binary's build recorded no commit, so only its version %s was compared", e.Commit, rules.EvaluatorVersion)})
		case rev != e.Commit:
			out = append(out, rules.Finding{Code: rules.CodeEvaluatorMismatch, Severity: rules.Reject, File: manifestFile, Pointer: "/evaluator/commit",
				Message: fmt.Sprintf("the campaign was frozen with evaluator commit %s and this binary was built from %s: a different evaluator invalidates the comparison", e.Commit, rev)})
		}
	}
	return out
}

// buildRevision is the VCS revision the binary was built from, "" when the
// build did not record one (go test, go run of a tree without VCS).
func buildRevision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			return s.Value
		}
	}
	return ""
}
