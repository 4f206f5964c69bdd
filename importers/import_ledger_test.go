package importers

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// TestImportIdempotent: importing the same rollout again into the
// campaign the first import wrote adds nothing; the same record mapped
// differently, or a new record under a session ID the campaign already
// holds, is refused and adds nothing.
func TestImportIdempotent(t *testing.T) {
	src := codexSource(t, "multi-turn.jsonl")
	man := testManifest(rules.KindPairedReview, codexRate)
	first, fs := importInto(t, tables.SourceCodex, importCampaign{man: man}, codexMap(codexSession, "T1-r1-A"), "map.json", src)
	if fs.Rejected() || first.Added != 1 {
		t.Fatalf("first import: added %d, %v", first.Added, fs)
	}
	camp := importCampaign{man: man, receipts: first.Receipts, ledger: first.Ledger}

	again, fs := importInto(t, tables.SourceCodex, camp, codexMap(codexSession, "T1-r1-A"), "map.json", src)
	if fs.Rejected() || again.Changed() || again.Skipped != 1 || !bytes.Equal(again.Receipts, first.Receipts) || len(again.Answers) != 0 {
		t.Errorf("second identical import: %+v %v", again, fs)
	}

	other := codexMap(codexSession, "T1-r1-A")
	other.Sessions[0].Repetition = 2
	conflict, fs := importInto(t, tables.SourceCodex, camp, other, "map.json", src)
	if conflict.Added != 0 || !hasCode(fs, rules.CodeImportConflict, "") {
		t.Errorf("remapped record: %+v %v", conflict, fs)
	}

	// Another rollout's record under the session ID already written.
	taken, fs := importInto(t, tables.SourceCodex, importCampaign{man: man, receipts: first.Receipts},
		codexMap(codexSession, "T1-r1-A"), "map.json", src)
	if taken.Added != 0 || !hasCode(fs, rules.CodeImportConflict, "") {
		t.Errorf("taken session ID: %+v %v", taken, fs)
	}
}

// TestImportMapping: a record no entry names refuses the import; an entry
// naming no record is a warning; a rate card or prompt the manifest lacks
// refuses it.
func TestImportMapping(t *testing.T) {
	src := codexSource(t, "multi-turn.jsonl")
	camp := importCampaign{man: testManifest(rules.KindPairedReview, codexRate)}

	_, fs := importInto(t, tables.SourceCodex, camp, codexMap("another-session", "T1-r1-A"), "map.json", src)
	if !hasCode(fs, rules.CodeImportUnmapped, rules.Reject) || !hasCode(fs, rules.CodeImportMapUnmatched, rules.Warn) {
		t.Errorf("unmapped record: %v", fs)
	}
	m := codexMap(codexSession, "T1-r1-A")
	m.RateCard = "no-such-card"
	m.Sessions[0].PromptIDs = []string{"no-such-prompt"}
	_, fs = importInto(t, tables.SourceCodex, camp, m, "map.json", src)
	if n := len(slices.DeleteFunc(slices.Clone(fs), func(f rules.Finding) bool { return f.Code != rules.CodeImportMapInvalid })); n != 2 {
		t.Errorf("want 2 %s findings, got %v", rules.CodeImportMapInvalid, fs)
	}
}

// TestImportFillsWhatWasAbsent: a record imported without a reservation
// and prompts is completed in place by a later import whose mapping
// supplies them; once present, a different reservation is a conflict.
func TestImportFillsWhatWasAbsent(t *testing.T) {
	src := codexSource(t, "multi-turn.jsonl")
	man := testManifest(rules.KindPairedReview, codexRate)
	bare := codexMap(codexSession, "T1-r1-A")
	bare.Sessions[0].PromptIDs = nil
	first, fs := importInto(t, tables.SourceCodex, importCampaign{man: man}, bare, "map.json", src)
	if fs.Rejected() {
		t.Fatal(fs)
	}
	full := codexMap(codexSession, "T1-r1-A")
	full.Sessions[0].Reservation = &tables.Reservation{ID: "res-1", InputTokens: 60000, OutputTokens: 4000, Cost: "0.5"}
	filled, fs := importInto(t, tables.SourceCodex, importCampaign{man: man, receipts: first.Receipts, ledger: first.Ledger}, full, "map.json", src)
	if fs.Rejected() || filled.Filled != 1 || filled.Added != 0 {
		t.Fatalf("fill: %+v %v", filled, fs)
	}
	if rs := receiptsOf(t, filled.Receipts); len(rs) != 1 || rs[0].Reservation == nil || rs[0].Reservation.ID != "res-1" || len(rs[0].Inputs.PromptSHA256s) != 1 {
		t.Errorf("filled receipts %+v", rs)
	}
	other := codexMap(codexSession, "T1-r1-A")
	other.Sessions[0].Reservation = &tables.Reservation{ID: "res-2", InputTokens: 1, OutputTokens: 1, Cost: "0.1"}
	_, fs = importInto(t, tables.SourceCodex, importCampaign{man: man, receipts: filled.Receipts, ledger: filled.Ledger}, other, "map.json", src)
	if !hasCode(fs, rules.CodeImportConflict, "") {
		t.Errorf("changing a present reservation: %v", fs)
	}
}

// TestImportHost: no source records the host a session ran on, so a
// mapping without identity.host imports receipts without one and says so
// once, naming where it goes; the mapping's host is every receipt's
// identity.host, and importing again with it fills the receipts in place.
func TestImportHost(t *testing.T) {
	man := testManifest(rules.KindPairedReview, codexRate)
	src := codexSource(t, "multi-turn.jsonl")
	m := codexMap(codexSession, "T1-r1-A")
	plan, fs := importInto(t, tables.SourceCodex, importCampaign{man: man}, m, "codex-map.json", src)
	var warned []rules.Finding
	for _, f := range fs {
		if f.Code == rules.CodeImportNoHost {
			warned = append(warned, f)
		}
	}
	rs := receiptsOf(t, plan.Receipts)
	switch {
	case fs.Rejected() || len(rs) != 1 || rs[0].Identity.Host != "":
		t.Fatalf("without a host: %v %+v, want one receipt without a host", fs, rs)
	case len(warned) != 1 || warned[0].Severity != rules.Warn || warned[0].File != "codex-map.json" ||
		!strings.Contains(warned[0].Message, "at codex-map.json#/identity/host and import again"):
		t.Fatalf("findings %v: want one import_no_host warning naming codex-map.json#/identity/host", fs)
	}

	m.Identity.Host = "runner-host-7"
	again, fs := importInto(t, tables.SourceCodex, importCampaign{man: man, receipts: plan.Receipts, ledger: plan.Ledger}, m, "codex-map.json", src)
	rs = receiptsOf(t, again.Receipts)
	switch {
	case fs.Rejected() || hasCode(fs, rules.CodeImportNoHost, ""):
		t.Fatalf("with a host: %v, want no refusal and no import_no_host", fs)
	case len(rs) != 1 || rs[0].Identity.Host != "runner-host-7" || again.Added != 0 || again.Filled != 1:
		t.Errorf("with a host: %+v (added %d, filled %d), want the one receipt filled in place with host runner-host-7", rs, again.Added, again.Filled)
	}
}
