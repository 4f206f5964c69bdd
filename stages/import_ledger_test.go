package stages_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// TestImportIdempotent: importing the same rollout again into the
// campaign the first import wrote adds nothing; the same record mapped
// differently, or a new record under a session ID the campaign already
// holds, is refused and adds nothing.
func TestImportIdempotent(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join(codexRollouts, "multi-turn.jsonl"))
	src := []stages.ImportSource{{Name: "multi-turn.jsonl", Data: data}}
	man := initCampaign(t, codexRate)
	first, fs := stages.Import(tables.SourceCodex, stages.ImportCampaign{Manifest: man}, codexMap(codexSession, "T1-r1-A"), "map.json", src)
	if fs.Rejected() || first.Added != 1 {
		t.Fatalf("first import: added %d, %v", first.Added, fs)
	}
	camp := stages.ImportCampaign{Manifest: man, Receipts: first.Receipts, Ledger: first.Ledger}

	again, fs := stages.Import(tables.SourceCodex, camp, codexMap(codexSession, "T1-r1-A"), "map.json", src)
	if fs.Rejected() || again.Changed() || again.Skipped != 1 || !bytes.Equal(again.Receipts, first.Receipts) || len(again.Answers) != 0 {
		t.Errorf("second identical import: %+v %v", again, fs)
	}

	other := codexMap(codexSession, "T1-r1-A")
	other.Sessions[0].Repetition = 2
	conflict, fs := stages.Import(tables.SourceCodex, camp, other, "map.json", src)
	if conflict.Added != 0 || !slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeImportConflict }) {
		t.Errorf("remapped record: %+v %v", conflict, fs)
	}

	// Another rollout's record under the session ID already written.
	taken, fs := stages.Import(tables.SourceCodex, stages.ImportCampaign{Manifest: man, Receipts: first.Receipts},
		codexMap(codexSession, "T1-r1-A"), "map.json", src)
	if taken.Added != 0 || !slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeImportConflict }) {
		t.Errorf("taken session ID: %+v %v", taken, fs)
	}
}

// TestImportMapping: a record no entry names refuses the import; an entry
// naming no record is a warning; a rate card or prompt the manifest lacks
// refuses it.
func TestImportMapping(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join(codexRollouts, "multi-turn.jsonl"))
	src := []stages.ImportSource{{Name: "multi-turn.jsonl", Data: data}}
	man := initCampaign(t, codexRate)
	has := func(fs rules.Findings, code rules.Code, sev rules.Severity) bool {
		return slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == code && f.Severity == sev })
	}

	_, fs := stages.Import(tables.SourceCodex, stages.ImportCampaign{Manifest: man}, codexMap("another-session", "T1-r1-A"), "map.json", src)
	if !has(fs, rules.CodeImportUnmapped, rules.Reject) || !has(fs, rules.CodeImportMapUnmatched, rules.Warn) {
		t.Errorf("unmapped record: %v", fs)
	}
	m := codexMap(codexSession, "T1-r1-A")
	m.RateCard = "no-such-card"
	m.Sessions[0].PromptIDs = []string{"no-such-prompt"}
	_, fs = stages.Import(tables.SourceCodex, stages.ImportCampaign{Manifest: man}, m, "map.json", src)
	if n := len(slices.DeleteFunc(slices.Clone(fs), func(f rules.Finding) bool { return f.Code != rules.CodeImportMapInvalid })); n != 2 {
		t.Errorf("want 2 %s findings, got %v", rules.CodeImportMapInvalid, fs)
	}
}

// TestImportFillsWhatWasAbsent: a record imported without a reservation
// and prompts is completed in place by a later import whose mapping
// supplies them; once present, a different reservation is a conflict.
func TestImportFillsWhatWasAbsent(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join(codexRollouts, "multi-turn.jsonl"))
	src := []stages.ImportSource{{Name: "multi-turn.jsonl", Data: data}}
	man := initCampaign(t, codexRate)
	bare := codexMap(codexSession, "T1-r1-A")
	bare.Sessions[0].PromptIDs = nil
	first, fs := stages.Import(tables.SourceCodex, stages.ImportCampaign{Manifest: man}, bare, "map.json", src)
	if fs.Rejected() {
		t.Fatal(fs)
	}
	full := codexMap(codexSession, "T1-r1-A")
	full.Sessions[0].Reservation = &tables.Reservation{ID: "res-1", InputTokens: 60000, OutputTokens: 4000, Cost: "0.5"}
	camp := stages.ImportCampaign{Manifest: man, Receipts: first.Receipts, Ledger: first.Ledger}
	filled, fs := stages.Import(tables.SourceCodex, camp, full, "map.json", src)
	if fs.Rejected() || filled.Filled != 1 || filled.Added != 0 {
		t.Fatalf("fill: %+v %v", filled, fs)
	}
	var r tables.Receipt
	if err := jsonUnmarshalReceipt(bytes.TrimSpace(filled.Receipts), &r); err != nil {
		t.Fatal(err)
	}
	if r.Reservation == nil || r.Reservation.ID != "res-1" || len(r.Inputs.PromptSHA256s) != 1 {
		t.Errorf("filled receipt %+v", r)
	}
	other := codexMap(codexSession, "T1-r1-A")
	other.Sessions[0].Reservation = &tables.Reservation{ID: "res-2", InputTokens: 1, OutputTokens: 1, Cost: "0.1"}
	_, fs = stages.Import(tables.SourceCodex, stages.ImportCampaign{Manifest: man, Receipts: filled.Receipts, Ledger: filled.Ledger}, other, "map.json", src)
	if !slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeImportConflict }) {
		t.Errorf("changing a present reservation: %v", fs)
	}
}
