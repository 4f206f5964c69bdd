package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/internal/golden"
)

// TestGoldenOutputs pins the exact bytes of scorecard.json and report.md
// for the fixture; the numbers in them are checked independently by the
// scorecard tests. Refresh with go test ./stages/report -run TestGoldenOutputs -update.
func TestGoldenOutputs(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), Meta{ToolVersion: "golden"}); err != nil {
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
			golden.Check(t, filepath.Join("testdata", c.golden), got)
		})
	}
}
