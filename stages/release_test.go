package stages_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/report"
)

// TestReleaseInputsChangesNothing runs every example with and without
// Options.ReleaseInputs and requires every output file to be the same
// bytes: no stage after a release reads what was released.
func TestReleaseInputsChangesNothing(t *testing.T) {
	for _, name := range fixtures.Examples() {
		t.Run(name, func(t *testing.T) {
			outputs := func(release bool) map[string][]byte {
				fsys, ok := fixtures.Example(name)
				if !ok {
					t.Fatalf("example %s missing", name)
				}
				res := stages.Run(fsys, name, stages.Options{ReleaseInputs: release})
				if !res.Loaded {
					t.Fatalf("example %s does not load", name)
				}
				if release && res.Campaign.Manifest.Kind != rules.KindReviewerBenchmark && (res.Campaign.Receipts != nil || res.Campaign.Adjudications != nil) {
					t.Errorf("ReleaseInputs kept the receipts or adjudications")
				}
				dir := t.TempDir()
				if err := report.Write(dir, res.Campaign, res.Tables, res.Figures, report.Meta{ToolVersion: "test"}); err != nil {
					t.Fatal(err)
				}
				entries, err := os.ReadDir(dir)
				if err != nil {
					t.Fatal(err)
				}
				files := map[string][]byte{}
				for _, e := range entries {
					b, err := os.ReadFile(filepath.Join(dir, e.Name()))
					if err != nil {
						t.Fatal(err)
					}
					files[e.Name()] = b
				}
				return files
			}
			kept, released := outputs(false), outputs(true)
			if len(kept) == 0 || len(kept) != len(released) {
				t.Fatalf("%d files written keeping the inputs, %d releasing them", len(kept), len(released))
			}
			for file, want := range kept {
				if !bytes.Equal(released[file], want) {
					t.Errorf("%s differs when the inputs are released", file)
				}
			}
		})
	}
}
