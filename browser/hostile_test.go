package browser_test

import (
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/fixtures/controls"
	"github.com/evalgate/evalgate/tables"
)

func loadExample(name string) (*controls.Campaign, error) { return controls.LoadExample(name) }

// markup is text that would become elements if it reached the page
// unescaped: a script, an image with an error handler, and the end of the
// SVG it may be drawn in.
const markup = `<script>alert(1)</script><img src=x onerror=alert(2)></svg><b>`

var (
	hostileDecision = "do_not_advance"
	hostileFigures  = []string{"task-r", "ratios", "forest-ratio", "forest-fraction", "forest-difference"}
	hostileVisible  = []string{"<script>alert(1)</script>", "<img src=x onerror=alert(2)>"}
)

// hostileDir is the paired-review example with markup in an answer: the
// evidence id of T1-r1-B's first claim.
func hostileDir(t *testing.T) string {
	t.Helper()
	c, err := controls.LoadExample("paired-review")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.EditAnswer("T1-r1-B", func(a *tables.Answer) {
		a.Final.Claims[0].EvidenceIDs = []string{markup}
		a.Final.Claims[1].Text = markup
	}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "hostile")
	if err := c.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}
