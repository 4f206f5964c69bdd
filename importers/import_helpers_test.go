package importers

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	gojson "github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The test helpers of the importers' mapping and ledger tests: fixtures,
// the campaign an import reads, mappings a user writes, and the import
// itself (reader, BuildImport, PlanImport) without the account stage's
// meter decoding, which the stages' tests cover.

// inspectTestdata holds the real Inspect AI logs (MIT, their licence and
// README beside them): one copy, which the CLI's scripts read too.
const inspectTestdata = "../cmd/evalgate/testdata/reallogs/inspect"

// The fixtures. The real Harbor trial is one copy beside the real
// Inspect logs (Apache-2.0, its licence beside it).
const (
	codexRollouts = "testdata/codex"
	harborTrials  = "testdata/harbor"
	realHarbor    = "../cmd/evalgate/testdata/reallogs/harbor/injected-runtime-error__hDCZYzM"
)

// codexSession is the session ID of every Codex fixture.
const codexSession = "019d0a4c-1b2e-7a51-9c3d-2f6e8b1a7c40"

// The three Harbor trial fixtures and their ids.
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

// The real oracle trial: the oracle agent, timed out, no token counts.
const (
	oracleTrial    = "bc1e6caa-1f0b-4a67-85c0-52cc9024dd41"
	oracleChecksum = "890365fc35641165a9be9febc08cdeb71fe7c592bcc137a4f53219a4db1c7e95"
)

// codexRate is the Codex rate card of the paired-review example: $4 per
// million uncached input tokens, $0.40 cached, $20 output.
var codexRate = tables.RateCard{ID: "codex", Model: "gpt-5.6-sol", DateChecked: "2026-09-05", Source: "Codex rate card",
	Currency: "USD", Prices: tables.RatePrices{UncachedInput: "4", CachedInput: ptr("0.40"), Output: "20"}}

// gpt4oMini prices gpt-4o-mini at OpenAI's list prices: $0.15 per million
// uncached input tokens, $0.075 cached, $0.60 output.
var gpt4oMini = tables.RateCard{ID: "gpt-4o-mini", Model: "gpt-4o-mini", DateChecked: "2026-12-01", Source: "OpenAI list prices",
	Currency: "USD", Prices: tables.RatePrices{UncachedInput: "0.15", CachedInput: ptr("0.075"), Output: "0.60"}}

var timeoutClass = []tables.ImportErrorClass{{SourceError: "AgentTimeoutError", Class: tables.ErrorModelTimeout}}

func ptr[T any](v T) *T { return &v }

// testManifest is what an import reads of a campaign of kind: its rate
// cards, one prompt (common) and one task (T1), as `init` lays them out
// (the files' digests those of empty files).
func testManifest(kind string, cards ...tables.RateCard) *tables.Manifest {
	empty := sha256Hex(nil)
	return &tables.Manifest{Kind: kind, RateCards: cards, ResponseSchemaSHA256: empty,
		Prompts: []tables.PromptFile{{ID: "common", Path: "prompts/common.md", SHA256: empty}},
		Design:  tables.Design{Tasks: []tables.TaskSpec{{ID: "T1", TaskSHA256: empty, PacketSHA256: empty}}}}
}

// importSource is one source file of an import: for Harbor, with the
// output and input files its mapping names.
type importSource struct {
	name                string
	data, output, input []byte
}

// importCampaign is what an import reads of the campaign it appends to.
type importCampaign struct {
	man              *tables.Manifest
	receipts, ledger []byte
	checksums        map[string]string
}

// importInto reads every source with its reader, builds the sessions of
// the mapping and plans the import: what `import` does, but for the
// meters' decoding by the account stage. The plan is empty when anything
// rejects.
func importInto(t *testing.T, source string, c importCampaign, m *tables.ImportMap, mapFile string, srcs ...importSource) (ImportPlan, rules.Findings) {
	t.Helper()
	var recs []SourceRecord
	var found rules.Findings
	for _, s := range srcs {
		switch source {
		case tables.SourceCodex:
			rec, fs := ReadCodexRollout(s.name, s.data)
			found = append(found, fs...)
			if rec != nil {
				recs = append(recs, *rec)
			}
		case tables.SourceHarbor:
			rec, fs := ReadHarborTrial(s.name, s.data, s.output)
			found = append(found, fs...)
			if rec != nil {
				rec.Input = s.input
				recs = append(recs, *rec)
			}
		case tables.SourceInspect:
			log, fs := ReadInspectLog(s.name, bytes.NewReader(s.data), int64(len(s.data)))
			found = append(found, fs...)
			if log != nil {
				rs, fs := InspectRecords(log, sha256Hex(s.data))
				recs, found = append(recs, rs...), append(found, fs...)
			}
		default:
			t.Fatalf("no source %q", source)
		}
	}
	if found.Rejected() {
		return ImportPlan{}, found
	}
	sessions, fs := BuildImport(m, mapFile, c.man, c.checksums, recs)
	if found = append(found, fs...); found.Rejected() {
		return ImportPlan{}, found
	}
	plan, fs := PlanImport(c.receipts, c.ledger, sessions)
	return plan, append(found, fs...)
}

