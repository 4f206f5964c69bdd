package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/tables"
)

func greenFS(ts *testscript.TestScript) fs.FS {
	fsys, ok := fixtures.Example("paired-review-green")
	if !ok {
		ts.Fatalf("no paired-review-green example")
	}
	return fsys
}

// The script commands of import_real_logs_run.txtar stand in for the
// user's own work on a campaign built from real logs: the task files the
// user writes, the sha256sum of each file into the manifest, and the
// records of the user's runner that no log holds (what it rendered, what
// it reserved, the reviews it did not dispatch).
func init() {
	scriptCmds["usertask"] = cmdUsertask
	scriptCmds["hashes"] = cmdHashes
	scriptCmds["mapfill"] = cmdMapfill
	scriptCmds["notdispatched"] = cmdNotDispatched
	scriptCmds["codexfixture"] = cmdCodexFixture
	scriptCmds["userbench"] = cmdUserbench
}

// cmdUserbench DIR CASE... writes the files a user writes for a reviewer
// benchmark of the given cases: their entries of the reviewer-benchmark
// example's cases.json (the private labels) and inventory.json, every
// source file, and its three prompt files.
func cmdUserbench(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: userbench DIR CASE...")
	}
	fsys, ok := fixtures.Example("reviewer-benchmark")
	if !ok {
		ts.Fatalf("no reviewer-benchmark example")
	}
	dir, want := ts.MkAbs(args[0]), args[1:]
	cases := readExample[tables.Cases](ts, fsys, "cases.json")
	cases.Cases = slices.DeleteFunc(cases.Cases, func(c tables.Case) bool { return !slices.Contains(want, c.ID) })
	inv := readExample[tables.Inventory](ts, fsys, "inventory.json")
	inv.Cases = slices.DeleteFunc(inv.Cases, func(c tables.CaseFiles) bool { return !slices.Contains(want, c.CaseID) })
	if len(cases.Cases) != len(want) || len(inv.Cases) != len(want) {
		ts.Fatalf("the example has not every case of %v", want)
	}
	writeJSON(ts, filepath.Join(dir, "cases.json"), cases)
	writeJSON(ts, filepath.Join(dir, "inventory.json"), inv)
	for _, pat := range []string{"prompts/*", "sources/*"} {
		names, err := fs.Glob(fsys, pat)
		ts.Check(err)
		for _, n := range names {
			data, err := fs.ReadFile(fsys, n)
			ts.Check(err)
			writeFile(ts, filepath.Join(dir, filepath.FromSlash(n)), data)
		}
	}
}

// cmdCodexFixture DIR copies the importers' Codex rollout of the current
// format (session_meta, turn_context, response_item and token_count
// events; importers/testdata/codex/multi-turn.jsonl, documented in
// docs/import.md) into DIR.
func cmdCodexFixture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: codexfixture DIR")
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "importers", "testdata", "codex", "multi-turn.jsonl"))
	ts.Check(err)
	writeFile(ts, filepath.Join(ts.MkAbs(args[0]), "rollout-multi-turn.jsonl"), data)
}

// cmdUsertask DIR SIGNED_OFF_AT writes the files a user writes for one
// task: the paired-review-green example's task T1 (task, packet, truth,
// the sources its packet cites) and its prompt files, the truth signed off
// at SIGNED_OFF_AT (before the first session: rule D4).
func cmdUsertask(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: usertask DIR SIGNED_OFF_AT")
	}
	fsys := greenFS(ts)
	dir := ts.MkAbs(args[0])
	for _, pat := range []string{"tasks/T1/*", "prompts/*", "sources/*"} {
		names, err := fs.Glob(fsys, pat)
		ts.Check(err)
		for _, n := range names {
			data, err := fs.ReadFile(fsys, n)
			ts.Check(err)
			if n == "tasks/T1/truth.json" {
				data = regexp.MustCompile(`"signed_off_at": ?"[^"]*"`).ReplaceAll(data, []byte(`"signed_off_at": "`+args[1]+`"`))
			}
			writeFile(ts, filepath.Join(dir, filepath.FromSlash(n)), data)
		}
	}
}

// cmdHashes CAMPAIGN writes the sha256 of every prompt and task file (and
// of a reviewer benchmark's cases and inventory) into the manifest, as a
// user does with sha256sum.
func cmdHashes(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: hashes CAMPAIGN")
	}
	camp := ts.MkAbs(args[0])
	var m tables.Manifest
	data, err := os.ReadFile(filepath.Join(camp, "manifest.json"))
	ts.Check(err)
	ts.Check(json.Unmarshal(data, &m))
	hash := func(p string) string {
		b, err := os.ReadFile(filepath.Join(camp, filepath.FromSlash(p)))
		ts.Check(err)
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:])
	}
	for i := range m.Prompts {
		m.Prompts[i].SHA256 = hash(m.Prompts[i].Path)
	}
	for i := range m.Design.Tasks {
		t := &m.Design.Tasks[i]
		t.TaskSHA256, t.PacketSHA256, t.TruthSHA256 = hash(t.TaskPath), hash(t.PacketPath), hash(t.TruthPath)
	}
	if b := m.Benchmark; b != nil {
		b.CasesSHA256, b.InventorySHA256 = hash(b.CasesPath), hash(b.InventoryPath)
	}
	writeJSON(ts, filepath.Join(camp, "manifest.json"), &m)
}

