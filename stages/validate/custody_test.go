package validate

import (
	"slices"
	"strings"
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

// TestConcurrentRunOneLine: the overlapping receipts of one run of
// concurrent sessions each get a session_overlap finding, all with the
// same message (the run's sessions in start order, its first overlap's
// instants, the reason and the way forward), so they print as one line;
// the order within the run is not judged against the schedule, the run's
// sessions are against the position reached before it.
func TestConcurrentRunOneLine(t *testing.T) {
	at := func(f *fixture, id string, from, to time.Duration) {
		r := f.find(id)
		r.StartedAt = t0.Add(from)
		end := t0.Add(to)
		r.EndedAt = &end
	}
	for _, tc := range []struct {
		name  string
		times func(f *fixture)
		want  []rules.Code
		msg   string
	}{
		{"B, then A, while the draft and B run", func(f *fixture) {
			at(f, "T1-r1-D", 0, 90*time.Second)
			at(f, "T1-r1-B", time.Second, 100*time.Second)
			at(f, "T1-r1-A", 2*time.Second, 95*time.Second)
		}, []rules.Code{rules.CodeSessionOverlap, rules.CodeSessionOverlap, rules.CodeReviewBeforeDraftEnd, rules.CodeReviewBeforeDraftEnd},
			"3 sessions ran concurrently (T1-r1-D, T1-r1-B, T1-r1-A): the first overlap, session T1-r1-B started at 2026-09-05T10:00:01Z, before session T1-r1-D ended at 2026-09-05T10:01:30Z. Sessions must run serially"},
		{"A after B had ended, while the draft runs", func(f *fixture) {
			at(f, "T1-r1-D", 0, 300*time.Second)
			at(f, "T1-r1-B", 10*time.Second, 20*time.Second)
			at(f, "T1-r1-A", 30*time.Second, 40*time.Second)
		}, []rules.Code{rules.CodeSessionOverlap, rules.CodeSessionOverlap, rules.CodeReviewBeforeDraftEnd, rules.CodeReviewBeforeDraftEnd},
			"3 sessions ran concurrently (T1-r1-D, T1-r1-B, T1-r1-A): the first overlap, session T1-r1-B started at 2026-09-05T10:00:10Z, before session T1-r1-D ended at 2026-09-05T10:05:00Z. Sessions must run serially"},
		// B runs alone before its draft, then A while the draft runs: the
		// run (the draft and A) is judged against B, the position reached
		// before it, so both are out of schedule.
		{"B before the run of the draft and A", func(f *fixture) {
			at(f, "T1-r1-B", 0, 10*time.Second)
			at(f, "T1-r1-D", 20*time.Second, 100*time.Second)
			at(f, "T1-r1-A", 30*time.Second, 40*time.Second)
		}, []rules.Code{rules.CodeSessionOverlap, rules.CodeReviewBeforeDraftEnd, rules.CodeDispatchOutOfSchedule, rules.CodeDispatchOutOfSchedule},
			"2 sessions ran concurrently (T1-r1-D, T1-r1-A): the first overlap, session T1-r1-A started at 2026-09-05T10:00:30Z, before session T1-r1-D ended at 2026-09-05T10:01:40Z. Sessions must run serially"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			tc.times(f)
			var got []rules.Code
			var overlaps []rules.Finding
			for _, fd := range f.run().Findings {
				got = append(got, fd.Code)
				if fd.Code == rules.CodeSessionOverlap {
					overlaps = append(overlaps, fd)
				}
			}
			slices.Sort(got)
			if want := slices.Sorted(slices.Values(tc.want)); !slices.Equal(got, want) {
				t.Fatalf("codes %v, want %v", got, want)
			}
			lines := map[int64]bool{}
			for _, o := range overlaps {
				if o.Message != overlaps[0].Message || !strings.HasPrefix(o.Message, tc.msg) {
					t.Fatalf("message\n%s\nwant every one to be the first's, beginning %q", o.Message, tc.msg)
				}
				lines[o.Line] = true
			}
			if len(lines) != len(overlaps) {
				t.Fatalf("%d findings on %d lines", len(overlaps), len(lines))
			}
			if g := rules.Collapse(overlaps); len(g) != 1 || g[0].Count() != len(overlaps) {
				t.Fatalf("collapsed into %v", g)
			}
		})
	}
}
