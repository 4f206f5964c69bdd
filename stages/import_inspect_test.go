package stages_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gojson "github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/tables"
)

// TestImportInspectLogsKeepTheirTotals imports every real Inspect log into
// a fresh campaign. The receipts' usage, summed per model and member, must
// equal the log's own stats.model_usage as readRawLog reads it with encoding/json;
// a log whose totals its samples do not account for (no samples; usage
// recorded only in the totals) is refused, never imported short; a log of
// a provider whose usage had no known semantics before inspect_ai 0.3.184
// (ollama, azureai) imports every sample without a meter, and says so
// once.
func TestImportInspectLogsKeepTheirTotals(t *testing.T) {
	entries, err := os.ReadDir(inspectLogs)
	if err != nil {
		t.Fatal(err)
	}
	refused := map[string]bool{ // stats hold usage no sample reports
		"2025-05-12T20-28-13-04-00_no-samples.json": true,                           // cancelled before any sample: 198 tokens
		"log_formats.json":                          true, "log_formats.eval": true, // inspect_ai 0.3.41 kept usage only in the totals
	}
	meterless := map[string]bool{ // ollama/gemma3 (0.3.95) and azureai (0.3.42)
		"log_read_sample.json": true, "log_read_sample.eval": true, "log_streaming.eval": true,
	}
	imported, unmetered := 0, 0
	for i, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".eval") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(inspectLogs, name)
			raw := readRawLog(t, path)
			data, _ := os.ReadFile(path)
			man := initCampaign(t, gpt4oMini)
			plan, fs := stages.Import(tables.SourceInspect, stages.ImportCampaign{Manifest: man}, inspectMap(raw, fmt.Sprint("L", i)),
				"map.json", []stages.ImportSource{{Name: name, Data: data}})
			if refused[name] {
				if !fs.Rejected() || !slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == rules.CodeImportUsageUnattributed }) {
					t.Fatalf("want the log refused with %s, got %v", rules.CodeImportUsageUnattributed, fs)
				}
				return
			}
			if fs.Rejected() {
				t.Fatalf("rejected: %v", fs)
			}
			if meterless[name] {
				unmetered++
				rs := receiptsOf(t, plan.Receipts)
				n := slices.IndexFunc(rs, func(r tables.Receipt) bool { return r.Meter != nil })
				warned := slices.DeleteFunc(slices.Clone(fs), func(f rules.Finding) bool { return f.Code != rules.CodeImportNoMeter })
				if len(rs) == 0 || n >= 0 || len(warned) != 1 || warned[0].Severity != rules.Warn {
					t.Fatalf("%d receipts (a metered one at %d), findings %v: want every receipt without a meter and one import_no_meter warning", len(rs), n, fs)
				}
				return
			}
			imported++
			got := map[string]map[string]int64{}
			for _, line := range bytes.Split(bytes.TrimSpace(plan.Receipts), []byte("\n")) {
				var r struct {
					Meter *struct {
						Usage map[string]int64 `json:"usage"`
					} `json:"meter"`
					Identity struct {
						ReturnedModel string `json:"returned_model"`
					} `json:"identity"`
					MonotonicStart *int64          `json:"monotonic_start_ns"`
					Reservation    json.RawMessage `json:"reservation"`
				}
				if err := json.Unmarshal(line, &r); err != nil {
					t.Fatal(err)
				}
				if r.MonotonicStart != nil || string(r.Reservation) != "null" {
					t.Errorf("a monotonic clock or reservation was filled in: %s", line)
				}
				if r.Meter == nil {
					t.Fatalf("receipt without meter: %s", line)
				}
				model := "openai/gpt-4o-mini"
				if strings.HasPrefix(r.Identity.ReturnedModel, "gpt-4o-2") {
					model = "openai/gpt-4o"
				}
				if got[model] == nil {
					got[model] = map[string]int64{}
				}
				for k, v := range r.Meter.Usage {
					got[model][k] += v
				}
			}
			for model, members := range raw.totals {
				for k, v := range members {
					if f, ok := v.(float64); ok && got[model][k] != int64(f) {
						t.Errorf("%s %s: receipts sum to %d, the log's total is %v", model, k, got[model][k], v)
					}
				}
			}
			if len(got) != len(raw.totals) {
				t.Errorf("models %v, the log's totals name %d", got, len(raw.totals))
			}
		})
	}
	// 14 logs: three refused, three without a meter, eight kept to their
	// totals (the README beside them lists each).
	if imported != 8 || unmetered != 3 {
		t.Errorf("imported %d logs with their totals and %d without a meter, want 8 and 3 of the 14", imported, unmetered)
	}
}

