package load

import (
	"testing"
	"testing/fstest"

	"github.com/evalgate/evalgate/fixtures/rbdefects"
	"github.com/evalgate/evalgate/rules"
)

// mapFS turns a campaign's files into a file system.
func mapFS(files rbdefects.Files) fstest.MapFS {
	out := fstest.MapFS{}
	for p, b := range files {
		out[p] = &fstest.MapFile{Data: b}
	}
	return out
}

// TestBenchmarkLoadRules runs the load-stage one-defect fixtures of the
// reviewer-benchmark example: the example loads cleanly, and each defect
// gives exactly its one rejecting finding.
func TestBenchmarkLoadRules(t *testing.T) {
	base, err := rbdefects.Example()
	if err != nil {
		t.Fatal(err)
	}
	if c, found := Campaign(mapFS(base), "example"); len(found) > 0 || c.Benchmark == nil || len(c.Benchmark.Cases) != 60 {
		t.Fatalf("the example does not load cleanly: %v", found)
	}
	for _, d := range rbdefects.All() {
		if d.Stage != "load" {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			files, _ := rbdefects.Example()
			if err := d.Apply(files); err != nil {
				t.Fatal(err)
			}
			_, found := Campaign(mapFS(files), "example")
			note(found)
			wantOnly(t, found, d.Want[0], "*")
		})
	}
	t.Run("a benchmark member in a paired review", func(t *testing.T) {
		f := exampleFS(t, "paired-review")
		editDoc(t, f, "manifest.json", func(m map[string]any) {
			m["benchmark"] = map[string]any{"cases_path": "cases.json", "cases_sha256": sha256Hex(nil),
				"inventory_path": "inventory.json", "inventory_sha256": sha256Hex(nil), "final_retired": false}
		})
		_, found := Campaign(f, "example")
		note(found)
		wantOnly(t, found, rules.CodeRbenchPlanUnexpected, "/benchmark")
	})
}
