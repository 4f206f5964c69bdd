package validate

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// policyCase is one edit of a manifest that states its preset's numbers,
// with the findings Policy must give.
type policyCase struct {
	name    string
	example string
	preset  rules.PresetName // gate_policy.preset set to it first
	edit    func(m *tables.Manifest)
	want    []rules.Code
}

// policyBases are, per preset, an embedded example whose manifest states
// exactly the preset's numbers (the paired-review green example for both
// paired-review presets: development and evaluation are one campaign).
var policyBases = map[rules.PresetName]string{
	rules.PresetEvaluation:        "paired-review-green",
	rules.PresetDevelopmentRound2: "paired-review-green",
	rules.PresetSystemComparison:  "system-comparison-green",
	rules.PresetReviewerBenchmark: "reviewer-benchmark",
}

// changeField sets the manifest's value at a preset field to another one,
// reporting false for a field it does not know.
func changeField(m *tables.Manifest, field string) bool {
	ce, id := &m.Ceilings, &m.Identities
	other := "changed-value"
	card := &tables.RateCard{}
	if i := tables.RequestedRateCard(m); i >= 0 {
		card = &m.RateCards[i]
	}
	switch field {
	case rules.FieldSessionWall:
		ce.Session.WallMS++
	case rules.FieldSessionInput:
		ce.Session.InputTokens--
	case rules.FieldSessionOutput:
		ce.Session.OutputTokens++
	case rules.FieldPlannedSessions:
		ce.Campaign.PlannedSessions--
	case rules.FieldTotalSessions:
		ce.Campaign.TotalSessions++
	case rules.FieldCampaignWall:
		ce.Campaign.WallMS--
	case rules.FieldCampaignInput:
		ce.Campaign.InputTokens++
	case rules.FieldCampaignOutput:
		ce.Campaign.OutputTokens--
	case rules.FieldReferenceCost:
		ce.Campaign.ReferenceCost += ".000000000001"
	case rules.FieldActualCost:
		ce.Campaign.ActualCost = "0.01"
	case rules.FieldReplacements:
		ce.Campaign.InfrastructureReplacements = 0 // stricter is refused too
	case rules.FieldRequestedModel:
		id.RequestedModel, card.Model = other, other
	case rules.FieldCLIVersion:
		id.CLIVersion = other
	case rules.FieldReasoningEffort:
		id.ReasoningEffort = &other
	case rules.FieldServiceTier:
		id.ServiceTier = &other
	case rules.FieldNodeRuntime:
		id.Runtimes[slices.IndexFunc(id.Runtimes, func(r tables.Runtime) bool { return r.Name == "node" })].Version = "18.0.0"
	case rules.FieldRateCardDate:
		card.DateChecked = "2026-10-01"
	case rules.FieldRateCardCurrency:
		card.Currency = "EUR"
	case rules.FieldRateUncached:
		card.Prices.UncachedInput = "3.99"
	case rules.FieldRateCached:
		card.Prices.CachedInput = nil // an unpriced bucket is a different card
	case rules.FieldRateWrite5m:
		card.Prices.CacheWrite5m = &other
	case rules.FieldRateWrite1h:
		card.Prices.CacheWrite1h = &other
	case rules.FieldRateOutput:
		card.Prices.Output = "20.5"
	default:
		return false
	}
	return true
}

