package importers

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// MaxCodexRollout is the size cap of one Codex rollout file, in bytes.
const MaxCodexRollout = 256 << 20

// codexLine is one rollout line: {"timestamp", "type", "payload"}
// (codex-rs RolloutLine); unknown members and line types are ignored.
type codexLine struct {
	Timestamp *string        `json:"timestamp"`
	Type      *string        `json:"type"`
	Payload   jsontext.Value `json:"payload"`
}

type codexSessionMeta struct {
	ID        *string `json:"id"`
	Timestamp *string `json:"timestamp"`
	Model     *string `json:"model"` // recent codex-cli versions; absent in older ones
	// The instructions the session began with, when the rollout records
	// them (instructions in older versions, base_instructions later).
	Instructions     jsontext.Value `json:"instructions"`
	BaseInstructions jsontext.Value `json:"base_instructions"`
}

type codexTurnContext struct {
	Model *string `json:"model"`
}

type codexResponseItem struct {
	Type    string `json:"type"`
	Role    string `json:"role"`
	Content []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	} `json:"content"`
}

type codexEvent struct {
	Type   string `json:"type"`
	Reason string `json:"reason"` // turn_aborted
	Info   *struct {
		TotalTokenUsage jsontext.Value `json:"total_token_usage"`
		LastTokenUsage  jsontext.Value `json:"last_token_usage"`
	} `json:"info"`
}

// codexTokens is one TokenUsage's counts, for the arithmetic between
// running totals and turns (the account stage decodes the meter itself).
type codexTokens struct {
	InputTokens           int64 `json:"input_tokens"`
	CachedInputTokens     int64 `json:"cached_input_tokens"`
	CacheWriteInputTokens int64 `json:"cache_write_input_tokens"`
	OutputTokens          int64 `json:"output_tokens"`
	ReasoningOutputTokens int64 `json:"reasoning_output_tokens"`
	TotalTokens           int64 `json:"total_tokens"`
}

func (a codexTokens) minus(b codexTokens) codexTokens {
	return codexTokens{a.InputTokens - b.InputTokens, a.CachedInputTokens - b.CachedInputTokens,
		a.CacheWriteInputTokens - b.CacheWriteInputTokens, a.OutputTokens - b.OutputTokens,
		a.ReasoningOutputTokens - b.ReasoningOutputTokens, a.TotalTokens - b.TotalTokens}
}

// ReadCodexRollout reads one Codex CLI rollout (JSONL of session_meta,
// turn_context, response_item and event_msg lines) as one session record.
//
// Usage: total_token_usage is the running total of the conversation and
// last_token_usage the latest model response; the two are never added.
// Identical consecutive token_count events (Codex re-emits one with new
// rate limits) are one event. The first event's running total must equal
// its own turn (the file begins the conversation; otherwise
// codex_rollout_resumed), and every later running total must grow by
// exactly its turn (otherwise codex_totals_disagree). The session's meter
// is then the final total_token_usage, verbatim (shape
// codex.total_token_usage). The model is turn_context's, or
// session_meta's when no turn_context names one: it matches the mapping
// and is the receipt's returned model, the one model a rollout records;
// the start is
// session_meta's timestamp; the end is the last task_complete, error or
// turn_aborted event (none: no end, the session has no terminal record);
// the final output is the last assistant message; the recorded input is
// every item the model received (session_meta's instructions, messages of
// roles other than the assistant's, tool call outputs), in order, as a
// JSON array of the payloads as written.
func ReadCodexRollout(name string, data []byte) (*SourceRecord, rules.Findings) {
	cr := codexReader{name: name, rec: &SourceRecord{Source: tables.SourceCodex, File: name, FileSHA256: sha256Hex(data)}}
	if len(data) > MaxCodexRollout {
		cr.reject(0, rules.CodeTooLarge, fmt.Sprintf("the rollout has %d bytes; the cap is %d", len(data), MaxCodexRollout))
		return nil, cr.out.Findings()
	}
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		cr.line(int64(i+1), line)
	}
	cr.finish()
	out := cr.out.Findings()
	out.Sort()
	if out.Rejected() {
		return nil, out
	}
	return cr.rec, out
}

