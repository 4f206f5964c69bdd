package load

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// sourceText is the one source file of the fixture: 8 lines, no final
// newline on the last one.
const sourceText = "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8"

// fixture is a small valid paired-review campaign built from Go values.
// Tests change the values or apply raw edits per file; build computes every
// hash afterwards, so a test breaks exactly the rule it means to.
type fixture struct {
	manifest tables.Manifest
	packet   tables.Packet
	truth    tables.Truth
	receipts []tables.Receipt
	adjs     []tables.Adjudication
	raw      map[string][]edit // file → raw edits
	files    map[string]string // extra or replaced files, applied last
	// v2 writes a v2 manifest: the schedule goes to schedule.jsonl (raw
	// edits apply to its first line) and the manifest names it by hash.
	v2 bool
}

func newFixture() *fixture {
	src := sha256Hex([]byte(sourceText))
	lines := strings.SplitAfter(sourceText, "\n")
	var items []tables.PacketItem
	for i := range 6 {
		items = append(items, tables.PacketItem{ID: fmt.Sprintf("E%d", i+1), Path: "src/a.ts", StartLine: int64(i + 1), EndLine: int64(i + 1), FileSHA256: src, Text: lines[i]})
	}
	items[5].EndLine, items[5].Text = 8, strings.Join(lines[5:], "")
	obl := func(id string, answerable bool) tables.TruthObligation {
		return tables.TruthObligation{ID: id, Text: "Do " + id + ".", Critical: id == "O1", Answerable: answerable, SourceJustification: "E1 says so.",
			EvidenceIDs: []string{"E1"}, AcceptedAlternatives: []string{}, RequiredVerification: "A unit test.", JustifiedExclusions: []string{}}
	}
	frozen := time.Date(2026, 9, 5, 10, 0, 0, 0, time.UTC)
	arm := "A"
	return &fixture{
		manifest: tables.Manifest{
			Format: tables.FormatManifest, CampaignID: "synthetic-1", Kind: rules.KindPairedReview, Synthetic: true, Seed: 741, FrozenAt: frozen,
			Identities: tables.Identities{RequestedModel: "gpt-5.6-sol", ReturnedModel: "gpt-5.6-sol-2026", CLIVersion: "0.149.0", CLISHA256: "e27d26c84ffc90dbd3e6a6372d079dd330d404a04f27711c3ff7a7e3233d76c1",
				Runtimes: []tables.Runtime{{Name: "node", Version: "22.22.3"}}, Host: "host-1", OS: "linux", PermissionPolicy: "read-only", Tokenizer: "o200k"},
			Prompts:              []tables.PromptFile{{ID: "common", Path: "prompts/common.md"}, {ID: "review-b", Path: "prompts/review-b.md"}},
			ResponseSchemaSHA256: tables.SchemaSHA256("answer"),
			RateCards: []tables.RateCard{{ID: "codex-2026-09-05", Model: "gpt-5.6-sol", DateChecked: "2026-09-05", Source: "https://example.invalid/pricing", Currency: "USD",
				Prices: tables.RatePrices{UncachedInput: "4", CachedInput: ptrTo("0.40"), Output: "20.000001"}}},
			Ceilings: tables.Ceilings{Session: tables.SessionCeilings{WallMS: 240000, InputTokens: 90000, OutputTokens: 8000},
				Campaign: tables.CampaignCeilings{PlannedSessions: 96, TotalSessions: 120, WallMS: 28800000, InputTokens: 3000000, OutputTokens: 600000, ReferenceCost: "30", ActualCost: "30.000000000001"}},
			Design: tables.Design{Repetitions: 2, DraftPrompts: []string{"common"},
				Arms: []tables.Arm{{ID: "A", Label: "ordinary review", Prompts: []string{"common"}}, {ID: "B", Label: "reconciliation review", Prompts: []string{"common", "review-b"}, Reconciliation: true}},
				Tasks: []tables.TaskSpec{{ID: "T1", Repository: "repo-1", Family: "T1", Split: "evaluation", Category: tables.CategoryChangeImpact,
					TaskPath: "tasks/T1/task.md", PacketPath: "tasks/T1/packet.json", TruthPath: "tasks/T1/truth.json"}},
				Schedule:      []tables.Slot{{Task: "T1", Repetition: 1, Order: []string{"A", "B"}}, {Task: "T1", Repetition: 2, Order: []string{"B", "A"}}},
				PacketItemMin: 6, PacketItemMax: 12},
			GatePolicy: tables.GatePolicy{Preset: "741-v1.0", Thresholds: []tables.Threshold{{Name: "median_r_min", Value: "0.80"}}},
			Intervals:  tables.IntervalPlan{Cluster: "family", Resamples: 1000, Seed: 1},
		},
		packet: tables.Packet{Format: tables.FormatPacket, TaskID: "T1", Repository: "repo-1", Commit: strings.Repeat("c", 40), Items: items},
		truth: tables.Truth{Format: tables.FormatTruth, TaskID: "T1", Obligations: []tables.TruthObligation{obl("O1", true), obl("O2", true), obl("O3", false), obl("O4", true)},
			Oracle: tables.Oracle{Checker: "checker-1", SecondReviewer: "reviewer-2", SignedOffAt: frozen}},
		receipts: []tables.Receipt{{Format: tables.FormatReceipt, SessionID: "T1-r1-A", RequestID: "req-1", Attempt: 1, TaskID: "T1", Repetition: 1,
			Role: tables.RoleReview, Arm: &arm, StartedAt: frozen, EndedAt: ptrTo(frozen.Add(time.Minute)), Status: tables.StatusResponse,
			Inputs:    tables.DeliveredInputs{PromptIDs: []string{"common"}, PromptSHA256s: []string{strings.Repeat("0", 64)}, DraftSessionID: ptrTo("T1-r1-D")},
			Output:    &tables.OutputRef{Path: "answers/T1-r1-A.json", SHA256: strings.Repeat("1", 64), Bytes: 10},
			Meter:     &tables.Meter{Shape: tables.ShapeOpenAIResponses, RateCard: "codex-2026-09-05", Usage: jsontext.Value(`{"input_tokens":100}`)},
			ToolCalls: []tables.ToolCall{}, Billing: tables.Billing{Basis: tables.BillingReference}}},
		adjs: []tables.Adjudication{{Format: tables.FormatAdjudication, SessionID: "T1-r1-A", Rater: "rater-1", RaterRole: tables.RaterPrimary, Blinded: true, FrozenAt: frozen,
			Obligations: []tables.ObligationRating{{ObligationID: "O1", Outcome: tables.OutcomeAddressed}}, Citations: []tables.CitationRating{{Index: 0, Supports: true}}}},
		raw:   map[string][]edit{},
		files: map[string]string{},
	}
}

