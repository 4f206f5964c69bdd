package stages

import (
	"bytes"
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/importers"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// A knownFormat is a file format an importer may be given by mistake: what
// it is, in the user's words, and what to do with it instead.
type knownFormat struct {
	source string // the importer that reads it; "" none
	what   string
	todo   string
}

var (
	formatInspect     = knownFormat{tables.SourceInspect, "an Inspect AI log", "import it with `evalgate import inspect`"}
	formatCodex       = knownFormat{tables.SourceCodex, "a Codex CLI rollout", "import it with `evalgate import codex`"}
	formatHarborTrial = knownFormat{tables.SourceHarbor, "a Harbor trial result", "import it with `evalgate import harbor`"}
	formatHarborJob   = knownFormat{"", "a Harbor job's result.json (JobResult)",
		"give `evalgate import harbor` the job directory or its trial directories, whose result.json files are the trials"}
	formatTB1Run = knownFormat{"", "a terminal-bench 1 run's results.json",
		"terminal-bench 1 records each trial's token totals without saying whether they include cached input, and no model per trial, so evalgate does not import it; run the tasks under Harbor and import its trial directories"}
	formatTB1Trial = knownFormat{"", "a terminal-bench 1 trial's results.json",
		"terminal-bench 1 records token totals without saying whether they include cached input, and no model, so evalgate does not import it; run the task under Harbor and import its trial directory"}
	formatCodexLegacy = knownFormat{"", "a Codex CLI rollout of the legacy format (a session header line, then bare response items)",
		"that format records no token usage and no model per turn, so evalgate does not import it; record the session with a codex-cli that writes session_meta, turn_context and token_count lines"}
	formatCodexExec = knownFormat{"", "`codex exec --json` output",
		"its usage is the thread's running total with no session header; import the session's rollout file instead (under $CODEX_HOME/sessions)"}
)

// maxDetectDocument caps the document detectFormat decodes whole: a
// larger one is recognised by its first line only (every importer refuses
// a larger trial result, and reads a larger log itself).
const maxDetectDocument = importers.MaxHarborResult

// detectFormat names the known format of data, by its members only (never
// its file name); ok is false when it is none of them.
func detectFormat(data []byte) (knownFormat, bool) {
	if bytes.HasPrefix(data, []byte("PK")) {
		return formatInspect, true // a .eval zip
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return knownFormat{}, false
	}
	if len(trimmed) <= maxDetectDocument {
		if keys, ok := topLevelKeys(trimmed); ok {
			return documentFormat(keys)
		}
	}
	var doc map[string]jsontext.Value
	first, _, _ := bytes.Cut(trimmed, []byte("\n"))
	if len(first) > maxDetectDocument || json.Unmarshal(first, &doc) != nil {
		return knownFormat{}, false
	}
	var typ string
	if t := doc["type"]; t.Kind() == '"' {
		_ = json.Unmarshal(t, &typ)
	}
	switch {
	case doc["payload"] != nil && typ != "":
		return formatCodex, true
	case typ == "thread.started" || typ == "turn.started" || typ == "turn.completed" || typ == "item.completed":
		return formatCodexExec, true
	case typ == "" && doc["id"] != nil && doc["timestamp"] != nil:
		return formatCodexLegacy, true
	}
	return knownFormat{}, false
}

// topLevelKeys returns the member names of a single JSON object, read by
// streaming over data and skipping every value, so that a large log is
// recognised without a copy of its members; ok is false when data is not
// exactly one valid JSON object (with no duplicate names).
func topLevelKeys(data []byte) (map[string]bool, bool) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	keys := map[string]bool{}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, false
		}
		name := tok.String() // before the next call voids tok
		if dec.SkipValue() != nil {
			return nil, false
		}
		keys[name] = true
	}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '}' {
		return nil, false
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, false
	}
	return keys, true
}

// documentFormat names the known format of a single JSON document by its
// member names.
func documentFormat(doc map[string]bool) (knownFormat, bool) {
	has := func(keys ...string) bool {
		for _, k := range keys {
			if !doc[k] {
				return false
			}
		}
		return true
	}
	switch {
	case has("eval") && (has("samples") || has("stats") || has("results")):
		return formatInspect, true
	case has("trial_results"), has("n_total_trials"):
		return formatHarborJob, true
	case has("results") && (has("accuracy") || has("n_resolved")):
		return formatTB1Run, true
	case has("is_resolved", "task_id"), has("trial_name", "total_input_tokens"):
		return formatTB1Trial, true
	case has("agent_info"), has("trial_name", "task_name", "verifier_result"):
		return formatHarborTrial, true
	}
	return knownFormat{}, false
}

// wrongFormat is the one finding for a file of another known format than
// the importer's: what it is and what to do, instead of every problem the
// importer's reader finds in a file it was never meant to read. nil when
// the file is of no other known format.
func wrongFormat(source, name string, data []byte) rules.Findings {
	f, ok := detectFormat(data)
	if !ok || f.source == source {
		return nil
	}
	return rules.Findings{{Code: rules.CodeImportWrongFormat, Severity: rules.Reject, File: name,
		Message: fmt.Sprintf("this file is %s, not %s; %s", f.what, sourceFormat(source).what, f.todo)}}
}

func sourceFormat(source string) knownFormat {
	switch source {
	case tables.SourceInspect:
		return formatInspect
	case tables.SourceCodex:
		return formatCodex
	}
	return formatHarborTrial
}