type codexReader struct {
	name      string
	rec       *SourceRecord
	out       rules.FindingCap // a rollout of a million bad lines keeps a hundred findings per code
	meta      bool
	metaModel string // session_meta's model, when the rollout records one
	models    []string
	last      jsontext.Value // the latest distinct total_token_usage
	running   codexTokens
	events    int
	inputs    [][]byte // what the model received, in order (recordInput)
}

func (cr *codexReader) reject(line int64, code rules.Code, msg string) {
	cr.out.Add(rules.Finding{Code: code, Severity: rules.Reject, File: cr.name, Line: line, Message: msg})
}

func (cr *codexReader) malformed(line int64, msg string) {
	cr.reject(line, rules.CodeCodexRolloutMalformed, msg)
}

// decode unmarshals v strictly as JSON (unknown members ignored).
func (cr *codexReader) decode(line int64, data []byte, v any, what string) bool {
	if err := json.Unmarshal(data, v); err != nil {
		msg := "" // a finding past the caps is only counted: no message is formatted for it
		if cr.out.Room(rules.CodeCodexRolloutMalformed) {
			msg = fmt.Sprintf("%s is not what a Codex rollout writes there: %v", what, err)
		}
		cr.malformed(line, msg)
		return false
	}
	return true
}

func (cr *codexReader) line(n int64, data []byte) {
	var l codexLine
	if !cr.decode(n, data, &l, "the line") {
		return
	}
	if l.Type == nil || l.Timestamp == nil {
		cr.malformed(n, "a rollout line has a type, a timestamp and a payload")
		return
	}
	at := sourceTime(l.Timestamp)
	if at == nil {
		cr.malformed(n, fmt.Sprintf("timestamp %q is not an RFC 3339 timestamp", load.Clip(*l.Timestamp)))
		return
	}
	switch *l.Type {
	case "session_meta":
		var m codexSessionMeta
		if !cr.decode(n, l.Payload, &m, "the session_meta payload") {
			return
		}
		if cr.meta || m.ID == nil {
			cr.malformed(n, "a rollout has exactly one session_meta, with an id")
			return
		}
		cr.meta = true
		cr.rec.RequestID, cr.rec.Match.Record = *m.ID, *m.ID
		cr.rec.StartedAt = at
		if m.Model != nil {
			cr.metaModel = *m.Model
		}
		for _, in := range []struct {
			name string
			v    jsontext.Value
		}{{"instructions", m.Instructions}, {"base_instructions", m.BaseInstructions}} {
			if v := nonNull(in.v); v != nil {
				b, _ := json.Marshal(map[string]jsontext.Value{in.name: compact(v)})
				cr.inputs = append(cr.inputs, b)
			}
		}
		if m.Timestamp != nil {
			if t := sourceTime(m.Timestamp); t != nil {
				cr.rec.StartedAt = t
			}
		}
	case "turn_context":
		var t codexTurnContext
		if cr.decode(n, l.Payload, &t, "the turn_context payload") && t.Model != nil {
			if len(cr.models) == 0 || cr.models[len(cr.models)-1] != *t.Model {
				cr.models = append(cr.models, *t.Model)
			}
		}
	case "response_item":
		var it codexResponseItem
		if !cr.decode(n, l.Payload, &it, "the response_item payload") {
			return
		}
		if receivedItem(it) {
			cr.inputs = append(cr.inputs, compact(l.Payload))
		}
		if it.Type == "message" && it.Role == "assistant" {
			var b []byte
			for _, c := range it.Content {
				if c.Type == "output_text" && c.Text != nil {
					b = append(b, *c.Text...)
				}
			}
			cr.rec.Output = b
			if cr.rec.Output == nil {
				cr.rec.Output = []byte{}
			}
		}
	case "event_msg":
		var e codexEvent
		if cr.decode(n, l.Payload, &e, "the event_msg payload") {
			cr.event(n, at, &e)
		}
	}
}