// build returns the campaign directory.
func (f *fixture) build(t *testing.T) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	put := func(name string, data []byte) { fsys[name] = &fstest.MapFile{Data: data} }
	m := &f.manifest
	prompts := map[string]string{"prompts/common.md": "Common instruction.\n", "prompts/review-b.md": "Reconcile.\n"}
	for i := range m.Prompts {
		put(m.Prompts[i].Path, []byte(prompts[m.Prompts[i].Path]))
		m.Prompts[i].SHA256 = sha256Hex([]byte(prompts[m.Prompts[i].Path]))
	}
	spec := &m.Design.Tasks[0]
	task, packet, truth := []byte("Explain the parser.\n"), applyEdits(t, f.packet, f.raw[spec.PacketPath]...), applyEdits(t, f.truth, f.raw[spec.TruthPath]...)
	put(spec.TaskPath, task)
	put(spec.PacketPath, packet)
	put(spec.TruthPath, truth)
	spec.TaskSHA256, spec.PacketSHA256, spec.TruthSHA256 = sha256Hex(task), sha256Hex(packet), sha256Hex(truth)
	put("sources/"+sha256Hex([]byte(sourceText)), []byte(sourceText))
	if f.v2 {
		mv := *m
		var lines []tables.ScheduleLine
		for _, s := range m.Design.Schedule {
			lines = append(lines, tables.ScheduleLine{Format: tables.FormatSchedule, Slot: s})
		}
		sched := jsonl(t, lines, f.raw["schedule.jsonl"])
		put("schedule.jsonl", sched)
		mv.Format, mv.Design.Schedule = tables.FormatManifestV2, nil
		mv.Design.ScheduleFile = &tables.ScheduleFile{Path: "schedule.jsonl", SHA256: sha256Hex(sched)}
		put("manifest.json", applyEdits(t, mv, f.raw["manifest.json"]...))
	} else {
		put("manifest.json", applyEdits(t, f.manifest, f.raw["manifest.json"]...))
	}
	put("receipts.jsonl", jsonl(t, f.receipts, f.raw["receipts.jsonl"]))
	put("adjudications.jsonl", jsonl(t, f.adjs, f.raw["adjudications.jsonl"]))
	for name, data := range f.files {
		if data == "\x00delete" {
			delete(fsys, name)
			continue
		}
		put(name, []byte(data))
	}
	return fsys
}

// jsonl writes records one per line; edits apply to the first record.
func jsonl[T any](t *testing.T, recs []T, edits []edit) []byte {
	var b strings.Builder
	for i, r := range recs {
		if i == 0 {
			b.Write(applyEdits(t, r, edits...))
		} else {
			b.Write(applyEdits(t, r))
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}
