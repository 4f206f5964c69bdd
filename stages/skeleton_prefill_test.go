package stages_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	gojson "github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// TestPrefillCustomPolicy: records requesting a model the preset pins
// otherwise (paired-review-evaluation-v1 pins gpt-5.6-sol) declare a custom
// policy skeleton, with a note that says why; records of the pinned model
// (with or without its provider prefix), records naming no model, and a
// reviewer benchmark, whose preset pins no model, keep the preset.
func TestPrefillCustomPolicy(t *testing.T) {
	d := &tables.DesignFile{Format: tables.FormatDesign, CampaignID: "imported", Repetitions: 1, Prompts: []string{"common"},
		DraftPrompts: []string{"common"}, Arms: []tables.Arm{{ID: "A", Label: "A", Prompts: []string{"common"}}},
		Tasks: []tables.DesignTask{{ID: "T1", Repository: "r", Family: "F1", Split: "evaluation", Category: tables.CategoryBehaviorExplanation}}}
	for _, c := range []struct {
		name, kind string
		requested  []string
		custom     string
	}{
		{"another model", rules.KindPairedReview, []string{"openai/gpt-4o-mini"}, "imported-records-v1"},
		{"the pinned model and another", rules.KindPairedReview, []string{"gpt-5.6-sol", "ollama/gemma3"}, "imported-records-v1"},
		{"the pinned model", rules.KindPairedReview, []string{"gpt-5.6-sol"}, ""},
		{"the pinned model, provider-prefixed", rules.KindPairedReview, []string{"openai/gpt-5.6-sol"}, ""},
		{"no model", rules.KindPairedReview, nil, ""},
		{"a reviewer benchmark", rules.KindReviewerBenchmark, []string{"openai/gpt-4o-mini"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dd := *d
			if c.kind == rules.KindReviewerBenchmark {
				dd.Tasks, dd.DraftPrompts = nil, nil
				dd.Arms = []tables.Arm{{ID: "baseline", Label: "b", Prompts: []string{"common"}}, {ID: "candidate", Label: "c", Prompts: []string{"common"}}}
			}
			files, err := stages.Skeleton(c.kind, &dd, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			out, notes, err := stages.PrefillSkeleton(files, c.requested, nil)
			if err != nil {
				t.Fatal(err)
			}
			var m tables.Manifest
			if err := gojson.Unmarshal(out[0].Data, &m); err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(notes, func(n string) bool { return strings.HasPrefix(n, "gate_policy.custom ") })
			switch {
			case m.GatePolicy.Custom != c.custom:
				t.Fatalf("gate_policy.custom %q, want %q (notes %q)", m.GatePolicy.Custom, c.custom, notes)
			case c.custom == "" && i >= 0:
				t.Errorf("notes %q: a custom policy noted but none declared", notes)
			case c.custom != "" && (i < 0 || !strings.Contains(notes[i], "so the preset cannot hold") || !strings.Contains(notes[i], m.GatePolicy.Preset)):
				t.Errorf("notes %q: want one saying why the preset %s cannot hold", notes, m.GatePolicy.Preset)
			case m.GatePolicy.Preset == "" || len(m.GatePolicy.Thresholds) != 0:
				t.Errorf("gate_policy %+v: the preset and its thresholds are kept", m.GatePolicy)
			}
		})
	}
}
