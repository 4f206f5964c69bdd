package validate

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// frame is the documented framing of docs/prompts.md, written here apart
// from tables.Render: "\n=== BEGIN <LABEL> (<n> bytes) ===\n" <bytes>
// "\n=== END <LABEL> ===\n".
func frame(label, data string) string {
	return fmt.Sprintf("\n=== BEGIN %s (%d bytes) ===\n%s\n=== END %s ===\n", label, len(data), data, label)
}

// promptTexts are the fixture's prompt files: ID → kind, bytes.
var promptTexts = []struct{ id, kind, text string }{
	{"common", tables.PartCommon, "Common instruction.\n"},
	{"draft", tables.PartRole, tables.ContractDraftInstruction},
	{"review-a", tables.PartRole, tables.ContractOrdinaryReviewInstruction},
	{"review-b", tables.PartRole, "Review B instruction with its ledger rules.\n"},
	{"final", tables.PartFinalAnswerSchema, `{"title":"final"}` + "\n"},
	{"recon", tables.PartReconciliationSchema, `{"title":"reconciliation"}` + "\n"},
}

const (
	fixtureTask   = "Explain the retry budget.\n"
	fixturePacket = `{"items":"the packet file's own bytes"}` + "\n"
)

// independentRendering renders a session of the prompt fixture by hand
// from the manifest's kinds and the prompt bytes: instructions verbatim,
// schemas framed FINAL_ANSWER_SCHEMA and RECONCILIATION_SCHEMA, then TASK,
// EVIDENCE_PACKET and (reviews) COMMON_DRAFT.
func (f *fixture) independentRendering(ids []string, draft string) string {
	var b strings.Builder
	for _, id := range ids {
		kind := ""
		for _, p := range f.c.Manifest.Prompts {
			if p.ID == id {
				kind = p.Kind
			}
		}
		text := string(f.c.Prompts[id])
		switch kind {
		case tables.PartFinalAnswerSchema:
			b.WriteString(frame("FINAL_ANSWER_SCHEMA", text))
		case tables.PartReconciliationSchema:
			b.WriteString(frame("RECONCILIATION_SCHEMA", text))
		default:
			b.WriteString(text)
		}
	}
	b.WriteString(frame("TASK", fixtureTask))
	b.WriteString(frame("EVIDENCE_PACKET", fixturePacket))
	if draft != "" {
		b.WriteString(frame("COMMON_DRAFT", draft))
	}
	return b.String()
}

// newPromptFixture is the validate fixture of run_test.go as a paired
// review whose prompt files have kinds and whose receipts declare the
// renderings computed by hand.
func newPromptFixture(t *testing.T) *fixture {
	f := newFixture(t)
	c := f.c
	c.Manifest.Kind = rules.KindPairedReview
	c.Manifest.Prompts = nil
	c.Prompts = map[string][]byte{}
	for _, p := range promptTexts {
		c.Manifest.Prompts = append(c.Manifest.Prompts, tables.PromptFile{ID: p.id, Path: "prompts/" + p.id, SHA256: sum([]byte(p.text)), Kind: p.kind})
		c.Prompts[p.id] = []byte(p.text)
	}
	d := &c.Manifest.Design
	d.DraftPrompts = []string{"common", "draft", "final"}
	d.Arms[0].Prompts = []string{"common", "review-a", "final"}
	d.Arms[1].Prompts = []string{"common", "review-b", "final", "recon"}
	c.Tasks[0].Text, c.Tasks[0].PacketBytes = []byte(fixtureTask), []byte(fixturePacket)
	f.stamp()
	return f
}

