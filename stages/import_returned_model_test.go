package stages_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// TestImportReturnedModel: a Codex rollout records the model its turns ran
// on (turn_context) and a Harbor trial the model its agent ran on
// (agent_info.model_info); each is the receipt's returned_model, with no
// warning. A trial that names no model (an oracle agent) gets an empty
// returned_model and one warning naming the mapping field that supplies
// it; the mapping's returned_model then fills it, and a mapping that
// contradicts the record's own model refuses the import.
func TestImportReturnedModel(t *testing.T) {
	// The fixtures name the model, read here independently.
	for _, f := range []string{filepath.Join(codexRollouts, "multi-turn.jsonl"), filepath.Join(harborTrials, harborPassed, "result.json")} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(`"gpt-5.6-sol"`)) {
			t.Fatalf("%s no longer names the model gpt-5.6-sol", f)
		}
	}
	man := initCampaign(t, codexRate)
	codex, _ := os.ReadFile(filepath.Join(codexRollouts, "multi-turn.jsonl"))
	cplan, cfs := stages.Import(tables.SourceCodex, stages.ImportCampaign{Manifest: man}, codexMap(codexSession, "T1-r1-A"), "map.json",
		[]stages.ImportSource{{Name: "multi-turn.jsonl", Data: codex}})
	hplan, hfs := stages.Import(tables.SourceHarbor, stages.ImportCampaign{Manifest: man}, harborMap(tables.BillingReference, timeoutClass, harborPassed),
		"map.json", []stages.ImportSource{harborSource(t, harborPassed)})
	for name, c := range map[string]struct {
		plan []byte
		fs   rules.Findings
	}{"codex": {cplan.Receipts, cfs}, "harbor": {hplan.Receipts, hfs}} {
		t.Run(name, func(t *testing.T) {
			if c.fs.Rejected() {
				t.Fatalf("rejected: %v", c.fs)
			}
			rs := harborReceipts(t, c.plan)
			if len(rs) != 1 || rs[0].Identity.ReturnedModel != "gpt-5.6-sol" {
				t.Fatalf("receipts %+v: want one returned by gpt-5.6-sol", rs)
			}
			if slices.ContainsFunc(c.fs, func(f rules.Finding) bool { return f.Code == rules.CodeImportNoReturnedModel }) {
				t.Errorf("findings %v: a record naming its model is warned", c.fs)
			}
		})
	}

	// The trial without model_info: an oracle agent's.
	src := harborSource(t, harborPassed)
	src.Data = bytes.Replace(src.Data, []byte(`"name": "gpt-5.6-sol"`), []byte(`"name": null`), 1)
	if bytes.Contains(src.Data, []byte(`"gpt-5.6-sol"`)) {
		t.Fatal("the trial still names the model")
	}
	m := harborMap(tables.BillingReference, timeoutClass, harborPassed)
	m.Sessions[0].Match.Model = ""
	plan, fs := stages.Import(tables.SourceHarbor, stages.ImportCampaign{Manifest: man}, m, "map.json", []stages.ImportSource{src})
	rs := harborReceipts(t, plan.Receipts)
	i := slices.IndexFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeImportNoReturnedModel })
	switch {
	case fs.Rejected() || len(rs) != 1 || rs[0].Identity.ReturnedModel != "":
		t.Fatalf("without a model: %v %+v, want one receipt with an empty returned_model", fs, rs)
	case i < 0 || fs[i].Severity != rules.Warn || !strings.Contains(fs[i].Message, "map.json#/sessions/0/returned_model"):
		t.Errorf("findings %v: want an import_no_returned_model warning naming map.json#/sessions/0/returned_model", fs)
	}
	m.Sessions[0].ReturnedModel = "gpt-5.6-sol-2026-08-21"
	plan, fs = stages.Import(tables.SourceHarbor, stages.ImportCampaign{Manifest: man}, m, "map.json", []stages.ImportSource{src})
	if rs := harborReceipts(t, plan.Receipts); fs.Rejected() || len(rs) != 1 || rs[0].Identity.ReturnedModel != "gpt-5.6-sol-2026-08-21" ||
		slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeImportNoReturnedModel }) {
		t.Errorf("with the mapping's model: %v %+v, want it in the receipt and no warning", fs, rs)
	}

	// A mapping contradicting the record's own model.
	m = harborMap(tables.BillingReference, timeoutClass, harborPassed)
	m.Sessions[0].ReturnedModel = "gpt-5.6-sol-mini"
	_, fs = stages.Import(tables.SourceHarbor, stages.ImportCampaign{Manifest: man}, m, "map.json", []stages.ImportSource{harborSource(t, harborPassed)})
	if !slices.ContainsFunc(fs, func(f rules.Finding) bool {
		return f.Code == rules.CodeImportMapInvalid && f.Pointer == "/sessions/0/returned_model" && strings.Contains(f.Message, `"gpt-5.6-sol-mini"`)
	}) {
		t.Errorf("findings %v: want import_map_invalid at /sessions/0/returned_model", fs)
	}
}
