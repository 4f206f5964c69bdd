package stages_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	gojson "github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// The test helpers of the stages' import tests (stages.Import: the
// readers, the account stage's meter checks and the plan, end to end):
// fixtures, rate cards, the campaign `init` lays out and the mappings a
// user writes. The importers' own tests (mapping, ledger, benchmark
// sessions) have theirs in importers/import_helpers_test.go.

const codexRollouts = "../importers/testdata/codex"

// codexRate is the Codex rate card of the paired-review example: $4 per million
// uncached input tokens, $0.40 cached, $20 output.
var codexRate = tables.RateCard{ID: "codex", Model: "gpt-5.6-sol", DateChecked: "2026-09-05", Source: "Codex rate card",
	Currency: "USD", Prices: tables.RatePrices{UncachedInput: "4", CachedInput: ptr("0.40"), Output: "20"}}

func codexMap(record, session string) *tables.ImportMap {
	return &tables.ImportMap{Format: tables.FormatImportMap, Source: tables.SourceCodex, RateCard: "codex",
		Billing: tables.BillingReference, ErrorClasses: []tables.ImportErrorClass{{SourceError: "error", Class: tables.ErrorPlatformOutage}},
		Sessions: []tables.ImportSession{{Match: tables.ImportMatch{Record: record, Model: "gpt-5.6-sol"}, SessionID: session,
			Attempt: 1, TaskID: "T1", Repetition: 1, Role: tables.RoleReview, Arm: ptr("A"), DraftSessionID: ptr("T1-r1-D"),
			PromptIDs: []string{"common"}}},
	}
}

const codexSession = "019d0a4c-1b2e-7a51-9c3d-2f6e8b1a7c40"

func importCodex(t *testing.T, file string) (*tables.Manifest, stages.ImportCampaign, []byte, rules.Findings) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(codexRollouts, file))
	if err != nil {
		t.Fatal(err)
	}
	man := initCampaign(t, codexRate)
	camp := stages.ImportCampaign{Manifest: man}
	plan, fs := stages.Import(tables.SourceCodex, camp, codexMap(codexSession, "T1-r1-A"), "map.json",
		[]stages.ImportSource{{Name: file, Data: data}})
	return man, camp, plan.Receipts, fs
}

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

func receiptsOf(t *testing.T, plan []byte) []tables.Receipt {
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

// inspectLogs are the fourteen real Inspect AI logs (MIT, their licence
// beside them): one copy, which the CLI's scripts and the importers'
// tests read too.
const inspectLogs = "../cmd/evalgate/testdata/reallogs/inspect"

// rawLog is an Inspect log read independently of the importer, with
// encoding/json and archive/zip only: the header's per-model totals and
// every (sample id, epoch, model usage key).
type rawLog struct {
	runID   string
	totals  map[string]map[string]any // stats.model_usage
	samples []rawSample
}

type rawSample struct {
	id     string
	epoch  int64
	models []string
}

func readRawLog(t *testing.T, path string) rawLog {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type header struct {
		Eval struct {
			RunID string `json:"run_id"`
		} `json:"eval"`
		Stats struct {
			ModelUsage map[string]map[string]any `json:"model_usage"`
		} `json:"stats"`
	}
	type sample struct {
		ID         json.RawMessage           `json:"id"`
		Epoch      int64                     `json:"epoch"`
		ModelUsage map[string]map[string]any `json:"model_usage"`
	}
	var h header
	var samples []sample
	if bytes.HasPrefix(data, []byte("PK")) {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			switch {
			case f.Name == "header.json":
				if err := json.Unmarshal(b, &h); err != nil {
					t.Fatal(err)
				}
			case strings.HasPrefix(f.Name, "samples/"):
				var s sample
				if err := json.Unmarshal(b, &s); err != nil {
					t.Fatal(err)
				}
				samples = append(samples, s)
			}
		}
	} else {
		var doc struct {
			header
			Samples []sample `json:"samples"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		h, samples = doc.header, doc.Samples
	}
	out := rawLog{runID: h.Eval.RunID, totals: h.Stats.ModelUsage}
	for _, s := range samples {
		id := strings.Trim(string(s.ID), `"`)
		var models []string
		for m := range s.ModelUsage {
			models = append(models, m)
		}
		slices.Sort(models)
		out.samples = append(out.samples, rawSample{id: id, epoch: s.Epoch, models: models})
	}
	return out
}

// gpt4oMini prices gpt-4o-mini at OpenAI's list prices: $0.15 per million
// uncached input tokens, $0.075 cached, $0.60 output.
var gpt4oMini = tables.RateCard{ID: "gpt-4o-mini", Model: "gpt-4o-mini", DateChecked: "2026-12-01", Source: "OpenAI list prices",
	Currency: "USD", Prices: tables.RatePrices{UncachedInput: "0.15", CachedInput: ptr("0.075"), Output: "0.60"}}

func ptr[T any](v T) *T { return &v }

// initCampaign lays out a fresh paired-review campaign with `init`'s
// skeleton and adds one rate card, as a user would before importing.
func initCampaign(t *testing.T, cards ...tables.RateCard) *tables.Manifest {
	t.Helper()
	d := &tables.DesignFile{Format: tables.FormatDesign, CampaignID: "imported", Repetitions: 1, Prompts: []string{"common"},
		DraftPrompts: []string{"common"}, Arms: []tables.Arm{{ID: "A", Label: "A", Prompts: []string{"common"}}},
		Tasks: []tables.DesignTask{{ID: "T1", Repository: "r", Family: "F1", Split: "evaluation", Category: tables.CategoryBehaviorExplanation}}}
	files, err := stages.Skeleton(rules.KindPairedReview, d, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	var m tables.Manifest
	if err := gojson.Unmarshal(files[0].Data, &m); err != nil {
		t.Fatal(err)
	}
	m.RateCards = cards
	return &m
}

// inspectMap maps every (sample, epoch, model) of log to its own draft
// session.
func inspectMap(log rawLog, prefix string) *tables.ImportMap {
	m := &tables.ImportMap{Format: tables.FormatImportMap, Source: tables.SourceInspect, RateCard: "gpt-4o-mini",
		Billing: tables.BillingReference, ErrorClasses: []tables.ImportErrorClass{}}
	for _, s := range log.samples {
		for _, model := range s.models {
			m.Sessions = append(m.Sessions, tables.ImportSession{
				Match:     tables.ImportMatch{Record: log.runID, Sample: s.id, Epoch: s.epoch, Model: model},
				SessionID: fmt.Sprintf("%s-%s-%d", prefix, s.id, s.epoch), Attempt: 1, TaskID: "T1", Repetition: 1,
				Role: tables.RoleDraft, PromptIDs: []string{"common"},
			})
		}
	}
	return m
}

func jsonUnmarshalReceipt(line []byte, r *tables.Receipt) error { return gojson.Unmarshal(line, r) }
