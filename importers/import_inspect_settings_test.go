package importers

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/tables"
)

// TestInspectSettings: a log's generate config becomes the receipt's
// settings, the plan's member over the model's; no config is no
// settings, an empty one states every setting the provider's default,
// and a value that is no setting leaves the settings unrecorded rather
// than guessed.
func TestInspectSettings(t *testing.T) {
	obj := func(s string) map[string]jsontext.Value {
		if s == "" {
			return nil
		}
		var m map[string]jsontext.Value
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, c := range []struct {
		model, plan string
		want        string // the settings as JSON; "null" none
	}{
		{"", "", "null"},
		{"{}", "{}", "{}"},
		{`{"temperature": 0.7, "max_tokens": 6000}`, `{"temperature": 0.0}`, `{"temperature":"0","max_output_tokens":6000}`},
		{`{"top_p": 0.95, "seed": 42, "reasoning_effort": "high", "max_connections": 10}`, "", `{"top_p":"0.95","reasoning_effort":"high","seed":42}`},
		{`{"temperature": null}`, `{"max_tokens": null}`, "{}"},
		{`{"temperature": -1}`, "", "null"},
		{`{"max_tokens": 6000.5}`, "", "null"},
		{`{"reasoning_effort": 3}`, "", "null"},
	} {
		got := inspectSettings(obj(c.model), obj(c.plan))
		var text string
		if got == nil {
			text = "null"
		} else {
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			text = string(b)
		}
		if text != c.want {
			t.Errorf("model %s, plan %s: settings %s, want %s", c.model, c.plan, text, c.want)
		}
	}
	if s := inspectSettings(obj(`{"temperature": 1}`), nil); !s.Equal(&tables.GenerationSettings{Temperature: new("1.0")}) {
		t.Errorf("temperature 1 is not 1.0: %+v", s)
	}
}
