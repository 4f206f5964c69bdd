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
// reviewer benchmark — stays empty, and the notes say why. Every other
// identity, the rate cards and ceilings stay the user's to fill.
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
	b, err := json.Marshal(&m, json.Deterministic(true), jsontext.WithIndent("  "))
	if err != nil {
		return files, nil, err
	}
	out := slices.Clone(files)
	out[i].Data = append(b, '\n')
	return out, notes, nil
}