func readFixture(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// codexSource is a Codex fixture rollout.
func codexSource(t *testing.T, file string) importSource {
	return importSource{name: file, data: readFixture(t, filepath.Join(codexRollouts, file))}
}

// codexMap maps the rollout record to review session of arm A.
func codexMap(record, session string) *tables.ImportMap {
	return &tables.ImportMap{Format: tables.FormatImportMap, Source: tables.SourceCodex, RateCard: "codex",
		Billing: tables.BillingReference, ErrorClasses: []tables.ImportErrorClass{{SourceError: "error", Class: tables.ErrorPlatformOutage}},
		Sessions: []tables.ImportSession{{Match: tables.ImportMatch{Record: record, Model: "gpt-5.6-sol"}, SessionID: session,
			Attempt: 1, TaskID: "T1", Repetition: 1, Role: tables.RoleReview, Arm: ptr("A"), DraftSessionID: ptr("T1-r1-D"),
			PromptIDs: []string{"common"}}},
	}
}

// harborMap maps each trial to a review session of arm A.
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

// harborSource is a Harbor fixture trial with its answer file, if any.
func harborSource(t *testing.T, trial string) importSource {
	t.Helper()
	s := importSource{name: trial + "/result.json", data: readFixture(t, filepath.Join(harborTrials, trial, "result.json"))}
	if out, err := os.ReadFile(filepath.Join(harborTrials, trial, "agent/answer.json")); err == nil {
		s.output = out
	}
	return s
}

// oracleMap maps the real oracle trial to session H-1 of role and task.
func oracleMap(role, task string) *tables.ImportMap {
	return &tables.ImportMap{Format: tables.FormatImportMap, Source: tables.SourceHarbor, RateCard: "gpt-4o-mini",
		Billing: tables.BillingReference, ErrorClasses: timeoutClass,
		Sessions: []tables.ImportSession{{Match: tables.ImportMatch{Record: oracleTrial}, SessionID: "H-1", Attempt: 1, TaskID: task,
			Repetition: 1, Role: role, PromptIDs: []string{}, Reservation: &tables.Reservation{ID: "res-H-1", Cost: "0.25"}}}}
}

// inspectRecord is one (sample, epoch, model usage key) of a real
// Inspect log, read independently of the reader with encoding/json.
type inspectRecord struct {
	runID, sample string
	epoch         int64
	model         string
}

// inspectJSONRecords lists the records of a real .json Inspect log.
func inspectJSONRecords(t *testing.T, data []byte) []inspectRecord {
	t.Helper()
	var doc struct {
		Eval struct {
			RunID string `json:"run_id"`
		} `json:"eval"`
		Samples []struct {
			ID         json.RawMessage            `json:"id"`
			Epoch      int64                      `json:"epoch"`
			ModelUsage map[string]json.RawMessage `json:"model_usage"`
		} `json:"samples"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var out []inspectRecord
	for _, s := range doc.Samples {
		var id string
		if json.Unmarshal(s.ID, &id) != nil {
			id = string(s.ID)
		}
		for _, model := range slices.Sorted(maps.Keys(s.ModelUsage)) {
			out = append(out, inspectRecord{doc.Eval.RunID, id, s.Epoch, model})
		}
	}
	return out
}

// inspectMap maps every record to its own draft session PREFIX-SAMPLE-EPOCH.
func inspectMap(recs []inspectRecord, prefix string) *tables.ImportMap {
	m := &tables.ImportMap{Format: tables.FormatImportMap, Source: tables.SourceInspect, RateCard: "gpt-4o-mini",
		Billing: tables.BillingReference, ErrorClasses: []tables.ImportErrorClass{}}
	for _, r := range recs {
		m.Sessions = append(m.Sessions, tables.ImportSession{
			Match:     tables.ImportMatch{Record: r.runID, Sample: r.sample, Epoch: r.epoch, Model: r.model},
			SessionID: fmt.Sprintf("%s-%s-%d", prefix, r.sample, r.epoch), Attempt: 1, TaskID: "T1", Repetition: 1,
			Role: tables.RoleDraft, PromptIDs: []string{"common"},
		})
	}
	return m
}

// receiptsOf decodes a plan's receipts.
func receiptsOf(t *testing.T, plan []byte) []tables.Receipt {
	t.Helper()
	var out []tables.Receipt
	for _, line := range bytes.Split(bytes.TrimSpace(plan), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r tables.Receipt
		if err := gojson.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// hasCode reports whether fs holds a finding of code (and of severity
// sev, unless sev is "").
func hasCode(fs rules.Findings, code rules.Code, sev rules.Severity) bool {
	return slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == code && (sev == "" || f.Severity == sev) })
}

// The Inspect reader's helpers.

func readInspectFile(t *testing.T, file string) (*InspectLog, rules.Findings) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(inspectTestdata, file))
	if err != nil {
		t.Fatal(err)
	}
	log, fs := ReadInspectLog(file, bytes.NewReader(data), int64(len(data)))
	note(fs)
	return log, fs
}

// header is a minimal valid .json log header; samples are spliced in.
func inspectJSON(version, model, samples string) string {
	return `{"version":2,"status":"success","eval":{"model":"` + model + `","packages":{"inspect_ai":"` + version +
		`"}},"samples":[` + samples + `]}`
}

const okUsage = `{"openai/gpt-4o-mini":{"input_tokens":10,"output_tokens":1,"total_tokens":11}}`

func readInspectBytes(name string, data []byte) (*InspectLog, rules.Findings) {
	log, fs := ReadInspectLog(name, bytes.NewReader(data), int64(len(data)))
	note(fs)
	return log, fs
}

func findingCodes(fs rules.Findings) []rules.Code {
	var out []rules.Code
	for _, f := range fs {
		out = append(out, f.Code)
	}
	return out
}

// zipOf builds a .eval archive from name/content pairs, in order.
func zipOf(t testing.TB, members ...string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(members); i += 2 {
		w, err := zw.Create(members[i])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(members[i+1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const evalHeader = `{"status":"success","eval":{"model":"openai/x","packages":{"inspect_ai":"0.3.58"}}}`
