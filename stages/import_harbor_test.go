package stages_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/tables"
)

const harborTrials = "../importers/testdata/harbor"

// The three trial fixtures and their ids.
const (
	harborPassed   = "fix-parser__Ab3xK9q" // reward 1.0
	harborTimedOut = "fix-parser__Tm7QwE2" // AgentTimeoutError
	harborNoReward = "fix-parser__Zr5PnL8" // verifier wrote no reward
)

var harborIDs = map[string]string{
	harborPassed:   "6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b",
	harborTimedOut: "7a2e3d4c-5b6f-4071-9b8c-0d1e2f3a4b5c",
	harborNoReward: "8b3f4e5d-6c70-4182-8c9d-1e2f3a4b5c6d",
}

func harborMap(billing string, classes []tables.ImportErrorClass, trials ...string) *tables.ImportMap {
	m := &tables.ImportMap{Format: tables.FormatImportMap, Source: tables.SourceHarbor, RateCard: "codex", Billing: billing,
		OutputFile: "agent/answer.json", ErrorClasses: classes}
	for i, tr := range trials {
		m.Sessions = append(m.Sessions, tables.ImportSession{Match: tables.ImportMatch{Record: harborIDs[tr], Model: "gpt-5.6-sol"},
			SessionID: "T1-r1-B" + string(rune('a'+i)), Attempt: 1, TaskID: "T1", Repetition: 1, Role: tables.RoleReview,
			Arm: ptr("A"), DraftSessionID: ptr("T1-r1-D"), PromptIDs: []string{"common"}})
	}
	return m
}

func harborSource(t *testing.T, trial string) stages.ImportSource {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(harborTrials, trial, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := stages.ImportSource{Name: trial + "/result.json", Data: data}
	if out, err := os.ReadFile(filepath.Join(harborTrials, trial, "agent/answer.json")); err == nil {
		s.Output = out
	}
	return s
}

func harborReceipts(t *testing.T, plan []byte) []tables.Receipt {
	t.Helper()
	var out []tables.Receipt
	for _, line := range bytes.Split(bytes.TrimSpace(plan), []byte("\n")) {
		var r tables.Receipt
		if err := jsonUnmarshalReceipt(line, &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

var timeoutClass = []tables.ImportErrorClass{{SourceError: "AgentTimeoutError", Class: tables.ErrorModelTimeout}}

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
	rs := harborReceipts(t, plan.Receipts)
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

// TestImportHarborRefusals: an exception type the mapping does not map,
// and actual billing of a trial that reports no cost, refuse the import;
// actual billing takes cost_usd exactly as written.
func TestImportHarborRefusals(t *testing.T) {
	man := initCampaign(t, codexRate)
	_, fs := stages.Import(tables.SourceHarbor, stages.ImportCampaign{Manifest: man}, harborMap(tables.BillingReference, nil, harborTimedOut),
		"map.json", []stages.ImportSource{harborSource(t, harborTimedOut)})
	if !slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeImportErrorUnmapped }) {
		t.Errorf("unmapped exception: %v", fs)
	}
	_, fs = stages.Import(tables.SourceHarbor, stages.ImportCampaign{Manifest: man}, harborMap(tables.BillingActual, timeoutClass, harborTimedOut),
		"map.json", []stages.ImportSource{harborSource(t, harborTimedOut)})
	if !slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeHarborCostInexact }) {
		t.Errorf("actual billing without cost: %v", fs)
	}
	plan, fs := stages.Import(tables.SourceHarbor, stages.ImportCampaign{Manifest: man}, harborMap(tables.BillingActual, nil, harborPassed),
		"map.json", []stages.ImportSource{harborSource(t, harborPassed)})
	if fs.Rejected() {
		t.Fatal(fs)
	}
	if r := harborReceipts(t, plan.Receipts)[0]; r.Billing.Basis != tables.BillingActual || r.Billing.ActualCharge == nil || *r.Billing.ActualCharge != "0.0994" {
		t.Errorf("billing %+v", r.Billing)
	}
}
