package importers

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// TestImportCodexRefusals: a rollout continuing an earlier conversation,
// and one whose turns do not add up to its running total, are refused;
// an error event makes an error receipt of the mapped class.
func TestImportCodexRefusals(t *testing.T) {
	camp := importCampaign{man: testManifest(rules.KindPairedReview, codexRate)}
	for file, code := range map[string]rules.Code{"resumed.jsonl": rules.CodeCodexRolloutResumed, "disagree.jsonl": rules.CodeCodexTotalsDisagree} {
		_, fs := importInto(t, tables.SourceCodex, camp, codexMap(codexSession, "T1-r1-A"), "map.json", codexSource(t, file))
		if !fs.Rejected() || !hasCode(fs, code, "") {
			t.Errorf("%s: want %s, got %v", file, code, fs)
		}
	}
	plan, fs := importInto(t, tables.SourceCodex, camp, codexMap(codexSession, "T1-r1-A"), "map.json", codexSource(t, "error.jsonl"))
	rs := receiptsOf(t, plan.Receipts)
	if fs.Rejected() || len(rs) != 1 {
		t.Fatalf("error.jsonl: %v", fs)
	}
	if r := rs[0]; r.Status != tables.StatusError || r.ErrorClass == nil || *r.ErrorClass != tables.ErrorPlatformOutage || r.Output != nil {
		t.Errorf("error receipt %+v", r)
	}
}

// TestImportHarborRefusals: an exception type the mapping does not map,
// and actual billing of a trial that reports no cost, refuse the import;
// actual billing takes cost_usd exactly as written.
func TestImportHarborRefusals(t *testing.T) {
	camp := importCampaign{man: testManifest(rules.KindPairedReview, codexRate)}
	_, fs := importInto(t, tables.SourceHarbor, camp, harborMap(tables.BillingReference, nil, harborTimedOut), "map.json", harborSource(t, harborTimedOut))
	if !hasCode(fs, rules.CodeImportErrorUnmapped, rules.Reject) {
		t.Errorf("unmapped exception: %v", fs)
	}
	_, fs = importInto(t, tables.SourceHarbor, camp, harborMap(tables.BillingActual, timeoutClass, harborTimedOut), "map.json", harborSource(t, harborTimedOut))
	if !hasCode(fs, rules.CodeHarborCostInexact, rules.Reject) {
		t.Errorf("actual billing without cost: %v", fs)
	}
	plan, fs := importInto(t, tables.SourceHarbor, camp, harborMap(tables.BillingActual, nil, harborPassed), "map.json", harborSource(t, harborPassed))
	if fs.Rejected() {
		t.Fatal(fs)
	}
	if r := receiptsOf(t, plan.Receipts)[0]; r.Billing.Basis != tables.BillingActual || r.Billing.ActualCharge == nil || *r.Billing.ActualCharge != "0.0994" {
		t.Errorf("billing %+v", r.Billing)
	}
}

// TestImportReturnedModel: a Codex rollout records the model its turns ran
// on (turn_context) and a Harbor trial the model its agent ran on
// (agent_info.model_info); each is the receipt's returned_model, with no
// warning. A trial that names no model gets an empty returned_model and
// one warning naming the mapping field that supplies it; the mapping's
// returned_model then fills it, and a mapping that contradicts the
// record's own model refuses the import.
func TestImportReturnedModel(t *testing.T) {
	// The fixtures name the model, read here independently.
	for _, f := range []string{filepath.Join(codexRollouts, "multi-turn.jsonl"), filepath.Join(harborTrials, harborPassed, "result.json")} {
		if !bytes.Contains(readFixture(t, f), []byte(`"gpt-5.6-sol"`)) {
			t.Fatalf("%s no longer names the model gpt-5.6-sol", f)
		}
	}
	camp := importCampaign{man: testManifest(rules.KindPairedReview, codexRate)}
	cplan, cfs := importInto(t, tables.SourceCodex, camp, codexMap(codexSession, "T1-r1-A"), "map.json", codexSource(t, "multi-turn.jsonl"))
	hplan, hfs := importInto(t, tables.SourceHarbor, camp, harborMap(tables.BillingReference, timeoutClass, harborPassed), "map.json", harborSource(t, harborPassed))
	for name, c := range map[string]struct {
		plan []byte
		fs   rules.Findings
	}{"codex": {cplan.Receipts, cfs}, "harbor": {hplan.Receipts, hfs}} {
		t.Run(name, func(t *testing.T) {
			if c.fs.Rejected() {
				t.Fatalf("rejected: %v", c.fs)
			}
			if rs := receiptsOf(t, c.plan); len(rs) != 1 || rs[0].Identity.ReturnedModel != "gpt-5.6-sol" {
				t.Fatalf("receipts %+v: want one returned by gpt-5.6-sol", rs)
			}
			if hasCode(c.fs, rules.CodeImportNoReturnedModel, "") {
				t.Errorf("findings %v: a record naming its model is warned", c.fs)
			}
		})
	}

	// The trial without model_info.
	src := harborSource(t, harborPassed)
	src.data = bytes.Replace(src.data, []byte(`"name": "gpt-5.6-sol"`), []byte(`"name": null`), 1)
	if bytes.Contains(src.data, []byte(`"gpt-5.6-sol"`)) {
		t.Fatal("the trial still names the model")
	}
	m := harborMap(tables.BillingReference, timeoutClass, harborPassed)
	m.Sessions[0].Match.Model = ""
	plan, fs := importInto(t, tables.SourceHarbor, camp, m, "map.json", src)
	rs := receiptsOf(t, plan.Receipts)
	i := slices.IndexFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeImportNoReturnedModel })
	switch {
	case fs.Rejected() || len(rs) != 1 || rs[0].Identity.ReturnedModel != "":
		t.Fatalf("without a model: %v %+v, want one receipt with an empty returned_model", fs, rs)
	case i < 0 || fs[i].Severity != rules.Warn || !strings.Contains(fs[i].Message, "map.json#/sessions/0/returned_model"):
		t.Errorf("findings %v: want an import_no_returned_model warning naming map.json#/sessions/0/returned_model", fs)
	}
	m.Sessions[0].ReturnedModel = "gpt-5.6-sol-2026-08-21"
	plan, fs = importInto(t, tables.SourceHarbor, camp, m, "map.json", src)
	if rs := receiptsOf(t, plan.Receipts); fs.Rejected() || len(rs) != 1 || rs[0].Identity.ReturnedModel != "gpt-5.6-sol-2026-08-21" ||
		hasCode(fs, rules.CodeImportNoReturnedModel, "") {
		t.Errorf("with the mapping's model: %v %+v, want it in the receipt and no warning", fs, rs)
	}

	// A mapping contradicting the record's own model.
	m = harborMap(tables.BillingReference, timeoutClass, harborPassed)
	m.Sessions[0].ReturnedModel = "gpt-5.6-sol-mini"
	_, fs = importInto(t, tables.SourceHarbor, camp, m, "map.json", harborSource(t, harborPassed))
	if !slices.ContainsFunc(fs, func(f rules.Finding) bool {
		return f.Code == rules.CodeImportMapInvalid && f.Pointer == "/sessions/0/returned_model" && strings.Contains(f.Message, `"gpt-5.6-sol-mini"`)
	}) {
		t.Errorf("findings %v: want import_map_invalid at /sessions/0/returned_model", fs)
	}
}

