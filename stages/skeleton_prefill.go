package stages

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// LogSource is one record file of `evalgate init --from`: its source
// (tables.SourceInspect, SourceCodex, SourceHarbor) and its bytes.
type LogSource struct {
	Source string
	File   ImportSource
}

// LogModels reads the records of the files as an import does and returns
// the models they state: the requested ones (the match model: Inspect's
// usage key or eval.model, Codex's turn_context, Harbor's model_info) and
// the returned ones (receipt identity.returned_model, one per model under
// the model identity rule), each in first-seen order. The findings are the
// readers'; when one rejects, nothing is stated.
func LogModels(files []LogSource) (requested, returned []string, fs rules.Findings) {
	for _, f := range files {
		recs, more := CheckSource(f.Source, f.File)
		fs = append(fs, more...)
		for _, r := range recs {
			if r.Match.Model != "" && !slices.Contains(requested, r.Match.Model) {
				requested = append(requested, r.Match.Model)
			}
			if r.ReturnedModel != "" && !slices.ContainsFunc(returned, func(m string) bool { return tables.SameModel(m, r.ReturnedModel) }) {
				returned = append(returned, r.ReturnedModel)
			}
		}
	}
	if fs.Rejected() {
		return nil, nil, fs
	}
	return requested, returned, fs
}

// PrefillSkeleton writes into a skeleton's manifest what the logs state of
// its model identities, and only that: one requested model, and the
// returned model (a reviewer benchmark's further returned models become
// its model strata, benchmark.models). An identity the logs state
// ambiguously — two requested models, or two returned ones outside a
// reviewer benchmark — stays empty, and the notes say why. When the logs
// request a model the preset pins otherwise, the preset cannot hold for
// these sessions: a custom policy skeleton is declared (customFromRecords).
// Every other identity, the rate cards and ceilings stay the user's to
// fill.
func PrefillSkeleton(files []SkeletonFile, requested, returned []string) ([]SkeletonFile, []string, error) {
	i := slices.IndexFunc(files, func(f SkeletonFile) bool { return f.Path == "manifest.json" })
	if i < 0 {
		return files, nil, fmt.Errorf("the skeleton has no manifest.json")
	}
	var m tables.Manifest
	if err := json.Unmarshal(files[i].Data, &m); err != nil {
		return files, nil, err
	}
	var notes []string
	switch len(requested) {
	case 0:
	case 1:
		m.Identities.RequestedModel = requested[0]
		notes = append(notes, fmt.Sprintf("identities.requested_model %q", requested[0]))
	default:
		notes = append(notes, fmt.Sprintf("identities.requested_model left empty: the logs request %d models (%s)", len(requested), strings.Join(requested, ", ")))
	}
	switch {
	case len(returned) == 0:
	case len(returned) == 1 || m.Benchmark != nil:
		m.Identities.ReturnedModel = returned[0]
		notes = append(notes, fmt.Sprintf("identities.returned_model %q", returned[0]))
		if m.Benchmark != nil && len(returned) > 1 {
			m.Benchmark.Models = slices.Clone(returned[1:])
			notes = append(notes, fmt.Sprintf("benchmark.models %s (model strata)", strings.Join(returned[1:], ", ")))
		}
	default:
		notes = append(notes, fmt.Sprintf("identities.returned_model left empty: the logs name %d returned models (%s) and this kind pins one", len(returned), strings.Join(returned, ", ")))
	}
	if note := customFromRecords(&m, requested); note != "" {
		notes = append(notes, note)
	}
	b, err := json.Marshal(&m, json.Deterministic(true), jsontext.WithIndent("  "))
	if err != nil {
		return files, nil, err
	}
	out := slices.Clone(files)
	out[i].Data = append(b, '\n')
	return out, notes, nil
}

// customFromRecords declares a custom policy skeleton in m when a model the
// logs request is not the model m's preset pins (the model identity rule:
// one provider prefix ignored): the preset's frozen rules are a pinned
// consumer's, so sessions of another model can never be judged as the
// preset, and saying so at init spares a run of preset_pin findings. The
// custom policy keeps the preset's gates and thresholds and judges the
// campaign's own pins and ceilings; every output names it as not the
// preset. Nothing is declared when the logs state no model, or only the
// pinned one, or the preset pins none (a reviewer benchmark's strata), or
// the manifest already names a custom policy: the preset is never
// pretended to hold, nor given up on what the logs do not state. The note
// says why, or "" when nothing was declared.
func customFromRecords(m *tables.Manifest, requested []string) string {
	p, ok := rules.FindPreset(rules.PresetName(m.GatePolicy.Preset))
	if !ok || m.GatePolicy.Custom != "" {
		return ""
	}
	pin, ok := p.Number(rules.FieldRequestedModel)
	if !ok {
		return ""
	}
	var other []string
	for _, r := range requested {
		if !tables.SameModel(r, pin.Value) {
			other = append(other, r)
		}
	}
	if len(other) == 0 {
		return ""
	}
	id := "records-v1"
	if m.CampaignID != "" {
		id = m.CampaignID + "-records-v1"
	}
	m.GatePolicy.Custom = id
	return fmt.Sprintf("gate_policy.custom %q: the logs request %s, not the model preset %s pins (%s, %s), so the preset cannot hold for these sessions; "+
		"the custom policy keeps the preset's gates and thresholds, judges the campaign's own pins and ceilings, and every output says it is not the preset's rules (rename it as you like)",
		id, strings.Join(other, ", "), p.Name, pin.Value, pin.Source)
}