// TestImportInspectPricedCost prices the imported receipts of three real
// logs through the account stage, at gpt-4o-mini's $0.15 / $0.075 / $0.60
// per million uncached input / cached input / output tokens. Worked by
// hand from the logs (inspect_ai 0.3.95, inclusive input):
//
// browser.json, one sample: input 15,235 of which 9,088 cache reads, so
// 6,147 uncached; output 281.
//
//	6,147 × 0.15  = 922.05  → $0.00092205
//	9,088 × 0.075 = 681.6   → $0.0006816
//	  281 × 0.60  = 168.6   → $0.0001686
//	                 total    $0.00177225
//
// popularity.json, three samples, no cache reads: input 64, 58, 70 and 2
// output tokens each.
//
//	64 × 0.15 + 2 × 0.60 = 9.6 + 1.2  = 10.8 → $0.0000108
//	58 × 0.15 + 2 × 0.60 = 8.7 + 1.2  =  9.9 → $0.0000099
//	70 × 0.15 + 2 × 0.60 = 10.5 + 1.2 = 11.7 → $0.0000117
//
// security-guide.json, three samples, no cache reads: input 320, 310, 329;
// output 309, 256, 468.
//
//	320 × 0.15 + 309 × 0.60 = 48    + 185.4 = 233.4  → $0.0002334
//	310 × 0.15 + 256 × 0.60 = 46.5  + 153.6 = 200.1  → $0.0002001
//	329 × 0.15 + 468 × 0.60 = 49.35 + 280.8 = 330.15 → $0.00033015
func TestImportInspectPricedCost(t *testing.T) {
	for name, want := range map[string][]string{
		"2025-05-12T20-27-36-04-00_browser.json":        {"0.00177225"},
		"2025-05-12T20-28-13-04-00_popularity.json":     {"0.0000108", "0.0000099", "0.0000117"},
		"2025-05-12T20-28-26-04-00_security-guide.json": {"0.0002334", "0.0002001", "0.00033015"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(inspectLogs, name)
			data, _ := os.ReadFile(path)
			man := initCampaign(t, gpt4oMini)
			plan, fs := stages.Import(tables.SourceInspect, stages.ImportCampaign{Manifest: man}, inspectMap(readRawLog(t, path), "B"),
				"map.json", []stages.ImportSource{{Name: name, Data: data}})
			if fs.Rejected() || plan.Added != len(want) {
				t.Fatalf("added %d: %v", plan.Added, fs)
			}
			var lines []tables.Line[tables.Receipt]
			for i, line := range bytes.Split(bytes.TrimSpace(plan.Receipts), []byte("\n")) {
				var r tables.Receipt
				if err := gojson.Unmarshal(line, &r); err != nil {
					t.Fatal(err)
				}
				lines = append(lines, tables.Line[tables.Receipt]{Line: int64(i + 1), Record: r})
			}
			set := account.Run(&tables.Campaign{Manifest: *man, Receipts: spool.Of(lines...)})
			rows := set.Tokens.Collect()
			if len(rows) != len(want) {
				t.Fatalf("tokens %+v", rows)
			}
			for i, row := range rows {
				w, _ := tables.ParseMoney(want[i])
				if row.ReferenceCost == nil || *row.ReferenceCost != w {
					t.Errorf("session %s: reference cost %v, want %s", row.SessionID, row.ReferenceCost, want[i])
				}
			}
		})
	}
}

// TestImportInspectLogsTogether imports the six importable real logs in
// one import into one fresh campaign with one mapping: every (sample,
// model) becomes one receipt.
func TestImportInspectLogsTogether(t *testing.T) {
	logs := []string{
		"2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval",
		"2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval",
		"2025-05-12T20-27-36-04-00_browser.json", "2025-05-12T20-28-13-04-00_popularity.json",
		"2025-05-12T20-28-26-04-00_security-guide.json", "mmlu-summary-choices.eval",
	}
	m := &tables.ImportMap{Format: tables.FormatImportMap, Source: tables.SourceInspect, RateCard: "gpt-4o-mini",
		Billing: tables.BillingReference, ErrorClasses: []tables.ImportErrorClass{}}
	var sources []stages.ImportSource
	want := 0
	for i, name := range logs {
		path := filepath.Join(inspectLogs, name)
		raw := readRawLog(t, path)
		for _, s := range raw.samples {
			want += len(s.models)
		}
		m.Sessions = append(m.Sessions, inspectMap(raw, fmt.Sprint("L", i)).Sessions...)
		data, _ := os.ReadFile(path)
		sources = append(sources, stages.ImportSource{Name: name, Data: data})
	}
	plan, fs := stages.Import(tables.SourceInspect, stages.ImportCampaign{Manifest: initCampaign(t, gpt4oMini)}, m, "map.json", sources)
	if fs.Rejected() || plan.Added != want || want != 28 {
		t.Fatalf("added %d of %d: %v", plan.Added, want, fs)
	}
}
