package validate

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// testDecode is a strict decoder independent of stages/load: unknown
// members are refused and a semantic error keeps its JSON pointer.
func testDecode(file string, data []byte) (*tables.Answer, rules.Findings) {
	var a tables.Answer
	err := json.Unmarshal(data, &a, json.RejectUnknownMembers(true))
	if err == nil {
		return &a, nil
	}
	f := rules.Finding{Code: rules.CodeJSONSyntax, Severity: rules.Reject, File: file, Message: err.Error()}
	var se *json.SemanticError
	if errors.As(err, &se) {
		f.Code, f.Pointer = rules.CodeUnknownKey, string(se.JSONPointer)
	}
	return nil, rules.Findings{f}
}

// testAnswers reads answers as the pipeline does but decodes them with
// decode.
func testAnswers(c *tables.Campaign, decode func(string, []byte) (*tables.Answer, rules.Findings)) tables.Answers {
	return decodeWith{load.Answers(c), decode}
}

type decodeWith struct {
	tables.Answers
	decode func(string, []byte) (*tables.Answer, rules.Findings)
}

func (d decodeWith) Decode(file string, data []byte) (*tables.Answer, rules.Findings) {
	return d.decode(file, data)
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// numbered returns n lines "<prefix> line i\n".
func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s line %d\n", prefix, i)
	}
	return b.String()
}

// fixture is a one-task, two-arm campaign (A ordinary, B reconciliation)
// with one repetition whose three sessions all pass.
type fixture struct {
	c        *tables.Campaign
	receipts []tables.Line[tables.Receipt] // c's receipts, edited in place; campaign() spools them
	answers  map[string]string             // session → answer text
}

// campaign is f.c with its receipts spooled from f.receipts as they are now.
func (f *fixture) campaign() *tables.Campaign {
	f.c.Receipts = spool.Of(f.receipts...)
	return f.c
}

var sourceTexts = map[string]string{
	"src/config.ts":   numbered("config", 5), // 5 lines, ends in a newline (C09)
	"src/defaults.ts": numbered("defaults", 12),
	"src/retry.ts":    numbered("retry", 3),
	"src/main.ts":     "only line, no newline",
}

func item(id, path string, start, end int) tables.PacketItem {
	src := []byte(sourceTexts[path])
	text, _ := tables.LineRange(src, tables.LineStarts(src), int64(start), int64(end))
	return tables.PacketItem{ID: id, Path: path, StartLine: int64(start), EndLine: int64(end), FileSHA256: sum(src), Text: string(text)}
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	draft, err := os.ReadFile("../testdata/answers/valid__draft__base.json")
	if err != nil {
		t.Fatal(err)
	}
	review, _ := os.ReadFile("../testdata/answers/valid__review__base.json")
	sources := map[string][]byte{}
	for _, s := range sourceTexts {
		sources[sum([]byte(s))] = []byte(s)
	}
	m := tables.Manifest{
		Identities:           tables.Identities{ReturnedModel: "model-1", CLISHA256: strings.Repeat("c", 64), PermissionPolicy: "read-only", Host: "host-1"},
		Prompts:              []tables.PromptFile{{ID: "draft", SHA256: strings.Repeat("1", 64)}, {ID: "review-a", SHA256: strings.Repeat("2", 64)}, {ID: "review-b", SHA256: strings.Repeat("3", 64)}},
		ResponseSchemaSHA256: strings.Repeat("5", 64),
		Ceilings:             tables.Ceilings{Campaign: tables.CampaignCeilings{InfrastructureReplacements: 1}},
		Design: tables.Design{
			Repetitions:  1,
			DraftPrompts: []string{"draft"},
			Arms:         []tables.Arm{{ID: "A", Prompts: []string{"review-a"}}, {ID: "B", Prompts: []string{"review-b"}, Reconciliation: true}},
			Tasks:        []tables.TaskSpec{{ID: "T1", Repository: "repo1", Family: "fam1", TaskSHA256: strings.Repeat("6", 64), PacketSHA256: strings.Repeat("7", 64)}},
			Schedule:     []tables.Slot{{Task: "T1", Repetition: 1, Order: []string{"A", "B"}}},
		},
	}
	task := tables.LoadedTask{Spec: m.Design.Tasks[0], Packet: tables.Packet{TaskID: "T1", Items: []tables.PacketItem{
		item("E1", "src/config.ts", 2, 5), item("E2", "src/defaults.ts", 9, 12), item("E3", "src/retry.ts", 1, 3), item("E4", "src/main.ts", 1, 1),
	}}}
	f := &fixture{
		c: &tables.Campaign{FS: fstest.MapFS{}, Manifest: m, Tasks: []tables.LoadedTask{task}, Sources: sources},
		answers: map[string]string{
			"T1-r1-D": string(draft), "T1-r1-A": string(review), "T1-r1-B": validReconciliation,
		},
	}
	f.receipt("T1-r1-D", tables.RoleDraft, "", 1)
	f.receipt("T1-r1-A", tables.RoleReview, "A", 1)
	f.receipt("T1-r1-B", tables.RoleReview, "B", 1)
	return f
}

