package validate

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// custodyCases break one custody rule (D3–D7) each on the passing fixture
// of run_test.go, whose sessions run serially on host-1: the draft
// 10:00:00–10:01:30, A 10:01:40–10:03:10, B 10:03:20–10:04:50, in the
// slot's order A, B.
var custodyCases = []runCase{
	{name: "an MCP call in the ordinary review (D5)", mut: func(f *fixture) {
		f.find("T1-r1-A").ToolCalls = []tables.ToolCall{{Kind: "mcp", Name: "web_search"}}
	}, want: []rules.Code{rules.CodeFixedEvidenceToolCall}, class: map[string]tables.Classification{"T1-r1-A": tables.ClassInvalid}},
	{name: "an ordinary call in the draft (D5)", mut: func(f *fixture) {
		f.find("T1-r1-D").ToolCalls = []tables.ToolCall{{Kind: "ordinary", Name: "read_file"}}
	}, want: []rules.Code{rules.CodeFixedEvidenceToolCall}, class: map[string]tables.Classification{"T1-r1-D": tables.ClassInvalid}},
	{name: "a review on another host (D3)", mut: func(f *fixture) {
		f.find("T1-r1-B").Identity.Host = "host-2"
	}, want: []rules.Code{rules.CodeSessionHostMismatch}, class: map[string]tables.Classification{"T1-r1-B": tables.ClassInvalid}},
	{name: "a draft with no host recorded (D3)", mut: func(f *fixture) {
		f.find("T1-r1-D").Identity.Host = ""
	}, want: []rules.Code{rules.CodeSessionHostMissing}, class: map[string]tables.Classification{"T1-r1-D": tables.ClassInvalid}},
	{name: "B starts while A runs (D3)", mut: func(f *fixture) {
		r := f.find("T1-r1-B")
		r.StartedAt = t0.Add(180 * time.Second) // A ends at 190 s
	}, want: []rules.Code{rules.CodeSessionOverlap}, class: map[string]tables.Classification{"T1-r1-B": tables.ClassValid}},
	{name: "A starts before its draft's terminal receipt (D3)", mut: func(f *fixture) {
		f.find("T1-r1-A").StartedAt = t0.Add(80 * time.Second) // the draft ends at 90 s
	}, want: []rules.Code{rules.CodeSessionOverlap, rules.CodeReviewBeforeDraftEnd}},
	{name: "B runs before A although the slot orders A, B (D3)", mut: func(f *fixture) {
		a, b := f.find("T1-r1-A"), f.find("T1-r1-B")
		a.StartedAt, b.StartedAt = b.StartedAt, a.StartedAt
		a.EndedAt, b.EndedAt = b.EndedAt, a.EndedAt
	}, want: []rules.Code{rules.CodeDispatchOutOfSchedule}},
	{name: "the manifest frozen at the first session's start (D4)", mut: func(f *fixture) {
		f.c.Manifest.FrozenAt = t0
	}, want: []rules.Code{rules.CodeManifestFrozenLate}},
	{name: "the truth signed off after the first session started (D4)", mut: func(f *fixture) {
		f.c.Tasks[0].Truth.Oracle.SignedOffAt = t0.Add(time.Second)
	}, want: []rules.Code{rules.CodeTruthSignedOffLate}},
	{name: "a reservation above the session ceilings (D7)", mut: func(f *fixture) {
		f.c.Manifest.Ceilings.Session = tables.SessionCeilings{WallMS: 240000, InputTokens: 90000, OutputTokens: 8000}
		for _, id := range []string{"T1-r1-D", "T1-r1-A", "T1-r1-B"} {
			f.find(id).Reservation = &tables.Reservation{ID: "res-" + id, InputTokens: 5000, OutputTokens: 8000, Cost: "0.18"}
		}
		f.find("T1-r1-B").Reservation = &tables.Reservation{ID: "res-B", InputTokens: 200000, OutputTokens: 8000, Cost: "0.96"}
	}, want: []rules.Code{rules.CodeReservationAboveCeiling}},
	{name: "reservations exactly at the session ceilings", mut: func(f *fixture) {
		f.c.Manifest.Ceilings.Session = tables.SessionCeilings{WallMS: 240000, InputTokens: 90000, OutputTokens: 8000}
		for _, id := range []string{"T1-r1-D", "T1-r1-A", "T1-r1-B"} {
			f.find(id).Reservation = &tables.Reservation{ID: "res-" + id, InputTokens: 90000, OutputTokens: 8000, Cost: "0.52"}
		}
	}},
	{name: "A and B reserve different output allowances (D7)", mut: func(f *fixture) {
		f.c.Manifest.Ceilings.Session = tables.SessionCeilings{WallMS: 240000, InputTokens: 90000, OutputTokens: 8000}
		for _, id := range []string{"T1-r1-D", "T1-r1-A", "T1-r1-B"} {
			f.find(id).Reservation = &tables.Reservation{ID: "res-" + id, InputTokens: 5000, OutputTokens: 8000, Cost: "0.18"}
		}
		f.find("T1-r1-B").Reservation.OutputTokens = 6000
	}, want: []rules.Code{rules.CodeArmAllowanceUnequal}},
}

func TestCustody(t *testing.T) { checkCases(t, newFixture, custodyCases) }

// TestNamedInstructions: the draft and arm A of the prompt fixture receive
// the contract's Draft D and Ordinary review A texts; swapping them, or
// giving the draft another instruction, is refused (D6).
func TestNamedInstructions(t *testing.T) {
	checkCases(t, newPromptFixture, []runCase{
		{name: "the contract's instructions", mut: func(*fixture) {}},
		{name: "the draft and A swap instructions", mut: func(f *fixture) {
			d := &f.c.Manifest.Design
			d.DraftPrompts, d.Arms[0].Prompts = []string{"common", "review-a", "final"}, []string{"common", "draft", "final"}
			f.stamp()
		}, want: []rules.Code{rules.CodePromptNamedInstruction}},
		{name: "the draft gets another neutral instruction", mut: func(f *fixture) {
			text := "Inputs: TASK and EVIDENCE_PACKET.\n\nDraft an answer.\n"
			f.c.Manifest.Prompts = append(f.c.Manifest.Prompts, tables.PromptFile{ID: "draft2", Path: "prompts/draft2", SHA256: sum([]byte(text)), Kind: tables.PartRole})
			f.c.Prompts["draft2"] = []byte(text)
			f.c.Manifest.Design.DraftPrompts = []string{"common", "draft2", "final"}
			f.stamp()
		}, want: []rules.Code{rules.CodePromptNamedInstruction}},
	})
}

// custodySystemCases: a system comparison's review with a tool call is an
// invalid execution (D5, contract #741 §6), no longer a warning.
var custodySystemCases = []sysCase{
	{name: "the review of S1 repetition 1 (madar) calls a tool", mut: func(t *testing.T, f fstest.MapFS) {
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			sysFind(t, rs, "S1-r1-madar-R").ToolCalls = []tables.ToolCall{{Kind: "mcp", Name: "retrieve"}}
			return rs
		})
	}, want: []rules.Code{rules.CodeReviewToolCall}, class: map[string]tables.Classification{"S1-r1-madar-R": tables.ClassInvalid}},
}

func TestSystemReviewTools(t *testing.T) { checkSystemCases(t, custodySystemCases) }
