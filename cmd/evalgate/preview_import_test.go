package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/importers"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// previewCase is one file given to one importer, previewed and imported.
type previewCase struct {
	source, path string
	refused      bool // known independently of the readers (below)
}

// previewCases are every real log (the fourteen Inspect logs and the
// Harbor oracle trial), every Codex and Harbor fixture, and four files
// given to the wrong importer. Refused, by what each file is: the Inspect
// log cancelled before any sample and both log_formats logs (their totals
// hold usage no sample does), the resumed and the disagreeing rollouts,
// and every file of another format.
func previewCases(t *testing.T) []previewCase {
	t.Helper()
	var out []previewCase
	inspect := "testdata/reallogs/inspect"
	entries, err := os.ReadDir(inspect)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".eval") {
			out = append(out, previewCase{tables.SourceInspect, filepath.Join(inspect, n),
				strings.Contains(n, "no-samples") || strings.HasPrefix(n, "log_formats.")})
		}
	}
	for _, n := range []string{"multi-turn", "error", "resumed", "disagree"} {
		out = append(out, previewCase{tables.SourceCodex, "../../importers/testdata/codex/" + n + ".jsonl", n == "resumed" || n == "disagree"})
	}
	for _, n := range []string{"fix-parser__Ab3xK9q", "fix-parser__Tm7QwE2", "fix-parser__Zr5PnL8"} {
		out = append(out, previewCase{tables.SourceHarbor, "../../importers/testdata/harbor/" + n, false})
	}
	oracle := "testdata/reallogs/harbor/injected-runtime-error__hDCZYzM"
	out = append(out, previewCase{tables.SourceHarbor, oracle, false},
		previewCase{tables.SourceInspect, oracle + "/result.json", true},
		previewCase{tables.SourceCodex, oracle + "/result.json", true},
		previewCase{tables.SourceHarbor, filepath.Join(inspect, "2025-05-12T20-28-13-04-00_popularity.json"), true},
		previewCase{tables.SourceCodex, filepath.Join(inspect, "mmlu-summary-choices.eval"), true})
	return out
}

// TestPreviewAndImportSameRefusals: `evalgate import SOURCE FILE` (the
// preview) and `evalgate import SOURCE FILE --into DIR --map MAP` give
// every file one verdict: refused by both with exactly the same rejecting
// findings, or accepted by both. The mapping names every record as what it
// is, as a user's does: a model's session as a draft of a paired review,
// the oracle trial (no model) as a reviewer benchmark's probe.
func TestPreviewAndImportSameRefusals(t *testing.T) {
	dir := t.TempDir()
	cases := previewCases(t)
	refused := 0
	for i, c := range cases {
		name := fmt.Sprintf("%s %s", c.source, filepath.Base(c.path))
		code, out, stderr := evalgate(t, "import", c.source, c.path, "--json")
		var preview struct {
			Findings rules.Findings `json:"findings"`
		}
		if err := json.Unmarshal([]byte(out), &preview); err != nil {
			t.Fatalf("%s: preview: %v\n%s%s", name, err, out, stderr)
		}
		camp, mapFile := previewCampaign(t, filepath.Join(dir, fmt.Sprint(i)), c)
		icode, iout, istderr := evalgate(t, "import", c.source, c.path, "--into", camp, "--map", mapFile, "--json")
		var imported struct {
			Imported bool           `json:"imported"`
			Findings rules.Findings `json:"findings"`
		}
		if err := json.Unmarshal([]byte(iout), &imported); err != nil {
			t.Fatalf("%s: import: %v\n%s%s", name, err, iout, istderr)
		}
		p, im := rejecting(preview.Findings), rejecting(imported.Findings)
		switch {
		case code != icode || (code == 0) == c.refused:
			t.Errorf("%s: preview exit %d, import exit %d; refused %v expected\npreview %v\nimport %v", name, code, icode, c.refused, preview.Findings, imported.Findings)
		case !slices.Equal(p, im):
			t.Errorf("%s: refusals differ:\npreview %v\nimport  %v", name, p, im)
		case c.refused && len(p) == 0, !c.refused && !imported.Imported:
			t.Errorf("%s: refused %v, imported %v: %v", name, c.refused, imported.Imported, imported.Findings)
		}
		if c.refused {
			refused++
		}
	}
	if len(cases) != 26 || refused != 9 {
		t.Errorf("%d files, %d refused; want 26 and 9", len(cases), refused)
	}
}

func rejecting(fs rules.Findings) rules.Findings {
	out := rules.Findings{}
	for _, f := range fs {
		if f.Severity == rules.Reject {
			out = append(out, f)
		}
	}
	return out
}

// previewCampaign lays out the campaign a user would import c into with
// init, one rate card, and a mapping naming every record the file holds
// (read with the import's own checks, stages.CheckSource: a file it
// refuses gets an empty mapping, which the import never reaches).
func previewCampaign(t *testing.T, dir string, c previewCase) (string, string) {
	t.Helper()
	file := c.path
	if st, err := os.Stat(file); err == nil && st.IsDir() {
		file = filepath.Join(file, "result.json")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := stages.CheckSource(c.source, stages.ImportSource{Name: c.path, Data: data})
	bench := slices.ContainsFunc(recs, func(r importers.SourceRecord) bool { return r.NoModel != "" })
	camp := filepath.Join(dir, "camp")
	args := []string{"init", "--kind", rules.KindPairedReview, "--arm", "A", "--task", "T1:r:F1:behavior_explanation", "--prompt", "common", camp}
	if bench {
		args = []string{"init", "--kind", rules.KindReviewerBenchmark, "--arm", "baseline", "--arm", "candidate", "--prompt", "common", camp}
	}
	if code, out, errOut := evalgate(t, args...); code != 0 {
		t.Fatalf("init: %s%s", out, errOut)
	}
	manPath := filepath.Join(camp, "manifest.json")
	var man map[string]any
	raw, err := os.ReadFile(manPath)
	if err != nil || json.Unmarshal(raw, &man) != nil {
		t.Fatalf("manifest: %v", err)
	}
	man["rate_cards"] = []any{map[string]any{"id": "card", "model": "any", "date_checked": "2026-12-01", "source": "test", "currency": "USD",
		"prices": map[string]any{"uncached_input": "1", "cached_input": "0.5", "cache_write_5m": nil, "cache_write_1h": nil, "output": "2"}}}
	raw, _ = json.Marshal(man)
	if err := os.WriteFile(manPath, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	m := tables.ImportMap{Format: tables.FormatImportMap, Source: c.source, RateCard: "card", Billing: tables.BillingReference,
		ErrorClasses: []tables.ImportErrorClass{}, Sessions: []tables.ImportSession{}}
	classes := map[string]bool{}
	for i, r := range recs {
		s := tables.ImportSession{Match: r.Match, SessionID: fmt.Sprint("S", i+1), Attempt: 1, TaskID: "T1", Repetition: 1,
			Role: tables.RoleDraft, PromptIDs: []string{}}
		if r.NoModel != "" {
			s.TaskID, s.Role = "control", tables.RoleProbe
		}
		m.Sessions = append(m.Sessions, s)
		if r.Error != "" && !classes[r.Error] {
			classes[r.Error] = true
			m.ErrorClasses = append(m.ErrorClasses, tables.ImportErrorClass{SourceError: r.Error, Class: tables.ErrorPlatformOutage})
		}
	}
	mapFile := filepath.Join(dir, "map.json")
	raw, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mapFile, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return camp, mapFile
}
