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

// TestImportNoReturnedModel: a Codex rollout names only the model it was
// configured to request (turn_context) and a Harbor trial only the agent's
// configured model (agent_info.model_info): neither records the model the
// provider returned. The import matches the mapping by the requested
// model, leaves the receipt's returned_model empty — never the requested
// model — and warns import_no_returned_model for each such session.
func TestImportNoReturnedModel(t *testing.T) {
	// The fixtures name the requested model, read here independently.
	for _, f := range []string{filepath.Join(codexRollouts, "multi-turn.jsonl"), filepath.Join(harborTrials, harborPassed, "result.json")} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(`"gpt-5.6-sol"`)) && !bytes.Contains(data, []byte(`"name": "gpt-5.6-sol"`)) {
			t.Fatalf("%s no longer names the requested model gpt-5.6-sol", f)
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
			if len(rs) != 1 || rs[0].Identity.ReturnedModel != "" {
				t.Fatalf("receipts %+v: want one with an empty returned_model", rs)
			}
			i := slices.IndexFunc(c.fs, func(f rules.Finding) bool { return f.Code == rules.CodeImportNoReturnedModel })
			if i < 0 || c.fs[i].Severity != rules.Warn || c.fs[i].Session != rs[0].SessionID || !strings.Contains(c.fs[i].Message, "returned_model is left empty") {
				t.Errorf("findings %v: want an import_no_returned_model warning for %s", c.fs, rs[0].SessionID)
			}
		})
	}
}
