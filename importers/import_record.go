package importers

import (
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/tables"
)

// SourceRecord is one record of another tool's output, read by its own
// fields only: the unit `evalgate import` maps to one campaign session.
// What the source does not record stays absent here (a nil time, no
// meter, no output) and is never filled in.
type SourceRecord struct {
	Source string             // tables.SourceInspect, SourceCodex, SourceHarbor
	Match  tables.ImportMatch // the record's identity in the source's own terms
	File   string             // the source file as given on the command line
	// Pointer locates the record in File for findings (an RFC 6901
	// pointer, or "" for a whole file).
	Pointer    string
	Line       int64  // 1-based JSONL line for findings; 0 for JSON documents
	FileSHA256 string // sha256 of the source file's bytes

	RequestID     string     // the source's own ID of the request or session
	StartedAt     *time.Time // UTC; nil when the source records no start
	EndedAt       *time.Time // UTC; nil when the source records no end
	ReturnedModel string     // the model the provider reported

	// Agent is the Harbor agent that ran the trial (agent_info.name); ""
	// for other sources or when the trial names none. NoModel says why
	// that agent ran no model ("" when it may have run one): Harbor's
	// oracle agent runs the task's own solution and its nop agent does
	// nothing, so their trials are no model's session.
	Agent, NoModel string
	// TaskChecksum is the checksum of the task the trial ran (Harbor's
	// task_checksum); "" for other sources or when the trial names none.
	TaskChecksum string

	// Error is the source's own name of the error the record ended with
	// (mapped to an evalgate class by the mapping's error_classes); ""
	// when it ended without one.
	Error string
	// NoOutcome marks a record that ended without an error and without an
	// outcome (a Harbor trial with no verifier reward): it is imported as
	// an infrastructure error, never as a pass.
	NoOutcome bool

	// MeterShape is the receipt meter shape of Usage; "" when the record
	// has no usage or its semantics are unknown (then no meter).
	MeterShape tables.UsageShape
	Usage      jsontext.Value // the usage object, compact, in its native shape; nil none

	// Output is the final output the source holds (an answer's raw
	// bytes); nil when it holds none.
	Output []byte
	// Input is the input the source records the session received, as it
	// records it (an Inspect sample's input, a Codex rollout's received
	// items, the file a Harbor mapping's input_file names); nil when it
	// records none. A
	// reviewer benchmark's review keeps it as the receipt's recorded
	// input, which validate checks for benchmark labels.
	Input []byte

	// Trial is, for Harbor, the trial record as read (result.json) and
	// TrialName its trial_name ("" when it names none): a reviewer
	// benchmark's probe keeps the record in the campaign.
	Trial     []byte
	TrialName string

	// CostUSD is the agent-reported cost as written (Harbor cost_usd, a
	// JSON number), nil when absent or null.
	CostUSD jsontext.Value

	// Settings are the generation settings the source records the
	// session ran with (an Inspect log's generate config); nil when it
	// records none. A reviewer benchmark's review keeps them as the
	// receipt's settings, which validate checks against its profile's.
	Settings *tables.GenerationSettings
}

// sourceTime parses an RFC 3339 timestamp with offset and returns the
// same instant in UTC; nil for nil or an unparseable text (readers have
// checked it).
func sourceTime(s *string) *time.Time {
	if s == nil {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return nil
	}
	t = t.UTC()
	return &t
}

// compact returns v without insignificant whitespace, or nil when v is
// not valid JSON.
func compact(v jsontext.Value) jsontext.Value {
	c := v.Clone()
	if c.Compact() != nil {
		return nil
	}
	return c
}