func (cr *codexReader) event(n int64, at *time.Time, e *codexEvent) {
	switch e.Type {
	case "task_complete":
		cr.rec.EndedAt, cr.rec.Error = at, ""
	case "error":
		cr.rec.EndedAt, cr.rec.Error = at, "error"
	case "turn_aborted":
		cr.rec.EndedAt, cr.rec.Error = at, "turn_aborted:"+e.Reason
	case "token_count":
		if e.Info != nil {
			cr.tokens(n, e.Info.TotalTokenUsage, e.Info.LastTokenUsage)
		}
	}
}

// tokens checks one token_count event against the running total so far.
func (cr *codexReader) tokens(n int64, totalRaw, lastRaw jsontext.Value) {
	var total, last codexTokens
	if !cr.decode(n, totalRaw, &total, "total_token_usage") || !cr.decode(n, lastRaw, &last, "last_token_usage") {
		return
	}
	c := compact(totalRaw)
	if cr.last != nil && bytes.Equal(c, cr.last) {
		return // the same running total re-emitted: not a new turn
	}
	grew := total.minus(cr.running)
	switch {
	case cr.events == 0 && total != last:
		cr.reject(n, rules.CodeCodexRolloutResumed,
			"the first running total (total_token_usage) is not its own turn (last_token_usage): the rollout continues a conversation begun elsewhere, so this session's own usage is unknown")
	case cr.events > 0 && grew != last:
		cr.reject(n, rules.CodeCodexTotalsDisagree, fmt.Sprintf(
			"the running total grew by %+v but the turn (last_token_usage) is %+v; the rollout's usage does not add up", grew, last))
	}
	cr.events++
	cr.running, cr.last = total, c
}

// receivedItem reports whether a response item is input the model
// received: a message of any role but the assistant's (the user's turns,
// developer and system instructions, the environment context Codex adds)
// or the output of a tool call (function_call_output,
// custom_tool_call_output). What the model produced — its messages,
// reasoning and tool calls — is not.
func receivedItem(it codexResponseItem) bool {
	return (it.Type == "message" && it.Role != "assistant") || strings.HasSuffix(it.Type, "_call_output")
}

func (cr *codexReader) finish() {
	if !cr.meta {
		cr.malformed(0, "the file has no session_meta line, so it is not a Codex rollout")
		return
	}
	if len(cr.inputs) > 0 {
		// The session's recorded input: everything the rollout records the
		// model received, in order, each payload compact as written.
		cr.rec.Input = append(append([]byte("["), bytes.Join(cr.inputs, []byte(","))...), ']')
	}
	switch len(cr.models) {
	case 0:
		if cr.metaModel == "" {
			cr.malformed(0, "the rollout has neither a turn_context nor a session_meta naming its model")
		}
		cr.rec.Match.Model, cr.rec.ReturnedModel = cr.metaModel, cr.metaModel
	case 1:
		// turn_context names the model the session's turns ran on, the one
		// model a rollout records: it is the session's returned model
		// (docs/import.md), checked against the manifest under the model
		// identity rule. A session_meta model that is another model is a
		// rollout contradicting itself.
		cr.rec.Match.Model, cr.rec.ReturnedModel = cr.models[0], cr.models[0]
		if cr.metaModel != "" && !tables.SameModel(cr.metaModel, cr.models[0]) {
			cr.malformed(0, fmt.Sprintf("session_meta names model %q but turn_context %q; one session has one model", load.Clip(cr.metaModel), load.Clip(cr.models[0])))
		}
	default:
		cr.malformed(0, fmt.Sprintf("the rollout switches model (%q, then %q); one session has one model", load.Clip(cr.models[0]), load.Clip(cr.models[1])))
	}
	if cr.last == nil {
		cr.out.Add(rules.Finding{Code: rules.CodeCodexNoUsage, Severity: rules.Warn, File: cr.name,
			Message: "the rollout has no token_count usage, so its receipt has no meter"})
		return
	}
	cr.rec.MeterShape, cr.rec.Usage = tables.ShapeCodexTotalTokenUsage, cr.last
}
