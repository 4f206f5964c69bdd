package stages_test

import (
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// exampleWithManifest copies the default example into memory with its
// manifest edited by edit (on the decoded JSON object).
func exampleWithManifest(t *testing.T, edit func(m map[string]any)) fs.FS {
	t.Helper()
	src, _ := fixtures.Example(fixtures.DefaultExample)
	out := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(src, p)
		out[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(out["manifest.json"].Data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out["manifest.json"] = &fstest.MapFile{Data: b}
	return out
}

func missingItems(r *stages.PreflightResult) []string {
	var out []string
	for _, it := range r.Items {
		if it.Status == tables.PreflightMissing {
			out = append(out, it.Item)
		}
	}
	return out
}

// TestPreflightItems: the example is ready; a placeholder identity, a zero
// session ceiling and a missing rate card each make exactly their own item
// missing, and the reservation, which needs the ceilings and the tariff,
// with the last two. Expected lists are written by hand.
func TestPreflightItems(t *testing.T) {
	fsys, _ := fixtures.Example(fixtures.DefaultExample)
	if r := stages.Preflight(fsys, "example"); !r.Ready || len(missingItems(r)) != 0 {
		t.Fatalf("example not ready: %v", missingItems(r))
	}
	cases := []struct {
		name string
		edit func(m map[string]any)
		want []string
	}{
		{"placeholder returned model", func(m map[string]any) {
			m["identities"].(map[string]any)["returned_model"] = "TBD"
		}, []string{"identity returned_model"}},
		{"zero session wall ceiling", func(m map[string]any) {
			m["ceilings"].(map[string]any)["session"].(map[string]any)["wall_ms"] = 0
		}, []string{"ceiling session/wall_ms", "reservation before each dispatch"}},
		{"rate card for another model", func(m map[string]any) {
			m["rate_cards"].([]any)[0].(map[string]any)["model"] = "gpt-4.1"
		}, []string{"rate card for the requested model", "reservation before each dispatch"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := stages.Preflight(exampleWithManifest(t, c.edit), "edited")
			if got := missingItems(r); !slices.Equal(got, c.want) || r.Ready {
				t.Errorf("missing %v (ready %t), want %v", got, r.Ready, c.want)
			}
		})
	}
}
