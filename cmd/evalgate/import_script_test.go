package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/tables"
)

// scriptCmds are the script commands of import_end_to_end.txtar: they
// stand in for the other tools and for the user's hand work, so the
// script exercises only evalgate's own commands on them.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"mksources":  cmdMksources,
	"fill":       cmdFill,
	"setreceipt": cmdSetReceipt,
	"reallogs":   cmdReallogs,
	"mapreal":    cmdMapreal,
	"manifest":   cmdManifest,
	"importrace": cmdImportrace,
	"importkill": cmdImportkill,
}

// cmdMapreal [--rate-card ID] MAP PREFIX LOG... writes the mapping a user writes for real Inspect
// logs: one entry per (sample, epoch, model usage key) of every log — the
// eval's model for a sample without usage — read here independently of
// the importer (encoding/json and archive/zip only), each a draft session
// PREFIX<i>-<sample>-<epoch> of task T1 at its own repetition.
func cmdMapreal(ts *testscript.TestScript, neg bool, args []string) {
	rateCard := "gpt-4o-mini"
	if len(args) > 1 && args[0] == "--rate-card" {
		rateCard, args = args[1], args[2:]
	}
	if neg || len(args) < 3 {
		ts.Fatalf("usage: mapreal [--rate-card ID] MAP PREFIX LOG...")
	}
	type sample struct {
		ID         jsontext.Value            `json:"id"`
		Epoch      int64                     `json:"epoch"`
		ModelUsage map[string]jsontext.Value `json:"model_usage"`
	}
	type header struct {
		Eval struct {
			RunID string `json:"run_id"`
			Model string `json:"model"`
		} `json:"eval"`
		Samples []sample `json:"samples"`
	}
	m := tables.ImportMap{Format: tables.FormatImportMap, Source: tables.SourceInspect, RateCard: rateCard, Billing: tables.BillingReference,
		ErrorClasses: []tables.ImportErrorClass{}, Sessions: []tables.ImportSession{}}
	rep := int64(0)
	for i, log := range args[2:] {
		data, err := os.ReadFile(ts.MkAbs(log))
		ts.Check(err)
		var h header
		if zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data))); err == nil {
			for _, f := range zr.File {
				var into any = &sample{}
				if f.Name == "header.json" || f.Name == "_journal/start.json" {
					into = &h
				} else if !strings.HasPrefix(f.Name, "samples/") {
					continue
				}
				r, err := f.Open()
				ts.Check(err)
				b, err := io.ReadAll(r)
				ts.Check(err)
				ts.Check(json.Unmarshal(b, into))
				if s, ok := into.(*sample); ok {
					h.Samples = append(h.Samples, *s)
				}
			}
		} else {
			ts.Check(json.Unmarshal(data, &h))
		}
		for _, s := range h.Samples {
			models := slices.Sorted(maps.Keys(s.ModelUsage))
			if len(models) == 0 {
				models = []string{h.Eval.Model}
			}
			id := strings.Trim(string(s.ID), `"`)
			for _, model := range models {
				rep++
				m.Sessions = append(m.Sessions, tables.ImportSession{Match: tables.ImportMatch{Record: h.Eval.RunID, Sample: id, Epoch: s.Epoch, Model: model},
					SessionID: fmt.Sprintf("%s%d-%s-%d", args[1], i+1, id, s.Epoch), Attempt: 1, TaskID: "T1", Repetition: rep, Role: tables.RoleDraft, PromptIDs: []string{}})
			}
		}
	}
	writeJSON(ts, ts.MkAbs(args[0]), m)
}

// cmdManifest CAMPAIGN FILE sets the manifest members FILE holds (a JSON
// object of top-level members: rate_cards, identities, …; an object's
// members are set one by one), as a user edits manifest.json by hand.
func cmdManifest(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: manifest CAMPAIGN FILE")
	}
	path := filepath.Join(ts.MkAbs(args[0]), "manifest.json")
	var man, edit map[string]jsontext.Value
	data, err := os.ReadFile(path)
	ts.Check(err)
	ts.Check(json.Unmarshal(data, &man))
	data, err = os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	ts.Check(json.Unmarshal(data, &edit))
	for k, v := range edit {
		// An object member is merged one level deep (identities keeps what
		// init pre-filled from the records); any other value is replaced.
		var into, from map[string]jsontext.Value
		if json.Unmarshal(man[k], &into) == nil && json.Unmarshal(v, &from) == nil && into != nil && from != nil {
			maps.Copy(into, from)
			b, err := json.Marshal(into, json.Deterministic(true))
			ts.Check(err)
			v = b
		}
		man[k] = v
	}
	writeJSON(ts, path, man)
}

