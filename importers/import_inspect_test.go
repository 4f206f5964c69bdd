package importers

import (
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// wantSample is one sample's expected (id, epoch, models, usage text).
type wantSample struct {
	id     string
	epoch  int64
	models []string
	usage  string // the first model's usage, compacted; "" for none
}

// The real logs, with facts read by hand from the files (jq) and listed in
// cmd/evalgate/testdata/reallogs/inspect/README.md.
func TestReadInspectLogReal(t *testing.T) {
	popularityEval := []wantSample{
		{"1", 1, []string{"openai/gpt-4o-mini"}, `{"input_tokens":64,"output_tokens":2,"total_tokens":66}`},
		{"2", 1, []string{"openai/gpt-4o-mini"}, `{"input_tokens":58,"output_tokens":2,"total_tokens":60}`},
		{"3", 1, nil, ""}, {"4", 1, nil, ""}, {"5", 1, nil, ""}, {"6", 1, nil, ""},
		{"7", 1, nil, ""}, {"8", 1, nil, ""}, {"9", 1, nil, ""},
		{"10", 1, []string{"openai/gpt-4o-mini"}, `{"input_tokens":63,"output_tokens":2,"total_tokens":65}`},
	}
	cases := []struct {
		file, layout, version, model, status string
		samples                              []wantSample
		warnings                             []rules.Code
	}{
		{"2025-05-12T20-27-36-04-00_browser.json", InspectLayoutJSON, "0.3.95.dev16+g6527d0861", "openai/gpt-4o-mini", "success",
			[]wantSample{{"1", 1, []string{"openai/gpt-4o-mini"},
				`{"input_tokens":15235,"output_tokens":281,"total_tokens":15516,"input_tokens_cache_read":9088,"reasoning_tokens":0}`}}, nil},
		{"2025-05-12T20-28-13-04-00_no-samples.json", InspectLayoutJSON, "0.3.95.dev16+g6527d0861", "openai/gpt-4o-mini", "cancelled",
			nil, []rules.Code{rules.CodeInspectNoSamples}},
		{"2025-05-12T20-28-13-04-00_popularity.json", InspectLayoutJSON, "0.3.95.dev16+g6527d0861", "openai/gpt-4o-mini", "cancelled",
			[]wantSample{
				{"1", 1, []string{"openai/gpt-4o-mini"}, `{"input_tokens":64,"output_tokens":2,"total_tokens":66,"input_tokens_cache_read":0,"reasoning_tokens":0}`},
				{"2", 1, []string{"openai/gpt-4o-mini"}, ""}, {"3", 1, []string{"openai/gpt-4o-mini"}, ""}}, nil},
		{"2025-05-12T20-28-26-04-00_security-guide.json", InspectLayoutJSON, "0.3.95.dev16+g6527d0861", "openai/gpt-4o-mini", "success",
			[]wantSample{
				{"1", 1, []string{"openai/gpt-4o-mini"}, `{"input_tokens":320,"output_tokens":309,"total_tokens":629,"input_tokens_cache_read":0,"reasoning_tokens":0}`},
				{"2", 1, nil, ""}, {"3", 1, nil, ""}}, nil},
		{"2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval", InspectLayoutEval, "0.3.58.dev16+g6a87748b", "openai/gpt-4o-mini", "success",
			popularityEval, nil},
		{"2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval", InspectLayoutEval, "0.3.58.dev16+g6a87748b", "openai/gpt-4o-mini", "success",
			popularityEval, nil},
		{"log_formats.json", InspectLayoutJSON, "0.3.41.dev123+g9ad2119a.d20241015", "ollama/llama3.1", "success",
			[]wantSample{{"1", 1, []string{}, ""}}, []rules.Code{rules.CodeInspectSampleNoUsage}},
		{"log_formats.eval", InspectLayoutEval, "0.3.41.dev123+g9ad2119a.d20241015", "ollama/llama3.1", "success",
			[]wantSample{{"1", 1, []string{}, ""}}, []rules.Code{rules.CodeInspectSampleNoUsage}},
		{"mmlu-summary-choices.eval", InspectLayoutEval, "0.3.154.dev44+g32a84c8fe.d20251213", "openai/gpt-4o", "success",
			[]wantSample{{"1", 1, []string{"openai/gpt-4o"},
				`{"input_tokens":153,"output_tokens":3,"total_tokens":156,"input_tokens_cache_read":0,"reasoning_tokens":0}`}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			log, fs := readInspectFile(t, tc.file)
			if log == nil {
				t.Fatalf("rejected: %v", fs)
			}
			if got := findingCodes(fs); !slices.Equal(got, tc.warnings) {
				t.Errorf("findings %v, want %v", got, tc.warnings)
			}
			if log.Layout != tc.layout || log.InspectVersion != tc.version || log.Model != tc.model || log.Status != tc.status {
				t.Errorf("identity %s %q %q %q", log.Layout, log.InspectVersion, log.Model, log.Status)
			}
			if len(log.Samples) != len(tc.samples) {
				t.Fatalf("%d samples, want %d", len(log.Samples), len(tc.samples))
			}
			for i, w := range tc.samples {
				checkInspectSample(t, log.Samples[i], w)
			}
		})
	}
}

func checkInspectSample(t *testing.T, s InspectSample, w wantSample) {
	t.Helper()
	if string(s.ID) != w.id || s.Epoch != w.epoch {
		t.Errorf("sample %s epoch %d, want %s epoch %d", s.ID, s.Epoch, w.id, w.epoch)
	}
	if w.models != nil {
		var models []string
		for _, u := range s.Usage {
			models = append(models, u.Model)
			if u.Shape != tables.ShapeInspectInclusive {
				t.Errorf("sample %s model %s shape %q, want inclusive", w.id, u.Model, u.Shape)
			}
		}
		if !slices.Equal(models, w.models) && !(len(models) == 0 && len(w.models) == 0) {
			t.Errorf("sample %s models %v, want %v", w.id, models, w.models)
		}
	}
	if w.usage != "" {
		got := strings.Join(strings.Fields(string(s.Usage[0].Usage)), "")
		if got != w.usage {
			t.Errorf("sample %s usage %s, want %s", w.id, got, w.usage)
		}
	}
}

// Times and timestamps come through verbatim.
func TestReadInspectLogTimes(t *testing.T) {
	t.Run("mmlu timestamps", func(t *testing.T) {
		log, fs := readInspectFile(t, "mmlu-summary-choices.eval")
		if log == nil {
			t.Fatal(fs)
		}
		s := log.Samples[0]
		if s.StartedAt == nil || *s.StartedAt != "2025-12-19T12:37:50.892960+00:00" ||
			s.CompletedAt == nil || *s.CompletedAt != "2025-12-19T12:37:52.458757+00:00" {
			t.Errorf("timestamps %v %v", s.StartedAt, s.CompletedAt)
		}
		if string(s.TotalTime) != "1.566" || string(s.WorkingTime) != "1.458" || s.Error != nil {
			t.Errorf("times %s %s error %s", s.TotalTime, s.WorkingTime, s.Error)
		}
	})
	t.Run("browser has no timestamps", func(t *testing.T) {
		log, _ := readInspectFile(t, "2025-05-12T20-27-36-04-00_browser.json")
		s := log.Samples[0]
		if s.StartedAt != nil || s.CompletedAt != nil || string(s.TotalTime) != "18.517" || string(s.WorkingTime) != "18.36" {
			t.Errorf("times %v %v %s %s", s.StartedAt, s.CompletedAt, s.TotalTime, s.WorkingTime)
		}
	})
}

// The same log in both formats reads the same (format parity).
func TestReadInspectLogFormatParity(t *testing.T) {
	j, _ := readInspectFile(t, "log_formats.json")
	e, _ := readInspectFile(t, "log_formats.eval")
	if j == nil || e == nil || j.InspectVersion != e.InspectVersion || j.Model != e.Model ||
		len(j.Samples) != len(e.Samples) || string(j.Samples[0].ID) != string(e.Samples[0].ID) {
		t.Errorf("json %+v\neval %+v", j, e)
	}
}