// stamp makes every receipt declare the prompts the design lists and the
// hand rendering of them.
func (f *fixture) stamp() {
	for i := range f.receipts {
		r := &f.receipts[i].Record
		ids, draft := f.c.Manifest.Design.DraftPrompts, ""
		if r.Role == tables.RoleReview {
			for _, a := range f.c.Manifest.Design.Arms {
				if a.ID == deref(r.Arm) {
					ids = a.Prompts
				}
			}
			draft = f.answers[deref(r.Inputs.DraftSessionID)]
		}
		r.Inputs.PromptIDs, r.Inputs.PromptSHA256s = slices.Clone(ids), nil
		for _, id := range ids {
			for _, p := range f.c.Manifest.Prompts {
				if p.ID == id {
					r.Inputs.PromptSHA256s = append(r.Inputs.PromptSHA256s, p.SHA256)
				}
			}
		}
		text := f.independentRendering(ids, draft)
		r.Inputs.RenderedSHA256, r.Inputs.RenderedBytes = sum([]byte(text)), int64(len(text))
		r.Inputs.DataBlocks = []tables.BlockDigest{{Label: "TASK", SHA256: sum([]byte(fixtureTask)), Bytes: int64(len(fixtureTask))}, {Label: "EVIDENCE_PACKET", SHA256: sum([]byte(fixturePacket)), Bytes: int64(len(fixturePacket))}}
		if draft != "" {
			r.Inputs.DataBlocks = append(r.Inputs.DataBlocks, tables.BlockDigest{Label: "COMMON_DRAFT", SHA256: sum([]byte(draft)), Bytes: int64(len(draft))})
		}
	}
}

// promptCases break one prompt-custody rule each on the prompt fixture.
var promptCases = []runCase{
	{name: "every receipt declares its hand rendering", mut: func(*fixture) {},
		class: map[string]tables.Classification{"T1-r1-D": tables.ClassValid, "T1-r1-A": tables.ClassValid, "T1-r1-B": tables.ClassValid}},
	{name: "rendered bytes off by one", mut: func(f *fixture) { f.find("T1-r1-A").Inputs.RenderedBytes++ },
		want: []rules.Code{rules.CodeRenderedInputMismatch}, class: map[string]tables.Classification{"T1-r1-A": tables.ClassInvalid, "T1-r1-B": tables.ClassValid}},
	{name: "rendered sha256 of other bytes", mut: func(f *fixture) { f.find("T1-r1-D").Inputs.RenderedSHA256 = sum([]byte("other")) },
		want: []rules.Code{rules.CodeRenderedInputMismatch}, class: map[string]tables.Classification{"T1-r1-D": tables.ClassInvalid}},
	{name: "a declared data block differs from the rendering", mut: func(f *fixture) {
		r := f.find("T1-r1-D")
		r.Inputs.DataBlocks[1].Bytes++
	}, want: []rules.Code{rules.CodeRenderedInputMismatch}, class: map[string]tables.Classification{"T1-r1-D": tables.ClassInvalid}},
	{name: "a not_dispatched review declares a rendering", mut: func(f *fixture) {
		r := f.find("T1-r1-B")
		r.Status, r.ErrorClass, r.Output = tables.StatusNotDispatched, ptrTo(tables.ErrorUpstreamDraftFailed), nil
		d := f.find("T1-r1-D")
		d.Status, d.ErrorClass, d.Output = tables.StatusError, ptrTo(tables.ErrorModelTimeout), nil
		a := f.find("T1-r1-A")
		a.Status, a.ErrorClass, a.Output = tables.StatusNotDispatched, ptrTo(tables.ErrorUpstreamDraftFailed), nil
		a.Inputs.RenderedSHA256, a.Inputs.RenderedBytes = emptySHA256, 0
	}, want: []rules.Code{rules.CodeRenderedInputMismatch}},
	{name: "the arms of a pair declare different packet blocks", mut: func(f *fixture) {
		// B received the packet re-serialized: its receipt says so and
		// declares the rendering of those bytes.
		r := f.find("T1-r1-B")
		other := `{"items": "the packet file's own bytes"}`
		r.Inputs.DataBlocks[1] = tables.BlockDigest{Label: "EVIDENCE_PACKET", SHA256: sum([]byte(other)), Bytes: int64(len(other))}
		text := strings.Replace(f.independentRendering(r.Inputs.PromptIDs, f.answers["T1-r1-D"]), frame("EVIDENCE_PACKET", fixturePacket), frame("EVIDENCE_PACKET", other), 1)
		r.Inputs.RenderedSHA256, r.Inputs.RenderedBytes = sum([]byte(text)), int64(len(text))
	}, want: []rules.Code{rules.CodeRenderedInputMismatch, rules.CodePairDataBlocksDiffer}, class: map[string]tables.Classification{"T1-r1-B": tables.ClassInvalid}},
	{name: "the draft receives B's instruction", mut: func(f *fixture) {
		f.c.Manifest.Design.DraftPrompts = []string{"common", "draft", "review-b", "final"}
		f.stamp()
	}, want: []rules.Code{rules.CodePromptReconciliationInstructionLeaked}},
	{name: "the draft receives B's instruction under another ID and kind", mut: func(f *fixture) {
		text := promptTexts[3].text
		f.c.Manifest.Prompts = append(f.c.Manifest.Prompts, tables.PromptFile{ID: "extra", SHA256: sum([]byte(text)), Kind: tables.PartRole})
		f.c.Prompts["extra"] = []byte(text)
		f.c.Manifest.Design.DraftPrompts = []string{"common", "draft", "extra", "final"}
		f.stamp()
	}, want: []rules.Code{rules.CodePromptReconciliationInstructionLeaked}},
	{name: "arm A receives the reconciliation schema", mut: func(f *fixture) {
		f.c.Manifest.Design.Arms[0].Prompts = []string{"common", "review-a", "final", "recon"}
		f.stamp()
	}, want: []rules.Code{rules.CodePromptReconciliationSchemaLeaked}},
	{name: "arm B lacks the reconciliation schema", mut: func(f *fixture) {
		f.c.Manifest.Design.Arms[1].Prompts = []string{"common", "review-b", "final"}
		f.stamp()
	}, want: []rules.Code{rules.CodePromptPartsInvalid}},
	{name: "arm B receives its schema twice", mut: func(f *fixture) {
		f.c.Manifest.Design.Arms[1].Prompts = []string{"common", "review-b", "final", "recon", "recon"}
		f.stamp()
	}, want: []rules.Code{rules.CodePromptPartsInvalid}},
	{name: "the draft's schema comes before its instruction", mut: func(f *fixture) {
		f.c.Manifest.Design.DraftPrompts = []string{"common", "final", "draft"}
		f.stamp()
	}, want: []rules.Code{rules.CodePromptPartsInvalid}},
	{name: "a prompt file has no kind", mut: func(f *fixture) {
		f.c.Manifest.Prompts[1].Kind = ""
	}, want: []rules.Code{rules.CodePromptKindMissing}},
	{name: "no receipt recorded an output and a review names no receipt as its draft", mut: func(f *fixture) {
		for i := range f.receipts { // the facts of no receipt hold an output: nothing to look a draft up in
			r := &f.receipts[i].Record
			r.Status, r.ErrorClass, r.Output = tables.StatusError, ptrTo(tables.ErrorModelTimeout), nil
		}
		f.find("T1-r1-A").Inputs.DraftSessionID = ptrTo("T9-r1-D")
	}, want: []rules.Code{rules.CodeIdentityMismatch, rules.CodeReviewAfterFailedDraft}, class: map[string]tables.Classification{"T1-r1-A": tables.ClassInvalid}},
}

