package stages_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// TestImportHost: no source records the host a session ran on, so a
// mapping without identity.host imports receipts without one and says so
// once, naming where it goes; the mapping's host is every receipt's
// identity.host, and importing again with it fills the receipts in place.
func TestImportHost(t *testing.T) {
	man := initCampaign(t, codexRate)
	codex, err := os.ReadFile(filepath.Join(codexRollouts, "multi-turn.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	src := []stages.ImportSource{{Name: "multi-turn.jsonl", Data: codex}}
	m := codexMap(codexSession, "T1-r1-A")
	plan, fs := stages.Import(tables.SourceCodex, stages.ImportCampaign{Manifest: man}, m, "codex-map.json", src)
	var warned []rules.Finding
	for _, f := range fs {
		if f.Code == rules.CodeImportNoHost {
			warned = append(warned, f)
		}
	}
	rs := harborReceipts(t, plan.Receipts)
	switch {
	case fs.Rejected() || len(rs) != 1 || rs[0].Identity.Host != "":
		t.Fatalf("without a host: %v %+v, want one receipt without a host", fs, rs)
	case len(warned) != 1 || warned[0].Severity != rules.Warn || warned[0].File != "codex-map.json" ||
		!strings.Contains(warned[0].Message, "at codex-map.json#/identity/host and import again"):
		t.Fatalf("findings %v: want one import_no_host warning naming codex-map.json#/identity/host", fs)
	}

	m.Identity.Host = "runner-host-7"
	again, fs := stages.Import(tables.SourceCodex, stages.ImportCampaign{Manifest: man, Receipts: plan.Receipts, Ledger: plan.Ledger}, m, "codex-map.json", src)
	rs = harborReceipts(t, again.Receipts)
	switch {
	case fs.Rejected() || slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeImportNoHost }):
		t.Fatalf("with a host: %v, want no refusal and no import_no_host", fs)
	case len(rs) != 1 || rs[0].Identity.Host != "runner-host-7" || again.Added != 0 || again.Filled != 1:
		t.Errorf("with a host: %+v (added %d, filled %d), want the one receipt filled in place with host runner-host-7", rs, again.Added, again.Filled)
	}
}
