package load

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

func TestCampaignValid(t *testing.T) {
	f := newFixture()
	c, findings := Campaign(f.build(t), "fixture")
	if len(findings) != 0 {
		t.Fatalf("want no findings; got %v", findings)
	}
	if len(c.Tasks) != 1 || len(c.Tasks[0].Packet.Items) != 6 || len(c.Tasks[0].Truth.Obligations) != 4 {
		t.Fatalf("tasks not loaded: %+v", c.Tasks)
	}
	receipts := c.Receipts.Collect()
	if len(receipts) != 1 || receipts[0].Line != 1 || c.Adjudications.Len() != 1 || len(c.Prompts) != 2 || len(c.Sources) != 1 {
		t.Fatalf("campaign incomplete: %d receipts, %d adjudications, %d prompts, %d sources", len(receipts), c.Adjudications.Len(), len(c.Prompts), len(c.Sources))
	}
	if string(receipts[0].Record.Meter.Usage) != `{"input_tokens":100}` {
		t.Errorf("usage kept as %s", receipts[0].Record.Meter.Usage)
	}
	// The identity is the sha256 of the manifest bytes, computed here independently.
	if want := sha256Hex(f.build(t)["manifest.json"].Data); c.ManifestSHA256 != want {
		t.Errorf("ManifestSHA256 %s, want %s", c.ManifestSHA256, want)
	}
}

