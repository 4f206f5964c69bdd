package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestReportHumanUnits scans the example's report.md and report.html, as
// `evalgate run` writes them, for the raw forms the formatting layer
// replaces: a nanosecond integer (ten digits or more: a second or longer
// in ns) and a number with more than eight decimals (a 12-decimal median,
// a 17-digit float bound). Exact values belong in scorecard.json and the
// tables, not in what a person reads.
func TestReportHumanUnits(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := mainCmd("run", "--out", out); code != ExitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	raw := regexp.MustCompile(`\b[0-9]{10,}\b|[0-9]\.[0-9]{9,}`)
	for _, name := range []string{"report.md", "report.html"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, loc := range raw.FindAllIndex(data, 5) {
			lo, hi := max(loc[0]-60, 0), min(loc[1]+20, len(data))
			t.Errorf("%s: raw number %q in …%s…", name, data[loc[0]:loc[1]], data[lo:hi])
		}
	}
}