// policyCases: for every preset, each threshold overridden with another
// value and each other number changed alone gives exactly its own code; a
// value stated as the preset's (however written) gives none; a custom
// policy gives none for the same edits; a custom ID that is a preset's name
// is refused; a card for another model is refused.
func policyCases() []policyCase {
	var out []policyCase
	for _, p := range rules.Presets() {
		base := policyBases[p.Name]
		for _, g := range p.Gates {
			out = append(out, policyCase{name: fmt.Sprintf("%s threshold %s", p.Name, g.Gate), example: base, preset: p.Name,
				edit: func(m *tables.Manifest) {
					m.GatePolicy.Thresholds = append(m.GatePolicy.Thresholds, tables.Threshold{Name: string(g.Gate), Value: g.Threshold + "1"})
				},
				want: []rules.Code{rules.Code("preset_threshold_" + string(g.Gate))}})
		}
		for _, n := range p.Numbers {
			// The requested model changes with its card's model, so only
			// the pin differs.
			want := []rules.Code{rules.Code("preset_" + n.Kind + "_" + n.Name)}
			out = append(out, policyCase{name: fmt.Sprintf("%s %s %s", p.Name, n.Kind, n.Name), example: base, preset: p.Name,
				edit: func(m *tables.Manifest) { changeField(m, n.Field) }, want: want})
			out = append(out, policyCase{name: fmt.Sprintf("%s %s %s under a custom policy", p.Name, n.Kind, n.Name), example: base, preset: p.Name,
				edit: func(m *tables.Manifest) { m.GatePolicy.Custom = "lab-policy"; changeField(m, n.Field) }})
		}
	}
	return append(out,
		policyCase{name: "an override stating the preset's value", example: "paired-review-green", preset: rules.PresetEvaluation,
			edit: func(m *tables.Manifest) {
				m.GatePolicy.Thresholds = []tables.Threshold{{Name: "g2_task_floor", Value: "0.800"}, {Name: "g3_improved_tasks", Value: "4"}}
			}},
		policyCase{name: "a custom policy may change thresholds", example: "paired-review-green", preset: rules.PresetEvaluation,
			edit: func(m *tables.Manifest) {
				m.GatePolicy.Custom, m.GatePolicy.Thresholds = "lab-policy", []tables.Threshold{{Name: "g2_task_floor", Value: "0.5"}}
			}},
		policyCase{name: "a custom policy named as a preset", example: "paired-review-green", preset: rules.PresetEvaluation,
			edit: func(m *tables.Manifest) { m.GatePolicy.Custom = string(rules.PresetSystemComparison) },
			want: []rules.Code{rules.CodePolicyCustomID}},
		policyCase{name: "a custom policy named by a placeholder", example: "paired-review-green", preset: rules.PresetEvaluation,
			edit: func(m *tables.Manifest) { m.GatePolicy.Custom = "n/a" }, want: []rules.Code{rules.CodePolicyCustomID}},
		policyCase{name: "a second card for another model", example: "paired-review-green", preset: rules.PresetEvaluation,
			edit: func(m *tables.Manifest) {
				c := m.RateCards[0]
				c.ID, c.Model = "other-card", "gpt-5.6-sol-mini"
				m.RateCards = append(m.RateCards, c)
			}, want: []rules.Code{rules.CodeRateCardModel}},
		policyCase{name: "a card naming the requested model with one provider prefix (the model identity rule)", example: "paired-review-green", preset: rules.PresetEvaluation,
			edit: func(m *tables.Manifest) {
				m.GatePolicy.Custom = "lab-policy"
				m.RateCards[0].Model = "openai/" + m.Identities.RequestedModel
			}},
		policyCase{name: "a card naming another provider's model of the same name", example: "paired-review-green", preset: rules.PresetEvaluation,
			edit: func(m *tables.Manifest) {
				m.GatePolicy.Custom, m.Identities.RequestedModel = "lab-policy", "openai/"+m.Identities.RequestedModel
				m.RateCards[0].Model = "azure/" + m.RateCards[0].Model
			}, want: []rules.Code{rules.CodeRateCardModel}},
		policyCase{name: "evaluator of another version", example: "paired-review-green", preset: rules.PresetEvaluation,
			edit: func(m *tables.Manifest) { m.Evaluator = &tables.EvaluatorPin{Version: "0.2.0"} }, want: []rules.Code{rules.CodeEvaluatorMismatch}},
		policyCase{name: "evaluator of this version with a commit the test binary cannot show", example: "paired-review-green", preset: rules.PresetEvaluation,
			edit: func(m *tables.Manifest) {
				m.Evaluator = &tables.EvaluatorPin{Version: rules.EvaluatorVersion, Commit: "0123456789abcdef0123456789abcdef01234567"}
			}, want: []rules.Code{rules.CodeEvaluatorUnverified}},
	)
}

func exampleManifest(t *testing.T, name string) tables.Manifest {
	t.Helper()
	fsys, ok := fixtures.Example(name)
	if !ok {
		t.Fatalf("no example %s", name)
	}
	data, err := fs.ReadFile(fsys, "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m tables.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPolicy(t *testing.T) {
	for _, c := range policyCases() {
		t.Run(c.name, func(t *testing.T) {
			m := exampleManifest(t, c.example)
			m.GatePolicy.Preset = string(c.preset)
			if fs := Policy(&tables.Campaign{Manifest: m}); len(fs) > 0 {
				t.Fatalf("setup: %s under %s: %v", c.example, c.preset, fs)
			}
			c.edit(&m)
			var got []rules.Code
			for _, f := range Policy(&tables.Campaign{Manifest: m}) {
				got = append(got, f.Code)
				if f.Code != rules.CodeEvaluatorUnverified && f.Severity != rules.Reject {
					t.Errorf("%s: severity %s", f.Code, f.Severity)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("codes %v, want %v", got, c.want)
			}
		})
	}
}

// TestEveryPresetFieldChangeable: changeField knows every field a preset
// fixes, so policyCases edits each.
func TestEveryPresetFieldChangeable(t *testing.T) {
	for _, p := range rules.Presets() {
		m := exampleManifest(t, policyBases[p.Name])
		for _, n := range p.Numbers {
			if !changeField(&m, n.Field) {
				t.Errorf("preset %s field %s: no edit", p.Name, n.Field)
			}
		}
	}
}