func TestCampaignRejects(t *testing.T) {
	const (
		M, P, T, R, A = "manifest.json", "tasks/T1/packet.json", "tasks/T1/truth.json", "receipts.jsonl", "adjudications.jsonl"
	)
	srcName := "sources/" + sha256Hex([]byte(sourceText))
	cases := []rejectCase{
		{"manifest missing", func(f *fixture) { f.files[M] = "\x00delete" }, M, 0, rules.CodeFileMissing, ""},
		{"manifest too large", func(f *fixture) { f.files[M] = strings.Repeat(" ", maxManifest+1) }, M, 0, rules.CodeTooLarge, ""},
		{"manifest syntax", func(f *fixture) { f.files[M] = "{" }, M, 0, rules.CodeJSONSyntax, ""},
		{"unknown format", func(f *fixture) { f.manifest.Format = "evalgate.manifest/v3" }, M, 0, rules.CodeFormatUnsupported, "/format"},
		{"unknown kind", func(f *fixture) { f.manifest.Kind = "ab-test" }, M, 0, rules.CodeEnumValue, "/kind"},
		{"identity missing", func(f *fixture) { f.manifest.Identities.Tokenizer = "" }, M, 0, rules.CodeIdentityMissing, "/identities/tokenizer"},
		{"identity placeholder TBD", func(f *fixture) { f.manifest.Identities.Host = "TBD" }, M, 0, rules.CodeIdentityMissing, "/identities/host"},
		{"identity placeholder n/a", func(f *fixture) { f.manifest.Identities.ReturnedModel = " N/A " }, M, 0, rules.CodeIdentityMissing, "/identities/returned_model"},
		{"identity placeholder dash", func(f *fixture) { f.manifest.Identities.OS = "-" }, M, 0, rules.CodeIdentityMissing, "/identities/os"},
		{"identity white space", func(f *fixture) { f.manifest.Identities.PermissionPolicy = " \t " }, M, 0, rules.CodeIdentityMissing, "/identities/permission_policy"},
		{"runtime version unknown", func(f *fixture) { f.manifest.Identities.Runtimes[0].Version = "Unknown" }, M, 0, rules.CodeIdentityMissing, "/identities/runtimes/0/version"},
		{"CLI hash missing", func(f *fixture) { f.manifest.Identities.CLISHA256 = "" }, M, 0, rules.CodeIdentityMissing, "/identities/cli_sha256"},
		{"runtimes missing", func(f *fixture) { f.manifest.Identities.Runtimes = []tables.Runtime{} }, M, 0, rules.CodeIdentityMissing, "/identities/runtimes"},
		{"CLI hash upper case", func(f *fixture) { f.manifest.Identities.CLISHA256 = strings.Repeat("AB", 32) }, M, 0, rules.CodeHashInvalid, "/identities/cli_sha256"},
		{"CLI hash all zeros (a placeholder)", func(f *fixture) { f.manifest.Identities.CLISHA256 = strings.Repeat("0", 64) }, M, 0, rules.CodeIdentityMissing, "/identities/cli_sha256"},
		{"CLI hash all one digit (a placeholder)", func(f *fixture) { f.manifest.Identities.CLISHA256 = strings.Repeat("7", 64) }, M, 0, rules.CodeIdentityMissing, "/identities/cli_sha256"},
		{"CLI hash a repeated block (a placeholder)", func(f *fixture) { f.manifest.Identities.CLISHA256 = strings.Repeat("deadbeef", 8) }, M, 0, rules.CodeIdentityMissing, "/identities/cli_sha256"},
		{"pending CLI version", func(f *fixture) { f.manifest.Identities.CLIVersion = "pending" }, M, 0, rules.CodeIdentityMissing, "/identities/cli_version"},
		{"xxx host", func(f *fixture) { f.manifest.Identities.Host = "xxx" }, M, 0, rules.CodeIdentityMissing, "/identities/host"},
		{"response schema mismatch", func(f *fixture) { f.manifest.ResponseSchemaSHA256 = strings.Repeat("0", 64) }, M, 0, rules.CodeResponseSchemaMismatch, "/response_schema_sha256"},
		{"timestamp with offset", func(f *fixture) { f.raw[M] = []edit{set("/frozen_at", `"2026-09-05T10:00:00+02:00"`)} }, M, 0, rules.CodeTimestampInvalid, "/frozen_at"},
		{"bad date", func(f *fixture) { f.manifest.RateCards[0].DateChecked = "2026-02-30" }, M, 0, rules.CodeDateInvalid, "/rate_cards/0/date_checked"},
		{"price with 7 decimals", func(f *fixture) { f.manifest.RateCards[0].Prices.Output = "0.0000001" }, M, 0, rules.CodePriceInvalid, "/rate_cards/0/prices/output"},
		{"price negative", func(f *fixture) { f.manifest.RateCards[0].Prices.CachedInput = ptrTo("-1") }, M, 0, rules.CodePriceInvalid, "/rate_cards/0/prices/cached_input"},
		{"money exponent", func(f *fixture) { f.manifest.Ceilings.Campaign.ReferenceCost = "3e1" }, M, 0, rules.CodeDecimalInvalid, "/ceilings/campaign/reference_cost"},
		{"money out of range", func(f *fixture) { f.manifest.Ceilings.Campaign.ActualCost = "99999999" }, M, 0, rules.CodeDecimalInvalid, "/ceilings/campaign/actual_cost"},
		{"currency lower case", func(f *fixture) { f.manifest.RateCards[0].Currency = "usd" }, M, 0, rules.CodePatternMismatch, "/rate_cards/0/currency"},
		{"empty label", func(f *fixture) { f.manifest.Design.Arms[0].Label = "" }, M, 0, rules.CodeStringLength, "/design/arms/0/label"},
		{"bad identifier", func(f *fixture) { f.manifest.CampaignID = "-x" }, M, 0, rules.CodeIdentifierInvalid, "/campaign_id"},
		{"negative ceiling", func(f *fixture) { f.manifest.Ceilings.Session.WallMS = -1 }, M, 0, rules.CodeNumberOutOfRange, "/ceilings/session/wall_ms"},
		{"fractional ceiling", func(f *fixture) { f.raw[M] = []edit{rawNumber("/ceilings/session/wall_ms", "1.5")} }, M, 0, rules.CodeNumberNotInteger, "/ceilings/session/wall_ms"},
		{"duplicate arm", func(f *fixture) {
			f.manifest.Design.Arms[1].ID = "A"
			f.manifest.Design.Schedule[0].Order = []string{"A", "A"}
			f.manifest.Design.Schedule[1].Order = []string{"A", "A"}
		}, M, 0, rules.CodeDuplicateID, "/design/arms/1/id"},
		{"duplicate prompt list entry", func(f *fixture) { f.manifest.Design.Arms[1].Prompts = []string{"common", "common"} }, M, 0, rules.CodeDuplicateItem, "/design/arms/1/prompts/1"},
		{"unknown prompt", func(f *fixture) { f.manifest.Design.DraftPrompts = []string{"draft"} }, M, 0, rules.CodeUnknownPrompt, "/design/draft_prompts/0"},
		{"unknown task in slot", func(f *fixture) {
			f.manifest.Design.Schedule = append(f.manifest.Design.Schedule, tables.Slot{Task: "T9", Repetition: 1, Order: []string{"A", "B"}})
		}, M, 0, rules.CodeUnknownTask, "/design/schedule/2/task"},
		{"unknown arm in order", func(f *fixture) { f.manifest.Design.Schedule[0].Order = []string{"A", "C"} }, M, 0, rules.CodeUnknownArm, "/design/schedule/0/order/1"},
		{"order not a permutation", func(f *fixture) { f.manifest.Design.Schedule[0].Order = []string{"A", "A"} }, M, 0, rules.CodeOrderNotPermutation, "/design/schedule/0/order"},
		{"slot twice", func(f *fixture) {
			f.manifest.Design.Schedule = append(f.manifest.Design.Schedule, f.manifest.Design.Schedule[0])
		}, M, 0, rules.CodeSlotDuplicate, "/design/schedule/2"},
		{"slot missing", func(f *fixture) { f.manifest.Design.Schedule = f.manifest.Design.Schedule[:1] }, M, 0, rules.CodeSlotMissing, "/design/schedule"},
		{"slot beyond repetitions", func(f *fixture) { f.manifest.Design.Repetitions = 1 }, M, 0, rules.CodeSlotOutOfRange, "/design/schedule/1/repetition"},
		{"item range inverted", func(f *fixture) { f.manifest.Design.PacketItemMin = 13 }, M, 0, rules.CodeDesignInvalid, "/design/packet_item_min"},
		{"baseline alone", func(f *fixture) {
			f.manifest.Design.Arms = f.manifest.Design.Arms[:1]
			for i := range f.manifest.Design.Schedule {
				f.manifest.Design.Schedule[i].Order = []string{f.manifest.Design.Arms[0].ID}
			}
		}, M, 0, rules.CodeDesignNoTreatment, "/design/arms"},
		{"task path with dot-dot", func(f *fixture) { f.manifest.Design.Tasks[0].TaskPath = "../task.md" }, M, 0, rules.CodePathInvalid, "/design/tasks/0/task_path"},
		{"task text hash", func(f *fixture) { f.files["tasks/T1/task.md"] = "changed\n" }, "tasks/T1/task.md", 0, rules.CodeHashMismatch, ""},
		{"prompt hash", func(f *fixture) { f.files["prompts/common.md"] = "changed\n" }, "prompts/common.md", 0, rules.CodeHashMismatch, ""},
		{"prompt missing", func(f *fixture) { f.files["prompts/review-b.md"] = "\x00delete" }, "prompts/review-b.md", 0, rules.CodeFileMissing, ""},
		{"packet hash", func(f *fixture) { f.files[P] = "{}" }, P, 0, rules.CodeHashMismatch, ""},
		{"packet wrong task", func(f *fixture) { f.packet.TaskID = "T2" }, P, 0, rules.CodeTaskMismatch, ""},
		{"packet too few items", func(f *fixture) { f.packet.Items = f.packet.Items[:5] }, P, 0, rules.CodePacketItemCount, "/items"},
		{"packet duplicate item", func(f *fixture) { f.packet.Items[1].ID = "E1" }, P, 0, rules.CodeDuplicateID, "/items/1/id"},
		{"packet commit short", func(f *fixture) { f.packet.Commit = "abc" }, P, 0, rules.CodeHashInvalid, "/commit"},
		{"packet unknown key", func(f *fixture) { f.raw[P] = []edit{set("/items/0/relevance", `"high"`)} }, P, 0, rules.CodeUnknownKey, "/items/0/relevance"},
		{"packet start after end", func(f *fixture) { f.packet.Items[0].StartLine = 2 }, P, 0, rules.CodeLineRangeInvalid, "/items/0/start_line"},
		{"packet phantom line after final newline", func(f *fixture) { f.packet.Items[5].EndLine = 9 }, P, 0, rules.CodeSourceLinesOutOfRange, "/items/5/end_line"},
		{"packet text altered", func(f *fixture) { f.packet.Items[2].Text = "line 3 \n" }, P, 0, rules.CodePacketTextMismatch, "/items/2/text"},
		{"source altered", func(f *fixture) { f.files[srcName] = sourceText + "\n" }, srcName, 0, rules.CodeHashMismatch, ""},
		{"source missing", func(f *fixture) { f.files[srcName] = "\x00delete" }, srcName, 0, rules.CodeFileMissing, ""},
		{"truth three obligations", func(f *fixture) { f.truth.Obligations = f.truth.Obligations[:3] }, T, 0, rules.CodeTooFewItems, "/obligations"},
		{"truth one answerable", func(f *fixture) { f.truth.Obligations[0].Answerable = false; f.truth.Obligations[1].Answerable = false }, T, 0, rules.CodeTruthAnswerableTooFew, "/obligations"},
		{"truth duplicate obligation", func(f *fixture) { f.truth.Obligations[3].ID = "O1" }, T, 0, rules.CodeDuplicateID, "/obligations/3/id"},
		{"truth unknown evidence", func(f *fixture) { f.truth.Obligations[2].EvidenceIDs = []string{"E7"} }, T, 0, rules.CodeUnknownEvidenceID, "/obligations/2/evidence_ids/0"},
		{"oracle checker placeholder", func(f *fixture) { f.truth.Oracle.Checker = "todo" }, T, 0, rules.CodeIdentityMissing, "/oracle/checker"},
		{"oracle second reviewer is the checker", func(f *fixture) { f.truth.Oracle.SecondReviewer = f.truth.Oracle.Checker }, T, 0, rules.CodeOracleNotIndependent, "/oracle/second_reviewer"},
		{"truth wrong task", func(f *fixture) { f.truth.TaskID = "T2" }, T, 0, rules.CodeTaskMismatch, "/task_id"},
		{"truth untrimmed text", func(f *fixture) { f.truth.Obligations[0].Text = "x " }, T, 0, rules.CodeTextUntrimmed, "/obligations/0/text"},
		{"receipts missing", func(f *fixture) { f.files[R] = "\x00delete" }, R, 0, rules.CodeFileMissing, ""},
		{"receipt blank line", func(f *fixture) { f.files[R] = string(jsonl(t, f.receipts, nil)) + "\n" }, R, 2, rules.CodeBlankLine, ""},
		{"receipt line too long", func(f *fixture) { f.files[R] = strings.Repeat(" ", maxJSONLLine+1) + "\n" }, R, 1, rules.CodeLineTooLong, ""},
		{"receipt duplicate key", func(f *fixture) { f.files[R] = `{"format":"a","format":"b"}` + "\n" }, R, 1, rules.CodeDuplicateKey, "/format"},
		{"receipt usage not an object", func(f *fixture) { f.raw[R] = []edit{set("/meter/usage", "[1]")} }, R, 1, rules.CodeWrongType, "/meter/usage"},
		{"receipt unknown status", func(f *fixture) { f.raw[R] = []edit{set("/status", `"ok"`)} }, R, 1, rules.CodeEnumValue, "/status"},
		{"receipt monotonic fraction", func(f *fixture) { f.raw[R] = []edit{rawNumber("/monotonic_start_ns", "1e3")} }, R, 1, rules.CodeNumberNotInteger, "/monotonic_start_ns"},
		{"receipt charge with 13 decimals", func(f *fixture) { f.raw[R] = []edit{set("/billing/actual_charge", `"0.0000000000001"`)} }, R, 1, rules.CodeDecimalInvalid, "/billing/actual_charge"},
		{"receipt hash short", func(f *fixture) { f.raw[R] = []edit{set("/inputs/task_sha256", `"abc"`)} }, R, 1, rules.CodeHashInvalid, "/inputs/task_sha256"},
		{"adjudication rater placeholder", func(f *fixture) { f.adjs[0].Rater = "none" }, A, 1, rules.CodeIdentityMissing, "/rater"},
		{"adjudication outcome", func(f *fixture) { f.raw[A] = []edit{set("/obligations/0/outcome", `"partial"`)} }, A, 1, rules.CodeEnumValue, "/obligations/0/outcome"},
		{"adjudication trailing data", func(f *fixture) { f.files[A] = string(jsonl(t, f.adjs, nil)[:len(jsonl(t, f.adjs, nil))-1]) + " {}\n" }, A, 1, rules.CodeTrailingData, ""},
		{"adjudication null hole", func(f *fixture) { f.raw[A] = []edit{set("/citations/0", "null")} }, A, 1, rules.CodeNullHole, "/citations/0"},
		{"adjudication obligation id", func(f *fixture) { f.raw[A] = []edit{set("/obligations/0/obligation_id", `"C1"`)} }, A, 1, rules.CodeIDWrongPrefix, "/obligations/0/obligation_id"},
	}
	runRejects(t, false, cases)
}

