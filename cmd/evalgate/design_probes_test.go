package main

import (
	"slices"
	"testing"
	"time"

	"github.com/evalgate/evalgate/fixtures/controls"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The design and custody probes (rules D3–D7): one edit each on a copy of
// a green example, through `evalgate validate --json` and `evalgate run
// --json`. Each rule's outcome is the contract's: a defect of the record
// (overlap, order, freeze times, prompts, reservations) and an unreplaced
// invalid execution (another host, no host, a tool call in a session that
// has no tools) both end in no_verdict naming the rule's code, where the
// unchanged example advances. The sessions named are the green examples'
// first: paired-review-green runs T2 repetition 1 (draft, then B, then A)
// from 08:00:03 UTC, then T5 repetition 1; system-comparison-green's S1
// repetition 2 madar review is S1-r2-madar-R.

func TestDesignProbesGreenAdvances(t *testing.T) {
	judgeExample(t, controls.GreenExample, nil).wantAdvance(t)
	judgeExample(t, "system-comparison-green", nil).wantAdvance(t)
}

func TestDesignProbes(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	receipt := func(session string, edit func(*tables.Receipt)) func(*controls.Campaign) error {
		return func(c *controls.Campaign) error { return c.EditReceipt(session, edit) }
	}
	// startBefore moves session's start to d before other's end.
	startBefore := func(session, other string, d time.Duration) func(*controls.Campaign) error {
		return func(c *controls.Campaign) error {
			ref, err := c.Receipt(other)
			if err != nil {
				return err
			}
			return c.EditReceipt(session, func(r *tables.Receipt) {
				r.StartedAt = ref.EndedAt.Add(-d)
				v := *ref.MonotonicEndNS - d.Nanoseconds()
				r.MonotonicStartNS = &v
			})
		}
	}
	for _, tc := range []struct {
		name, example string
		edit          func(*controls.Campaign) error
		want          []rules.Code // each named by run's no_verdict and printed by validate
	}{
		{"D5: a B review records an MCP web_search call", controls.GreenExample,
			receipt("T2-r1-B", func(r *tables.Receipt) { r.ToolCalls = []tables.ToolCall{{Kind: "mcp", Name: "web_search"}} }),
			[]rules.Code{rules.CodeFixedEvidenceToolCall}},
		{"D5: the draft records an ordinary read", controls.GreenExample,
			receipt("T5-r1-D", func(r *tables.Receipt) { r.ToolCalls = []tables.ToolCall{{Kind: "ordinary", Name: "read_file"}} }),
			[]rules.Code{rules.CodeFixedEvidenceToolCall}},
		{"D5: a system comparison's review records a call", "system-comparison-green",
			receipt("S1-r2-madar-R", func(r *tables.Receipt) { r.ToolCalls = []tables.ToolCall{{Kind: "ordinary", Name: "read_file"}} }),
			[]rules.Code{rules.CodeReviewToolCall}},
		{"D3: an A review on another host", controls.GreenExample,
			receipt("T2-r1-A", func(r *tables.Receipt) { r.Identity.Host = "synthetic-host-02" }),
			[]rules.Code{rules.CodeSessionHostMismatch}},
		{"D3: a draft without a recorded host", controls.GreenExample,
			receipt("T5-r1-D", func(r *tables.Receipt) { r.Identity.Host = "" }),
			[]rules.Code{rules.CodeSessionHostMissing}},
		{"D3: two sessions overlap", controls.GreenExample,
			startBefore("T5-r1-D", "T2-r1-A", 10*time.Second),
			[]rules.Code{rules.CodeSessionOverlap}},
		{"D3: a review starts before its draft's terminal receipt", controls.GreenExample,
			startBefore("T2-r1-B", "T2-r1-D", 5*time.Second),
			[]rules.Code{rules.CodeReviewBeforeDraftEnd, rules.CodeSessionOverlap}},
		{"D3: sessions out of schedule order", controls.GreenExample,
			func(c *controls.Campaign) error {
				return c.EditManifest(func(m *tables.Manifest) {
					s := m.Design.Schedule
					s[0], s[1] = s[1], s[0]
				})
			},
			[]rules.Code{rules.CodeDispatchOutOfSchedule}},
		{"D4: the manifest frozen after the first dispatch", controls.GreenExample,
			func(c *controls.Campaign) error {
				return c.EditManifest(func(m *tables.Manifest) { m.FrozenAt = at("2026-10-01T08:30:00Z") })
			},
			[]rules.Code{rules.CodeManifestFrozenLate}},
		{"D4: a truth signed off after the sessions started", controls.GreenExample,
			func(c *controls.Campaign) error {
				return c.EditTruth("T4", func(tr *tables.Truth) { tr.Oracle.SignedOffAt = at("2026-10-01T10:00:00Z") })
			},
			[]rules.Code{rules.CodeTruthSignedOffLate}},
		{"D4: a rating frozen before its answer existed", controls.GreenExample,
			func(c *controls.Campaign) error {
				return c.EditRatings("T2-r1-B", func(as []*tables.Adjudication) { as[1].FrozenAt = at("2026-10-01T08:01:00Z") })
			},
			[]rules.Code{rules.CodeRatingBeforeAnswer}},
		{"D6: the draft and A swap instructions", controls.GreenExample,
			controls.SwapDraftAndOrdinary,
			[]rules.Code{rules.CodePromptNamedInstruction}},
		{"D7: B reserves 200,000 input and 20,000 output tokens", controls.GreenExample,
			receipt("T2-r1-B", func(r *tables.Receipt) { r.Reservation.InputTokens, r.Reservation.OutputTokens = 200_000, 20_000 }),
			[]rules.Code{rules.CodeReservationAboveCeiling, rules.CodeArmAllowanceUnequal}},
		{"D7: A and B reserve different output allowances", controls.GreenExample,
			receipt("T2-r1-A", func(r *tables.Receipt) { r.Reservation.OutputTokens = 6000 }),
			[]rules.Code{rules.CodeArmAllowanceUnequal}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := judgeExample(t, tc.example, tc.edit)
			for _, code := range tc.want {
				o.wantNoVerdict(t, code)
			}
			for _, code := range o.run.RejectingCodes {
				if !slices.Contains(tc.want, rules.Code(code)) && code != string(rules.CodeRunUnrated) {
					t.Errorf("run rejects with %s too; want only %v (and run_unrated for a run whose ratings no longer count)", code, tc.want)
				}
			}
		})
	}
}
