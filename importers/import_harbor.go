package importers

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// MaxHarborResult is the size cap of one Harbor trial result.json.
const MaxHarborResult = 64 << 20

// harborTrialDoc is the part of Harbor's TrialResult evalgate reads
// (docs/import.md); other members are ignored.
type harborTrialDoc struct {
	ID           *string `json:"id"`
	TrialName    *string `json:"trial_name"`
	TaskChecksum *string `json:"task_checksum"`
	AgentInfo    *struct {
		Name      *string `json:"name"`
		ModelInfo *struct {
			Name *string `json:"name"`
		} `json:"model_info"`
	} `json:"agent_info"`
	AgentResult *struct {
		NInputTokens  jsontext.Value `json:"n_input_tokens"`
		NCacheTokens  jsontext.Value `json:"n_cache_tokens"`
		NOutputTokens jsontext.Value `json:"n_output_tokens"`
		CostUSD       jsontext.Value `json:"cost_usd"`
	} `json:"agent_result"`
	VerifierResult *struct {
		Rewards map[string]jsontext.Value `json:"rewards"`
	} `json:"verifier_result"`
	ExceptionInfo *struct {
		ExceptionType *string `json:"exception_type"`
	} `json:"exception_info"`
	StartedAt  *string `json:"started_at"`
	FinishedAt *string `json:"finished_at"`
}

// ReadHarborTrial reads one Harbor trial result.json as one session
// record. output is the agent's final answer read from the trial
// directory by the mapping's output_file (nil when none).
//
// The request ID is the trial id; the requested and returned model is
// agent_info.model_info.name; an oracle or nop agent without one is
// marked as running no model (NoModel); task_checksum is kept; the times are started_at and finished_at
// (timestamps without a UTC offset are refused, never assigned a zone).
// An exception_info makes an error named by its exception_type. A trial
// without an exception and without a verifier reward has no outcome: it
// is marked so (harbor_no_reward) and imported as an error, never as a
// pass. The meter is agent_result's n_input_tokens (cache included),
// n_cache_tokens and n_output_tokens verbatim (shape
// harbor.agent_context); cost_usd is kept aside as the agent's own
// figure, billed only when the mapping says so.
func ReadHarborTrial(name string, data, output []byte) (*SourceRecord, rules.Findings) {
	var out rules.Findings
	bad := func(ptr, msg string) {
		out = append(out, rules.Finding{Code: rules.CodeHarborResultMalformed, Severity: rules.Reject, File: name, Pointer: ptr, Message: msg})
	}
	warn := func(code rules.Code, ptr, msg string) {
		out = append(out, rules.Finding{Code: code, Severity: rules.Warn, File: name, Pointer: ptr, Message: msg})
	}
	if len(data) > MaxHarborResult {
		return nil, rules.Findings{{Code: rules.CodeTooLarge, Severity: rules.Reject, File: name,
			Message: fmt.Sprintf("the result has %d bytes; the cap is %d", len(data), MaxHarborResult)}}
	}
	var d harborTrialDoc
	if jsontext.Value(data).Kind() != '{' {
		bad("", "the document is not a JSON object, so it is not a Harbor trial result")
		return nil, out
	}
	if err := json.Unmarshal(data, &d); err != nil {
		bad("", "the document is not a Harbor trial result: "+err.Error())
		return nil, out
	}
	rec := &SourceRecord{Source: tables.SourceHarbor, File: name, FileSHA256: sha256Hex(data), Output: output, Trial: data}
	if d.TrialName != nil {
		rec.TrialName = *d.TrialName
	}
	if d.ID == nil || *d.ID == "" {
		bad("/id", "a trial result has an id")
	} else {
		rec.RequestID, rec.Match.Record = *d.ID, *d.ID
	}
	if d.TaskChecksum != nil {
		rec.TaskChecksum = *d.TaskChecksum
	}
	if a := d.AgentInfo; a != nil && a.Name != nil {
		rec.Agent = *a.Name
	}
	if a := d.AgentInfo; a != nil && a.ModelInfo != nil && a.ModelInfo.Name != nil {
		// model_info is the model the trial's agent ran on, the one model
		// a trial records: it matches the mapping and is the session's
		// returned model (docs/import.md), kept as written.
		rec.Match.Model, rec.ReturnedModel = *a.ModelInfo.Name, *a.ModelInfo.Name
	}
	if rec.ReturnedModel == "" {
		rec.NoModel = modellessAgents[rec.Agent]
	}
	rec.StartedAt = harborTime(d.StartedAt, "/started_at", bad)
	rec.EndedAt = harborTime(d.FinishedAt, "/finished_at", bad)
	switch {
	case d.ExceptionInfo != nil:
		if d.ExceptionInfo.ExceptionType == nil || *d.ExceptionInfo.ExceptionType == "" {
			bad("/exception_info/exception_type", "an exception_info names its exception_type")
		} else {
			rec.Error = *d.ExceptionInfo.ExceptionType
		}
	case !harborRewarded(d.VerifierResult):
		rec.NoOutcome = true
		warn(rules.CodeHarborNoReward, "/verifier_result",
			"the trial raised no exception but its verifier wrote no reward: it is imported as an error (recorder_loss), never as a pass")
	}
	harborMeter(rec, &d, bad, warn)
	out.Sort()
	if out.Rejected() {
		return nil, out
	}
	return rec, out
}

// modellessAgents are Harbor's built-in agents that run no model, and
// what each does instead (Repo2RLEnv's control trials: the oracle and the
// nop baseline).
var modellessAgents = map[string]string{
	"oracle": "which runs the task's own solution",
	"nop":    "which does nothing",
}

// harborTime parses a Harbor timestamp, which must carry its offset.
func harborTime(s *string, ptr string, bad func(ptr, msg string)) *time.Time {
	if s == nil {
		return nil
	}
	t := sourceTime(s)
	if t == nil {
		bad(ptr, fmt.Sprintf("%q is not an RFC 3339 timestamp with a UTC offset; no time zone is assumed", load.Clip(*s)))
	}
	return t
}

// harborRewarded reports whether the verifier wrote at least one reward.
func harborRewarded(v *struct {
	Rewards map[string]jsontext.Value `json:"rewards"`
}) bool {
	return v != nil && slices.ContainsFunc(slices.Sorted(maps.Keys(v.Rewards)), func(k string) bool { return v.Rewards[k].Kind() == '0' })
}

// harborMeter keeps agent_result's token members verbatim.
func harborMeter(rec *SourceRecord, d *harborTrialDoc, bad func(ptr, msg string), warn func(rules.Code, string, string)) {
	a := d.AgentResult
	if a == nil || nonNull(a.NInputTokens) == nil || nonNull(a.NOutputTokens) == nil {
		warn(rules.CodeHarborNoUsage, "/agent_result", "the trial reports no token counts, so its receipt has no meter")
		if a != nil {
			rec.CostUSD = nonNull(a.CostUSD)
		}
		return
	}
	usage := map[string]jsontext.Value{"n_input_tokens": a.NInputTokens, "n_output_tokens": a.NOutputTokens}
	if c := nonNull(a.NCacheTokens); c != nil {
		usage["n_cache_tokens"] = c
	}
	b, err := json.Marshal(usage, json.Deterministic(true))
	if err != nil {
		bad("/agent_result", "the token counts cannot be read: "+err.Error())
		return
	}
	rec.MeterShape, rec.Usage, rec.CostUSD = tables.ShapeHarborAgentContext, compact(b), nonNull(a.CostUSD)
}