// rejectCase is one break of the fixture and the one finding it must
// give, with its file, line and pointer.
type rejectCase struct {
	name   string
	change func(f *fixture)
	file   string
	line   int64
	code   rules.Code
	ptr    string
}

// runRejects loads the fixture (with a v2 manifest and schedule.jsonl
// when v2) broken by each case and requires exactly the case's finding,
// and a campaign still returned.
func runRejects(t *testing.T, v2 bool, cases []rejectCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture()
			f.v2 = v2
			tc.change(f)
			c, findings := Campaign(f.build(t), "fixture")
			note(findings)
			wantOnly(t, findings, tc.code, tc.ptr)
			if len(findings) == 1 && (findings[0].File != tc.file || findings[0].Line != tc.line) {
				t.Errorf("finding at %s:%d, want %s:%d", findings[0].File, findings[0].Line, tc.file, tc.line)
			}
			if c == nil {
				t.Errorf("campaign is nil")
			}
		})
	}
}

// TestKindUnsupported: a kind this version names but cannot evaluate is
// refused with its own code, never judged as another kind. Every kind of
// the manifest format is evaluated today, so the test marks one
// unsupported for its duration.
func TestKindUnsupported(t *testing.T) {
	saved := unsupportedKinds
	unsupportedKinds = []string{rules.KindPairedReview}
	defer func() { unsupportedKinds = saved }()
	_, findings := Campaign(newFixture().build(t), "fixture")
	note(findings)
	wantOnly(t, findings, rules.CodeKindUnsupported, "/kind")
}