// cmdReallogs DIR copies the real logs of testdata/reallogs (Inspect AI
// logs, MIT, and a Harbor trial, Apache-2.0; their licences and READMEs
// beside them) into DIR, so that a script imports them by relative names.
func cmdReallogs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: reallogs DIR")
	}
	ts.Check(os.CopyFS(ts.MkAbs(args[0]), os.DirFS(filepath.Join("testdata", "reallogs"))))
}

// exampleFS is the embedded paired-review example the sources are cut
// from.
func exampleFS(ts *testscript.TestScript) fs.FS {
	fsys, ok := fixtures.Example("paired-review")
	if !ok {
		ts.Fatalf("no paired-review example")
	}
	return fsys
}

func readExample[T any](ts *testscript.TestScript, fsys fs.FS, name string) T {
	var v T
	data, err := fs.ReadFile(fsys, name)
	ts.Check(err)
	ts.Check(json.Unmarshal(data, &v))
	return v
}

func writeFile(ts *testscript.TestScript, name string, data []byte) {
	ts.Check(os.MkdirAll(filepath.Dir(name), 0o755))
	ts.Check(os.WriteFile(name, data, 0o644))
}

func writeJSON(ts *testscript.TestScript, name string, v any) {
	b, err := json.Marshal(v, json.Deterministic(true), jsontext.WithIndent("  "))
	ts.Check(err)
	writeFile(ts, name, append(b, '\n'))
}