func ptrTo[T any](v T) *T { return &v }

func TestPromptCustody(t *testing.T) { checkCases(t, newPromptFixture, promptCases) }

// checkCases runs each case on a fresh fixture from newF: exactly its
// codes, and its sessions' classifications.
func checkCases(t *testing.T, newF func(*testing.T) *fixture, cases []runCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newF(t)
			tc.mut(f)
			s := f.run()
			if got := setCodes(s); !slices.Equal(got, sortedCodes(tc.want)) {
				t.Fatalf("codes = %v, want %v\n%v", got, sortedCodes(tc.want), s.Findings)
			}
			for id, want := range tc.class {
				if got := sessionRow(s, id).Classification; got != want {
					t.Errorf("%s classified %q, want %q", id, got, want)
				}
			}
		})
	}
}

// TestRenderSessionMatchesHand: the stage's rendering of each session is
// byte for byte the hand rendering of the documented rule.
func TestRenderSessionMatchesHand(t *testing.T) {
	f := newPromptFixture(t)
	f.run() // writes the answers into the campaign FS
	for _, id := range []string{"T1-r1-D", "T1-r1-A", "T1-r1-B"} {
		got, err := RenderSession(f.campaign(), testAnswers(f.c, testDecode), id)
		if err != nil {
			t.Fatal(err)
		}
		r := f.find(id)
		draft := ""
		if r.Role == tables.RoleReview {
			draft = f.answers["T1-r1-D"]
		}
		if want := f.independentRendering(r.Inputs.PromptIDs, draft); string(got.Rendering.Data) != want {
			t.Errorf("%s rendered\n%q\nwant\n%q", id, got.Rendering.Data, want)
		}
		if got.Rendering.SHA256 != r.Inputs.RenderedSHA256 {
			t.Errorf("%s sha256 %s, receipt %s", id, got.Rendering.SHA256, r.Inputs.RenderedSHA256)
		}
	}
	if _, err := RenderSession(f.campaign(), testAnswers(f.c, testDecode), "T9-r1-D"); err == nil {
		t.Error("an unknown session rendered")
	}
}

