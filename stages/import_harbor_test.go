package stages_test

import (
	"slices"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/tables"
)

// TestImportHarborTrials: the passed trial is a response whose meter
// splits n_input_tokens 48,000 into 36,000 cache reads and 12,000
// uncached (the input includes the cache); the timed-out trial is an error
// receipt of the class the mapping gives AgentTimeoutError; the trial
// whose verifier wrote no reward is an error (recorder_loss, an
// infrastructure class), never a response that could pass.
func TestImportHarborTrials(t *testing.T) {
	man := initCampaign(t, codexRate)
	plan, fs := stages.Import(tables.SourceHarbor, stages.ImportCampaign{Manifest: man}, harborMap(tables.BillingReference, timeoutClass,
		harborPassed, harborTimedOut, harborNoReward), "map.json",
		[]stages.ImportSource{harborSource(t, harborPassed), harborSource(t, harborTimedOut), harborSource(t, harborNoReward)})
	if fs.Rejected() || plan.Added != 3 {
		t.Fatalf("added %d: %v", plan.Added, fs)
	}
	if !slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeHarborNoReward && f.Severity == rules.Warn }) {
		t.Errorf("no %s warning: %v", rules.CodeHarborNoReward, fs)
	}
	rs := receiptsOf(t, plan.Receipts)
	passed, timedOut, noReward := rs[0], rs[1], rs[2]
	b, problems := account.DecodeMeter(passed.Meter.Shape, passed.Meter.Usage)
	if want := (account.Buckets{UncachedInput: 12000, CachedInput: 36000, Output: 2500}); len(problems) > 0 || b != want {
		t.Errorf("buckets %+v %v, want %+v", b, problems, want)
	}
	if passed.Status != tables.StatusResponse || passed.Output == nil || passed.Billing.Basis != tables.BillingReference ||
		passed.RequestID != harborIDs[harborPassed] || passed.StartedAt.Format("15:04:05") != "10:00:00" {
		t.Errorf("passed trial %+v", passed)
	}
	if timedOut.Status != tables.StatusError || timedOut.ErrorClass == nil || *timedOut.ErrorClass != tables.ErrorModelTimeout {
		t.Errorf("timed-out trial %+v", timedOut)
	}
	if noReward.Status != tables.StatusError || noReward.ErrorClass == nil || *noReward.ErrorClass != tables.ErrorRecorderLoss {
		t.Errorf("no-reward trial %+v", noReward)
	}
}