// securityGuide is a real .json Inspect log of three samples.
const securityGuide = "2025-05-12T20-28-26-04-00_security-guide.json"

// editLog returns the real security-guide log with edit applied to its
// decoded document.
func editLog(t *testing.T, edit func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(readFixture(t, filepath.Join(inspectTestdata, securityGuide)), &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sample(doc map[string]any, i int) map[string]any {
	return doc["samples"].([]any)[i].(map[string]any)
}

// TestImportInspectErrorsAndTimes: a sample that failed is an error
// receipt of the class its mapping gives, without an answer; an unmapped
// error refuses the import; a sample without any time of its own, or
// whose own ID cannot be a request ID, refuses it too.
func TestImportInspectErrorsAndTimes(t *testing.T) {
	recs := inspectJSONRecords(t, readFixture(t, filepath.Join(inspectTestdata, securityGuide)))
	camp := importCampaign{man: testManifest(rules.KindPairedReview, gpt4oMini)}
	run := func(m *tables.ImportMap, data []byte) ([]tables.Receipt, rules.Findings) {
		plan, fs := importInto(t, tables.SourceInspect, camp, m, "map.json", importSource{name: "log.json", data: data})
		return receiptsOf(t, plan.Receipts), fs
	}

	failed := editLog(t, func(doc map[string]any) {
		sample(doc, 0)["error"] = map[string]any{"message": "RuntimeError: sandbox died", "traceback": "..."}
		sample(doc, 1)["limit"] = map[string]any{"type": "token", "limit": 1000}
	})
	m := inspectMap(recs, "E")
	m.ErrorClasses = []tables.ImportErrorClass{{SourceError: "error", Class: tables.ErrorPlatformOutage}, {SourceError: "limit:token", Class: tables.ErrorBudgetExhausted}}
	rs, fs := run(m, failed)
	if fs.Rejected() || len(rs) != 3 {
		t.Fatalf("%d receipts, %v", len(rs), fs)
	}
	if rs[0].Status != tables.StatusError || *rs[0].ErrorClass != tables.ErrorPlatformOutage || rs[0].Output != nil ||
		rs[1].Status != tables.StatusError || *rs[1].ErrorClass != tables.ErrorBudgetExhausted || rs[2].Status != tables.StatusResponse {
		t.Errorf("receipts %+v", rs)
	}
	m.ErrorClasses = m.ErrorClasses[:1]
	if _, fs := run(m, failed); !hasCode(fs, rules.CodeImportErrorUnmapped, rules.Reject) {
		t.Errorf("unmapped limit: %v", fs)
	}

	timeless := editLog(t, func(doc map[string]any) {
		delete(sample(doc, 0), "events")
	})
	if _, fs := run(inspectMap(recs, "E"), timeless); !hasCode(fs, rules.CodeImportTimeMissing, rules.Reject) {
		t.Errorf("no time: %v", fs)
	}
	badID := editLog(t, func(doc map[string]any) {
		sample(doc, 0)["uuid"] = "not an identifier"
	})
	if _, fs := run(inspectMap(recs, "E"), badID); !hasCode(fs, rules.CodeImportIDInvalid, rules.Reject) {
		t.Errorf("bad id: %v", fs)
	}
	// The log's first event time is its sample's start when the sample
	// records none, converted to UTC.
	rs, _ = run(inspectMap(recs, "E"), editLog(t, func(map[string]any) {}))
	if got := rs[0].StartedAt.Format("2006-01-02T15:04:05.000000Z07:00"); !strings.HasPrefix(got, "2025-05-13T00:28:26.845209Z") {
		t.Errorf("started_at %s, want the first event's 2025-05-12T20:28:26.845209-04:00 in UTC", got)
	}
}