// cmdMksources DIR writes, from the example campaign's own records, what
// three other tools would have recorded of its sessions: the drafts as one
// Inspect AI log (inspect_ai 0.3.200), the arm A reviews as Codex CLI
// rollouts, the arm B reviews as Harbor trial directories, each with the
// same tokens, times, IDs and answers; the mapping files a user would
// write for them (maps/*.json, without the reservations and prompts no
// tool records, and maps/*-filled.json with them, from the runner's own
// records); the design file for init; the two review receipts of the slot
// whose draft timed out, which no tool records because they were never
// dispatched; and user/, the task, source and prompt files and ratings the
// user writes.
func cmdMksources(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mksources DIR")
	}
	dir := ts.MkAbs(args[0])
	fsys := exampleFS(ts)
	man := readExample[tables.Manifest](ts, fsys, "manifest.json")
	d := tables.DesignFile{Format: tables.FormatDesign, CampaignID: man.CampaignID, Repetitions: man.Design.Repetitions,
		DraftPrompts: man.Design.DraftPrompts, Arms: man.Design.Arms}
	for _, p := range man.Prompts {
		d.Prompts = append(d.Prompts, p.ID)
	}
	for _, t := range man.Design.Tasks {
		d.Tasks = append(d.Tasks, tables.DesignTask{ID: t.ID, Repository: t.Repository, Family: t.Family, Split: t.Split, Category: t.Category})
	}
	writeJSON(ts, filepath.Join(dir, "design.json"), d)

	ts.Check(fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if top, _, _ := strings.Cut(p, "/"); top == "tasks" || top == "sources" || top == "prompts" ||
			p == "adjudications.jsonl" || p == "unblinding.json" {
			data, err := fs.ReadFile(fsys, p)
			if err == nil {
				writeFile(ts, filepath.Join(dir, "user", filepath.FromSlash(p)), data)
			}
			return err
		}
		return nil
	}))

	receipts, err := fs.ReadFile(fsys, "receipts.jsonl")
	ts.Check(err)
	maps := map[string]*[2]tables.ImportMap{}
	for _, src := range []string{tables.SourceInspect, tables.SourceCodex, tables.SourceHarbor} {
		m := tables.ImportMap{Format: tables.FormatImportMap, Source: src, RateCard: man.RateCards[0].ID, Billing: tables.BillingReference,
			Identity:     tables.ImportIdentity{CLISHA256: man.Identities.CLISHA256, PermissionPolicy: man.Identities.PermissionPolicy},
			ErrorClasses: []tables.ImportErrorClass{{SourceError: "limit:time", Class: tables.ErrorModelTimeout}}, Sessions: []tables.ImportSession{}}
		if src == tables.SourceHarbor {
			m.OutputFile = "agent/answer.json"
		}
		filled := m
		filled.Identity.Host = man.Identities.Host // the runner's host: no source records it
		maps[src] = &[2]tables.ImportMap{m, filled}
	}
	var samples []any
	var notDispatched []byte
	for line := range strings.SplitSeq(strings.TrimSpace(string(receipts)), "\n") {
		var r tables.Receipt
		ts.Check(json.Unmarshal([]byte(line), &r))
		if r.Status == tables.StatusNotDispatched {
			notDispatched = append(append(notDispatched, line...), '\n')
			continue
		}
		var answer []byte
		if r.Output != nil {
			answer, err = fs.ReadFile(fsys, r.Output.Path)
			ts.Check(err)
		}
		b, problems := account.DecodeMeter(r.Meter.Shape, r.Meter.Usage)
		if len(problems) > 0 {
			ts.Fatalf("%s: %v", r.SessionID, problems)
		}
		var src, record, sample, model string
		var epoch int64
		switch {
		case r.Role == tables.RoleDraft:
			src, record, sample, epoch, model = tables.SourceInspect, "drafts-run", r.SessionID, 1, "openai/"+r.Identity.ReturnedModel
			samples = append(samples, inspectSample(r, b, model, answer))
		case *r.Arm == "A":
			// Codex records the model of each turn (turn_context), Harbor the
			// agent's model (agent_info.model_info): the model the session ran on.
			src, record, model = tables.SourceCodex, r.RequestID, r.Identity.ReturnedModel
			writeFile(ts, filepath.Join(dir, "codex", "rollout-"+r.SessionID+".jsonl"), codexRollout(r, b, model, answer))
		default:
			src, record, model = tables.SourceHarbor, r.RequestID, r.Identity.ReturnedModel
			writeJSON(ts, filepath.Join(dir, "harbor", r.SessionID, "result.json"), harborTrial(r, b, model))
			if answer != nil {
				writeFile(ts, filepath.Join(dir, "harbor", r.SessionID, "agent", "answer.json"), answer)
			}
		}
		entry := tables.ImportSession{Match: tables.ImportMatch{Record: record, Sample: sample, Epoch: epoch, Model: model},
			SessionID: r.SessionID, Attempt: r.Attempt, TaskID: r.TaskID, Repetition: r.Repetition, Role: r.Role, Arm: r.Arm,
			DraftSessionID: r.Inputs.DraftSessionID, PromptIDs: []string{}}
		maps[src][0].Sessions = append(maps[src][0].Sessions, entry)
		entry.PromptIDs, entry.Reservation = r.Inputs.PromptIDs, r.Reservation
		entry.RenderedSHA256, entry.RenderedBytes = r.Inputs.RenderedSHA256, r.Inputs.RenderedBytes
		maps[src][1].Sessions = append(maps[src][1].Sessions, entry)
	}
	writeJSON(ts, filepath.Join(dir, "inspect", "drafts.json"), map[string]any{
		"version": 2, "status": "success",
		"eval": map[string]any{"run_id": "drafts-run", "task": "draft", "model": "openai/" + man.Identities.ReturnedModel,
			"created": "2026-10-01T08:00:00+00:00", "packages": map[string]any{"inspect_ai": "0.3.200"}},
		"samples": samples,
	})
	for src, m := range maps {
		writeJSON(ts, filepath.Join(dir, "maps", src+".json"), m[0])
		writeJSON(ts, filepath.Join(dir, "maps", src+"-filled.json"), m[1])
	}
	writeFile(ts, filepath.Join(dir, "not-dispatched.jsonl"), notDispatched)
}

