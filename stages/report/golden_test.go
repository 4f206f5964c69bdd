package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden*")

// TestGoldenOutputs pins the exact bytes of scorecard.json and report.md
// for the fixture; the numbers in them are checked independently by the
// scorecard tests. Refresh with go test ./stages/report -run TestGoldenOutputs -update.
func TestGoldenOutputs(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, fixtureCampaign(), fixtureSet(t), Meta{ToolVersion: "golden"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, golden string }{
		{ScorecardFile, "fixture.golden.json"},
		{ReportFile, "fixture.golden.md"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(dir, c.name))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", c.golden)
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s (run with -update and review the diff):\n%s", c.name, path, got)
			}
		})
	}
}