var t0 = time.Date(2026, 9, 5, 10, 0, 0, 0, time.UTC)

// receipt appends a response receipt whose identities match the manifest,
// started 100 s after the one before it and lasting 90 s (sessions run
// serially on the manifest's host, rule D3).
func (f *fixture) receipt(session, role, arm string, attempt int64) *tables.Receipt {
	m := &f.c.Manifest
	start := t0.Add(time.Duration(len(f.receipts)) * 100 * time.Second)
	r := tables.Receipt{
		SessionID: session, RequestID: "req-" + session, Attempt: attempt, TaskID: "T1", Repetition: 1, Role: role,
		StartedAt: start, Status: tables.StatusResponse,
		Identity: tables.ReceiptIdentity{ReturnedModel: m.Identities.ReturnedModel, CLISHA256: m.Identities.CLISHA256, PermissionPolicy: m.Identities.PermissionPolicy, Host: m.Identities.Host},
		Inputs:   tables.DeliveredInputs{TaskSHA256: strings.Repeat("6", 64), PacketSHA256: strings.Repeat("7", 64), ResponseSchemaSHA256: m.ResponseSchemaSHA256},
		Output:   &tables.OutputRef{Path: "answers/" + session + ".json"},
	}
	end := start.Add(90 * time.Second)
	r.EndedAt = &end
	if role == tables.RoleDraft {
		r.Inputs.PromptIDs, r.Inputs.PromptSHA256s = []string{"draft"}, []string{strings.Repeat("1", 64)}
	} else {
		r.Arm = &arm
		draft := strings.TrimSuffix(session[:len(session)-1], "-") + "-D"
		if attempt > 1 {
			draft = strings.Replace(session, "-"+arm+"-", "-D-", 1)
		}
		r.Inputs.DraftSessionID = &draft
		p := map[string]string{"A": "review-a", "B": "review-b"}[arm]
		r.Inputs.PromptIDs, r.Inputs.PromptSHA256s = []string{p}, []string{strings.Repeat(map[string]string{"A": "2", "B": "3"}[arm], 64)}
	}
	f.receipts = append(f.receipts, tables.Line[tables.Receipt]{Line: int64(len(f.receipts) + 1), Record: r})
	return &f.receipts[len(f.receipts)-1].Record
}

// find returns the last receipt of session.
func (f *fixture) find(session string) *tables.Receipt {
	for i := len(f.receipts) - 1; i >= 0; i-- {
		if f.receipts[i].Record.SessionID == session {
			return &f.receipts[i].Record
		}
	}
	panic("no receipt " + session)
}

// run writes the answers, fixes the output hashes and runs the stage.
func (f *fixture) run() Out {
	fsys := f.c.FS.(fstest.MapFS)
	for i := range f.receipts {
		r := &f.receipts[i].Record
		if r.Output == nil {
			continue
		}
		text, ok := f.answers[r.SessionID]
		if !ok {
			continue
		}
		if _, done := fsys[r.Output.Path]; !done {
			fsys[r.Output.Path] = &fstest.MapFile{Data: []byte(text)}
		}
		if r.Output.SHA256 == "" {
			r.Output.SHA256, r.Output.Bytes = sum([]byte(text)), int64(len(text))
		}
	}
	return Run(f.campaign(), testAnswers(f.c, testDecode))
}

func sessionRow(s Out, id string) tables.Session {
	for r := range s.Sessions.All() {
		if r.SessionID == id {
			return r
		}
	}
	return tables.Session{}
}

func setCodes(s Out) []rules.Code {
	return distinctCodes(s.Findings)
}