func rfc(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// inspectSample is one Inspect AI sample (inspect_ai ≥ 0.3.184: input
// excludes the cache) of a draft receipt.
func inspectSample(r tables.Receipt, b account.Buckets, model string, answer []byte) map[string]any {
	s := map[string]any{
		"id": r.SessionID, "epoch": 1, "uuid": r.RequestID,
		"started_at": rfc(r.StartedAt), "completed_at": rfc(*r.EndedAt),
		"model_usage": map[string]any{model: map[string]any{
			"input_tokens": b.UncachedInput, "input_tokens_cache_read": b.CachedInput, "input_tokens_cache_write": b.CacheWrite5m,
			"output_tokens": b.Output, "reasoning_tokens": b.Reasoning,
			"total_tokens": b.UncachedInput + b.CachedInput + b.CacheWrite5m + b.Output}},
		"output": map[string]any{"model": r.Identity.ReturnedModel, "choices": []any{}},
	}
	if answer != nil {
		s["output"] = map[string]any{"model": r.Identity.ReturnedModel, "choices": []any{
			map[string]any{"message": map[string]any{"role": "assistant", "content": string(answer)}, "stop_reason": "stop"}}}
	}
	if r.Status == tables.StatusError {
		s["limit"] = map[string]any{"type": "time", "limit": 240}
	}
	return s
}

// codexRollout is a one-turn Codex CLI rollout of a review receipt that
// requested model.
func codexRollout(r tables.Receipt, b account.Buckets, model string, answer []byte) []byte {
	in := b.UncachedInput + b.CachedInput
	usage := map[string]any{"input_tokens": in, "cached_input_tokens": b.CachedInput, "output_tokens": b.Output,
		"reasoning_output_tokens": b.Reasoning, "total_tokens": in + b.Output}
	end := rfc(*r.EndedAt)
	lines := []map[string]any{
		{"timestamp": rfc(r.StartedAt), "type": "session_meta", "payload": map[string]any{"id": r.RequestID, "timestamp": rfc(r.StartedAt),
			"cwd": "/w/" + r.TaskID, "originator": "codex_exec", "cli_version": "0.149.0", "source": "exec", "model_provider": "openai"}},
		{"timestamp": rfc(r.StartedAt), "type": "turn_context", "payload": map[string]any{"cwd": "/w/" + r.TaskID, "model": model}},
		{"timestamp": end, "type": "response_item", "payload": map[string]any{"type": "message", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": string(answer)}}, "phase": "final_answer"}},
		{"timestamp": end, "type": "event_msg", "payload": map[string]any{"type": "token_count", "info": map[string]any{
			"total_token_usage": usage, "last_token_usage": usage, "model_context_window": 272000}, "rate_limits": nil}},
		{"timestamp": end, "type": "event_msg", "payload": map[string]any{"type": "task_complete", "last_agent_message": string(answer)}},
	}
	var out []byte
	for _, l := range lines {
		b, _ := json.Marshal(l, json.Deterministic(true))
		out = append(append(out, b...), '\n')
	}
	return out
}

// harborTrial is a Harbor TrialResult of a review receipt whose agent was
// configured with model.
func harborTrial(r tables.Receipt, b account.Buckets, model string) map[string]any {
	return map[string]any{
		"id": r.RequestID, "task_name": "evalgate/" + r.TaskID, "trial_name": r.SessionID,
		"agent_info":      map[string]any{"name": "codex", "version": "0.149.0", "model_info": map[string]any{"name": model, "provider": "openai"}},
		"agent_result":    map[string]any{"n_input_tokens": b.UncachedInput + b.CachedInput, "n_cache_tokens": b.CachedInput, "n_output_tokens": b.Output, "cost_usd": nil},
		"verifier_result": map[string]any{"rewards": map[string]any{"reward": 1}},
		"exception_info":  nil,
		"started_at":      rfc(r.StartedAt), "finished_at": rfc(*r.EndedAt),
	}
}

// cmdFill CAMPAIGN USERDIR does what a user does to an init skeleton:
// copies in the task, source and prompt files and the ratings, writes
// the host identities, rate card, ceilings, seeds and freeze time of the
// example into the manifest, and the sha256 of every task and prompt file.
func cmdFill(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fill CAMPAIGN USERDIR")
	}
	camp, user := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	ts.Check(fs.WalkDir(os.DirFS(user), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := os.ReadFile(filepath.Join(user, p))
		if err == nil {
			writeFile(ts, filepath.Join(camp, p), data)
		}
		return err
	}))
	mpath := filepath.Join(camp, "manifest.json")
	data, err := os.ReadFile(mpath)
	ts.Check(err)
	var m tables.Manifest
	ts.Check(json.Unmarshal(data, &m))
	ex := readExample[tables.Manifest](ts, exampleFS(ts), "manifest.json")
	m.Identities, m.RateCards, m.Ceilings, m.Seed, m.Synthetic, m.FrozenAt, m.Intervals =
		ex.Identities, ex.RateCards, ex.Ceilings, ex.Seed, ex.Synthetic, ex.FrozenAt, ex.Intervals
	m.Prompts = ex.Prompts // the user's prompt files, their kinds and paths (docs/prompts.md)
	// The schedule the sessions actually ran in, frozen before the first
	// dispatch (rule D3: sessions run in schedule order), in place of the
	// skeleton's balanced default.
	m.Design.Schedule = ex.Design.Schedule
	hash := func(p string) string {
		b, err := os.ReadFile(filepath.Join(camp, filepath.FromSlash(path.Clean(p))))
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
	b, err := json.Marshal(&m, json.Deterministic(true), jsontext.WithIndent("  "))
	ts.Check(err)
	ts.Check(os.WriteFile(mpath, append(b, '\n'), 0o644))
	fmt.Fprintf(ts.Stdout(), "filled %s\n", args[0])
}