// cmdMapfill MAP CAMPAIGN RENDERED OUT writes OUT, the mapping MAP with
// what the user's runner recorded and no log holds: the manifest's host,
// CLI digest and permission policy, each session's prompts (its role's in
// the design), a reservation within the session ceilings and the
// rendering RENDERED (the output of `evalgate prompts render --all
// --json`) says the session received.
func cmdMapfill(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: mapfill MAP CAMPAIGN RENDERED OUT")
	}
	var m tables.ImportMap
	var man tables.Manifest
	var rendered struct {
		Sessions []struct {
			SessionID string           `json:"session_id"`
			Rendering tables.Rendering `json:"rendering"`
		} `json:"sessions"`
	}
	for _, f := range []struct {
		name string
		into any
	}{{args[0], &m}, {filepath.Join(args[1], "manifest.json"), &man}, {args[2], &rendered}} {
		data, err := os.ReadFile(ts.MkAbs(f.name))
		ts.Check(err)
		ts.Check(json.Unmarshal(data, f.into, json.RejectUnknownMembers(false)))
	}
	m.Identity = tables.ImportIdentity{CLISHA256: man.Identities.CLISHA256, PermissionPolicy: man.Identities.PermissionPolicy, Host: man.Identities.Host}
	c := man.Ceilings.Session
	for i := range m.Sessions {
		s := &m.Sessions[i]
		s.PromptIDs = man.Design.DraftPrompts
		if s.Arm != nil {
			j := slices.IndexFunc(man.Design.Arms, func(a tables.Arm) bool { return a.ID == *s.Arm })
			s.PromptIDs = man.Design.Arms[j].Prompts
		}
		s.Reservation = &tables.Reservation{ID: "res-" + s.SessionID, InputTokens: c.InputTokens, OutputTokens: c.OutputTokens, Cost: "0.5"}
		j := slices.IndexFunc(rendered.Sessions, func(r struct {
			SessionID string           `json:"session_id"`
			Rendering tables.Rendering `json:"rendering"`
		}) bool {
			return r.SessionID == s.SessionID
		})
		if j < 0 {
			ts.Fatalf("%s: no rendering of session %s", args[2], s.SessionID)
		}
		s.RenderedSHA256, s.RenderedBytes = rendered.Sessions[j].Rendering.SHA256, rendered.Sessions[j].Rendering.Bytes
	}
	writeJSON(ts, ts.MkAbs(args[3]), &m)
}

// cmdNotDispatched CAMPAIGN appends, as the user's runner records them,
// the not_dispatched receipts of the reviews of every slot whose draft
// failed: the protocol dispatches no review of a failed draft, and no log
// records a session that never ran. Each is timed at its draft's end.
func cmdNotDispatched(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: notdispatched CAMPAIGN")
	}
	camp := ts.MkAbs(args[0])
	var man tables.Manifest
	data, err := os.ReadFile(filepath.Join(camp, "manifest.json"))
	ts.Check(err)
	ts.Check(json.Unmarshal(data, &man))
	receipts, err := os.ReadFile(filepath.Join(camp, "receipts.jsonl"))
	ts.Check(err)
	var out []byte
	for line := range strings.SplitSeq(strings.TrimSpace(string(receipts)), "\n") {
		var d tables.Receipt
		ts.Check(json.Unmarshal([]byte(line), &d))
		if d.Role != tables.RoleDraft {
			continue
		}
		j := slices.IndexFunc(man.Design.Schedule, func(s tables.Slot) bool { return s.Task == d.TaskID && s.Repetition == d.Repetition })
		end := d.StartedAt
		if d.EndedAt != nil {
			end = *d.EndedAt
		}
		for _, arm := range man.Design.Schedule[j].Order {
			class := tables.ErrorUpstreamDraftFailed
			id := d.SessionID + "-" + arm
			r := tables.Receipt{Format: tables.FormatReceipt, SessionID: id, RequestID: "nd-" + id, Attempt: 1, TaskID: d.TaskID, Repetition: d.Repetition,
				Role: tables.RoleReview, Arm: &arm, StartedAt: end, EndedAt: &end, Status: tables.StatusNotDispatched, ErrorClass: &class, Identity: d.Identity,
				Inputs: tables.DeliveredInputs{TaskSHA256: d.Inputs.TaskSHA256, PacketSHA256: d.Inputs.PacketSHA256, PromptIDs: []string{}, PromptSHA256s: []string{},
					ResponseSchemaSHA256: d.Inputs.ResponseSchemaSHA256, DraftSessionID: &d.SessionID},
				ToolCalls: []tables.ToolCall{}, Billing: tables.Billing{Basis: tables.BillingReference}}
			b, err := json.Marshal(&r, json.Deterministic(true))
			ts.Check(err)
			out = append(append(out, b...), '\n')
		}
	}
	f, err := os.OpenFile(filepath.Join(camp, "receipts.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	ts.Check(err)
	_, err = f.Write(out)
	ts.Check(err)
	ts.Check(f.Close())
}
