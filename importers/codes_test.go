package importers

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
)

// codeTests are the tests whose cases each demand one finding (or one
// warning) of an Inspect log. TestEveryCodeEmitted runs them itself, so
// the check holds whatever the test order (-shuffle) or filter (-run).
var codeTests = []struct {
	name string
	run  func(*testing.T)
}{
	{"TestReadInspectLogReal", TestReadInspectLogReal},
	{"TestReadInspectLogRejects", TestReadInspectLogRejects},
	{"TestReadInspectLogWarnings", TestReadInspectLogWarnings},
	{"TestReadInspectEvalArchive", TestReadInspectEvalArchive},
}

// TestEveryCodeEmitted checks that every Inspect log code is produced by
// at least one case of codeTests.
func TestEveryCodeEmitted(t *testing.T) {
	emitted = map[rules.Code]bool{}
	defer func() { emitted = nil }()
	for _, ct := range codeTests {
		t.Run(ct.name, ct.run)
	}
	for _, d := range rules.AllCodes() {
		if d.Stage == "import" && strings.HasPrefix(string(d.Code), "inspect_") && !emitted[d.Code] {
			t.Errorf("code %s is never emitted by a test", d.Code)
		}
	}
}

// emitted collects the codes the rejecting tests see while
// TestEveryCodeEmitted runs them; nil otherwise, so no test depends on
// another having run first.
var emitted map[rules.Code]bool

func note(findings rules.Findings) {
	if emitted == nil {
		return
	}
	for _, f := range findings {
		emitted[f.Code] = true
	}
}
