package validate

import (
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// runCase mutates the passing fixture and expects exactly the codes want
// and, per session, a classification.
type runCase struct {
	name  string
	mut   func(f *fixture)
	want  []rules.Code
	class map[string]tables.Classification
}

func str(s string) *string { return &s }

func replacement(f *fixture) {
	f.find("T1-r1-A").Status, f.find("T1-r1-A").ErrorClass, f.find("T1-r1-A").Output = tables.StatusError, str(tables.ErrorPlatformOutage), nil
	for _, arm := range []string{"D", "A", "B"} {
		role, a := tables.RoleReview, arm
		if arm == "D" {
			role, a = tables.RoleDraft, ""
		}
		f.receipt("T1-r1-"+arm+"-a2", role, a, 2)
		f.answers["T1-r1-"+arm+"-a2"] = f.answers["T1-r1-"+arm]
	}
}

func failDraft(f *fixture) {
	d := f.find("T1-r1-D")
	d.Status, d.ErrorClass, d.Output = tables.StatusError, str(tables.ErrorModelTimeout), nil
	for _, s := range []string{"T1-r1-A", "T1-r1-B"} {
		r := f.find(s)
		r.Status, r.ErrorClass, r.Output, r.Inputs.DraftSessionID = tables.StatusNotDispatched, str(tables.ErrorUpstreamDraftFailed), nil, nil
	}
}

var runCases = []runCase{
	{name: "passing campaign", class: map[string]tables.Classification{"T1-r1-D": tables.ClassValid, "T1-r1-A": tables.ClassValid, "T1-r1-B": tables.ClassValid}},
	{name: "wrong returned model (C17)", mut: func(f *fixture) { f.find("T1-r1-A").Identity.ReturnedModel = "model-2" },
		want: []rules.Code{rules.CodeIdentityMismatch}, class: map[string]tables.Classification{"T1-r1-A": tables.ClassInvalid}},
	{name: "wrong packet hash (C17)", mut: func(f *fixture) { f.find("T1-r1-B").Inputs.PacketSHA256 = strings.Repeat("8", 64) },
		want: []rules.Code{rules.CodeIdentityMismatch}, class: map[string]tables.Classification{"T1-r1-B": tables.ClassInvalid}},
	{name: "review delivered the other arm's prompt", mut: func(f *fixture) { f.find("T1-r1-A").Inputs.PromptSHA256s = []string{strings.Repeat("3", 64)} },
		want: []rules.Code{rules.CodeIdentityMismatch}},
	{name: "review revised another draft", mut: func(f *fixture) { f.find("T1-r1-B").Inputs.DraftSessionID = str("T9-r1-D") },
		want: []rules.Code{rules.CodeIdentityMismatch}, class: map[string]tables.Classification{"T1-r1-B": tables.ClassInvalid}},
	{name: "start without terminal receipt (C15)", mut: func(f *fixture) { f.find("T1-r1-B").EndedAt = nil },
		want: []rules.Code{rules.CodeTerminalMissing}, class: map[string]tables.Classification{"T1-r1-B": tables.ClassInvalid}},
	{name: "planned session missing", mut: func(f *fixture) { f.receipts = f.receipts[:2] },
		want: []rules.Code{rules.CodeSessionMissing}, class: map[string]tables.Classification{"T1-r1-B": tables.ClassInvalid}},
	{name: "duplicate receipt", mut: func(f *fixture) { f.receipt("T1-r1-A", tables.RoleReview, "A", 1) },
		want: []rules.Code{rules.CodeReceiptDuplicate}},
	{name: "receipt for an unscheduled repetition", mut: func(f *fixture) {
		f.receipt("T1-r2-D", tables.RoleDraft, "", 1).Repetition = 2
		f.answers["T1-r2-D"] = f.answers["T1-r1-D"]
	},
		want: []rules.Code{rules.CodeSessionUnplanned}},
	{name: "review of an unknown arm", mut: func(f *fixture) { f.receipt("T1-r1-C", tables.RoleReview, "C", 1) },
		want: []rules.Code{rules.CodeSessionUnplanned}},
	{name: "failed draft, reviews not dispatched (C23)", mut: failDraft,
		class: map[string]tables.Classification{"T1-r1-D": tables.ClassScoredFailure, "T1-r1-A": tables.ClassNotDispatched, "T1-r1-B": tables.ClassNotDispatched}},
	{name: "malformed draft answer is a failed draft (C23)", mut: func(f *fixture) {
		failDraft(f)
		d := f.find("T1-r1-D")
		d.Status, d.ErrorClass, d.Output = tables.StatusResponse, nil, &tables.OutputRef{Path: "answers/T1-r1-D.json"}
		f.answers["T1-r1-D"] = `{"final":`
	}, want: []rules.Code{rules.CodeJSONSyntax}, class: map[string]tables.Classification{"T1-r1-D": tables.ClassScoredFailure, "T1-r1-A": tables.ClassNotDispatched}},
	{name: "review dispatched after failed draft (C23)", mut: func(f *fixture) {
		d := f.find("T1-r1-D")
		d.Status, d.ErrorClass, d.Output = tables.StatusError, str(tables.ErrorRefused), nil
	}, want: []rules.Code{rules.CodeReviewAfterFailedDraft}},
	{name: "review not dispatched after a good draft", mut: func(f *fixture) {
		r := f.find("T1-r1-A")
		r.Status, r.ErrorClass, r.Output = tables.StatusNotDispatched, str(tables.ErrorUpstreamDraftFailed), nil
	}, want: []rules.Code{rules.CodeNotDispatchedUnexpected}},
	{name: "model timeout is a scored failure (C16)", mut: func(f *fixture) {
		r := f.find("T1-r1-B")
		r.Status, r.ErrorClass, r.Output = tables.StatusError, str(tables.ErrorModelTimeout), nil
	}, class: map[string]tables.Classification{"T1-r1-B": tables.ClassScoredFailure}},
	{name: "error without error class", mut: func(f *fixture) { f.find("T1-r1-B").Status = tables.StatusError },
		want: []rules.Code{rules.CodeReceiptInconsistent}},
	{name: "unreplaced infrastructure failure", mut: func(f *fixture) {
		r := f.find("T1-r1-B")
		r.Status, r.ErrorClass, r.Output = tables.StatusError, str(tables.ErrorRecorderLoss), nil
	}, want: []rules.Code{rules.CodeInfrastructureInvalid}, class: map[string]tables.Classification{"T1-r1-B": tables.ClassInvalid}},
	{name: "one replaced triplet is allowed", mut: replacement,
		class: map[string]tables.Classification{"T1-r1-A": tables.ClassInvalid, "T1-r1-A-a2": tables.ClassValid, "T1-r1-D-a2": tables.ClassValid}},
	{name: "a replaced attempt's identity mismatch is a note", mut: func(f *fixture) {
		replacement(f)
		f.find("T1-r1-A").Identity.ReturnedModel = "model-2"
	}, want: []rules.Code{rules.CodeReplacedAttemptNoted}, class: map[string]tables.Classification{"T1-r1-A": tables.ClassInvalid, "T1-r1-A-a2": tables.ClassValid}},
	{name: "beyond the allowance a replaced attempt's identity mismatch still rejects", mut: func(f *fixture) {
		replacement(f)
		f.find("T1-r1-A").Identity.ReturnedModel = "model-2"
		f.c.Manifest.GatePolicy.Custom, f.c.Manifest.Ceilings.Campaign.InfrastructureReplacements = "custom-allowance", 0
	}, want: []rules.Code{rules.CodeInvalidTripletsExceeded, rules.CodeIdentityMismatch}},
	{name: "the final attempt's identity mismatch still rejects", mut: func(f *fixture) {
		replacement(f)
		f.find("T1-r1-A-a2").Identity.ReturnedModel = "model-2"
	}, want: []rules.Code{rules.CodeInvalidTripletsExceeded, rules.CodeIdentityMismatch}},
	{name: "no replacement allowance", mut: func(f *fixture) {
		replacement(f)
		f.c.Manifest.GatePolicy.Custom, f.c.Manifest.Ceilings.Campaign.InfrastructureReplacements = "custom-allowance", 0
	},
		want: []rules.Code{rules.CodeInvalidTripletsExceeded}},
	{name: "second invalid triplet stops the campaign", mut: func(f *fixture) {
		replacement(f)
		r := f.find("T1-r1-A-a2")
		r.Status, r.ErrorClass, r.Output = tables.StatusError, str(tables.ErrorPlatformOutage), nil
	}, want: []rules.Code{rules.CodeInvalidTripletsExceeded, rules.CodeInfrastructureInvalid}},
	{name: "model failure relabelled as a replacement", mut: func(f *fixture) {
		replacement(f)
		f.find("T1-r1-A").ErrorClass = str(tables.ErrorModelTimeout)
	}, want: []rules.Code{rules.CodeReplacementUnjustified}},
	{name: "response without output", mut: func(f *fixture) { f.find("T1-r1-A").Output = nil },
		want: []rules.Code{rules.CodeOutputMissing}, class: map[string]tables.Classification{"T1-r1-A": tables.ClassInvalid}},
	{name: "output file absent", mut: func(f *fixture) { delete(f.answers, "T1-r1-A") },
		want: []rules.Code{rules.CodeOutputMissing}},
	{name: "output hash differs from receipt", mut: func(f *fixture) { f.find("T1-r1-A").Output.SHA256 = strings.Repeat("0", 64) },
		want: []rules.Code{rules.CodeOutputMismatch}, class: map[string]tables.Classification{"T1-r1-A": tables.ClassInvalid}},
	{name: "citation past the last physical line (C09)", mut: func(f *fixture) {
		f.answers["T1-r1-A"] = strings.Replace(f.answers["T1-r1-A"], `"start_line":3,"end_line":5`, `"start_line":3,"end_line":6`, 1)
	}, want: []rules.Code{rules.CodeCitationBeyondSource}, class: map[string]tables.Classification{"T1-r1-A": tables.ClassScoredFailure}},
	{name: "citation path differs from the item", mut: func(f *fixture) {
		f.answers["T1-r1-A"] = strings.Replace(f.answers["T1-r1-A"], `"src/config.ts"`, `"src/other.ts"`, 1)
	}, want: []rules.Code{rules.CodeCitationPathMismatch}},
	{name: "citation outside the item's range", mut: func(f *fixture) {
		f.answers["T1-r1-B"] = strings.Replace(f.answers["T1-r1-B"], `"start_line":3,"end_line":5`, `"start_line":1,"end_line":5`, 1)
	}, want: []rules.Code{rules.CodeCitationOutsideItem}},
	{name: "altered source byte (C2 mutation)", mut: func(f *fixture) {
		it := &f.c.Tasks[0].Packet.Items[2]
		it.Text = strings.Replace(it.Text, "retry line 2", "retry line X", 1)
		f.answers["T1-r1-A"] = strings.Replace(f.answers["T1-r1-A"], `"citations":[`, `"citations":[{"evidence_id":"E3","path":"src/retry.ts","start_line":2,"end_line":3,"supports":["C2"]},`, 1)
	}, want: []rules.Code{rules.CodeCitationBytesMismatch}},
	{name: "answer uses evidence outside the packet", mut: func(f *fixture) {
		f.answers["T1-r1-A"] = strings.Replace(f.answers["T1-r1-A"], `"evidence_ids":["E3"]`, `"evidence_ids":["E9"]`, 1)
	}, want: []rules.Code{rules.CodeEvidenceUnknown}, class: map[string]tables.Classification{"T1-r1-A": tables.ClassScoredFailure}},
	{name: "reconciliation missing an evidence disposition (C13)", mut: func(f *fixture) {
		f.answers["T1-r1-B"] = strings.Replace(f.answers["T1-r1-B"], `,
   {"evidence_id":"E4","status":"unresolved","final_ids":["U1"]}`, ``, 1)
	}, want: []rules.Code{rules.CodeDispositionMissing}, class: map[string]tables.Classification{"T1-r1-B": tables.ClassScoredFailure}},
	{name: "malformed reconciliation keeps a valid final", mut: func(f *fixture) {
		f.answers["T1-r1-B"] = strings.Replace(f.answers["T1-r1-B"], `"obligations":[`, `"extra":1,"obligations":[`, 1)
	}, want: []rules.Code{rules.CodeUnknownKey}, class: map[string]tables.Classification{"T1-r1-B": tables.ClassScoredFailure}},
}

func TestRun(t *testing.T) {
	for _, tc := range runCases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if tc.mut != nil {
				tc.mut(f)
			}
			s := f.run()
			if got := setCodes(s); !slices.Equal(got, sortedCodes(tc.want)) {
				t.Fatalf("codes = %v, want %v\n%v", got, sortedCodes(tc.want), s.Findings)
			}
			for id, want := range tc.class {
				if got := sessionRow(s, id).Classification; got != want {
					t.Errorf("%s classified %q, want %q", id, got, want)
				}
			}
			for _, fd := range s.Findings {
				if fd.Session == "" && fd.Code != rules.CodeInvalidTripletsExceeded {
					t.Errorf("finding without session: %+v", fd)
				}
			}
		})
	}
}

// TestReplacementsFact: the replacement rule's outcome is written as a fact
// for the aggregate stage, agreeing with the finding.
func TestReplacementsFact(t *testing.T) {
	for _, c := range []struct {
		name    string
		allowed int64
		want    tables.Replacements
	}{
		{"one replacement within an allowance of one", 1, tables.Replacements{Unit: "triplets", Invalid: 1, Allowed: 1}},
		{"one replacement over an allowance of zero", 0, tables.Replacements{Unit: "triplets", Invalid: 1, Allowed: 0, Exceeded: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			replacement(f)
			f.c.Manifest.GatePolicy.Custom, f.c.Manifest.Ceilings.Campaign.InfrastructureReplacements = "custom-allowance", c.allowed
			out := f.run()
			if out.Replacements != c.want {
				t.Errorf("replacements %+v, want %+v", out.Replacements, c.want)
			}
			if got := hasCode(out.Findings, rules.CodeInvalidTripletsExceeded); got != c.want.Exceeded {
				t.Errorf("invalid_triplets_exceeded reported %v, fact says exceeded %v", got, c.want.Exceeded)
			}
		})
	}
}