// TestSystemPromptParts: a system comparison's investigation receives only
// its standalone investigator instruction, and every system's review the
// same prompt bytes.
func TestSystemPromptParts(t *testing.T) {
	fsys, _ := fixtures.Example("system-comparison")
	for _, tc := range []struct {
		name string
		edit func(m *tables.Manifest)
		want []rules.Code
	}{
		{"the example", func(*tables.Manifest) {}, nil},
		{"the investigation inherits the common instruction", func(m *tables.Manifest) {
			m.Design.DraftPrompts = []string{"common", "investigate"}
		}, []rules.Code{rules.CodePromptPartsInvalid}},
		{"the investigation receives the final-answer schema", func(m *tables.Manifest) {
			m.Design.DraftPrompts = []string{"investigate", "final-answer"}
		}, []rules.Code{rules.CodePromptPartsInvalid}},
		{"one system's review gets another instruction", func(m *tables.Manifest) {
			m.Prompts = append(m.Prompts, tables.PromptFile{ID: "review-2", SHA256: sum([]byte("other")), Kind: tables.PartRole})
			m.Design.Arms[1].Prompts = []string{"common", "review-2", "final-answer"}
		}, []rules.Code{rules.CodePromptPartsInvalid}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, found := load.Campaign(fsys, "example")
			if found.Rejected() {
				t.Fatal(found)
			}
			tc.edit(&c.Manifest)
			v := newRunner(c, load.Answers(c))
			v.promptParts()
			if got := distinctCodes(v.findings); !slices.Equal(got, sortedCodes(tc.want)) {
				t.Errorf("codes = %v, want %v\n%v", got, tc.want, v.findings)
			}
		})
	}
}

// TestRenderDigestsEqualRender checks renderedInput's digests against
// tables.Render of the same session, on every session of every example
// (drafts, both reviews of each draft, system comparisons' investigations
// and reviews), in receipt order as the pass asks, and once more in
// reverse so that no cached prefix or read serves the wrong session.
func TestRenderDigestsEqualRender(t *testing.T) {
	for _, name := range fixtures.Examples() {
		t.Run(name, func(t *testing.T) {
			c := loadedExample(t, name)
			v := newRunner(c, load.Answers(c))
			d := newRenderDigests(v)
			rs := c.Receipts.Collect()
			order := make([]int, 0, 2*len(rs))
			for i := range rs {
				v.noteReceipt(&rs[i].Record) // as the pass notes them
				order = append(order, i)
			}
			for i := range rs {
				order = append(order, len(rs)-1-i)
			}
			compared := 0
			for _, i := range order {
				r := &rs[i].Record
				want, werr := v.render(r)
				got, gerr := d.digest(r)
				if (werr == nil) != (gerr == nil) {
					t.Fatalf("%s: render error %v, digest error %v", r.SessionID, werr, gerr)
				}
				if werr != nil {
					continue
				}
				want.Data = nil
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s: digest\n%+v\nrender\n%+v", r.SessionID, got, want)
				}
				compared++
			}
			if compared == 0 && len(rs) > 0 && c.Manifest.Kind != rules.KindReviewerBenchmark {
				t.Fatal("no session rendered")
			}
		})
	}
}
