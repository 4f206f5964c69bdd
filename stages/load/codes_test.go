package load

import (
	"testing"

	"github.com/evalgate/evalgate/rules"
)

// codeTests are the tests whose cases each demand one finding (or one
// warning) of the load stage. TestEveryCodeEmitted runs them itself, so
// the check holds whatever the test order (-shuffle) or filter (-run).
var codeTests = []struct {
	name string
	run  func(*testing.T)
}{
	{"TestCampaignRejects", TestCampaignRejects},
	{"TestCampaignFileErrors", TestCampaignFileErrors},
	{"TestAnswerRejects", TestAnswerRejects},
	{"TestAnswerSyntax", TestAnswerSyntax},
	{"TestRequestRules", TestRequestRules},
	{"TestSystemComparisonLoadRules", TestSystemComparisonLoadRules},
	{"TestBenchmarkLoadRules", TestBenchmarkLoadRules},
	{"TestKindUnsupported", TestKindUnsupported},
	{"TestConfinedCampaignFiles", TestConfinedCampaignFiles},
	{"TestFindingsCappedPerCode", TestFindingsCappedPerCode},
}

// TestEveryCodeEmitted checks that every load code is produced by at least
// one case of codeTests.
func TestEveryCodeEmitted(t *testing.T) {
	emitted = map[rules.Code]bool{}
	defer func() { emitted = nil }()
	for _, ct := range codeTests {
		t.Run(ct.name, ct.run)
	}
	for _, d := range rules.AllCodes() {
		if d.Stage == "load" && !emitted[d.Code] {
			t.Errorf("code %s is never emitted by a test", d.Code)
		}
	}
}
