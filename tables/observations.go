package tables

import "github.com/go-json-experiment/json/jsontext"

// FormatObservations is the format of a system-comparison investigation's
// raw-observation log (receipt.observations).
const FormatObservations = "evalgate.observations/v1"

// Observation statuses a recorder declares from the provider protocol (an
// MCP isError flag, an empty result, a truncation notice), never from a
// content-based classifier.
const (
	ObservationOK          = "ok"
	ObservationEmpty       = "empty"
	ObservationError       = "error"
	ObservationTruncated   = "truncated"
	ObservationUnsupported = "unsupported" // an honest "this provider cannot answer that" (C19)
)

// SetupOverheadTool is the one tool result declared in advance as setup
// overhead rather than evidence (rule G5: "frozen investigation and packet
// procedure": Serena's initial_instructions manual). Its response is
// recorded in ObservationLog.Setup and charged with the session, never
// numbered as an observation; no other tool may be an exception.
const SetupOverheadTool = "initial_instructions"

// ObservationLog is the raw-observation record of one system-comparison
// investigation: every tool observation actually delivered to the
// investigator, E1..EN in completion order, with the original request
// arguments, response bytes and metadata, unfiltered, undeduplicated and
// unreordered. The review receives exactly these bytes as its packet.
type ObservationLog struct {
	Format     string `json:"format"` // FormatObservations
	TaskID     string `json:"task_id"`
	Repository string `json:"repository"`
	Commit     string `json:"commit"` // 40 hex digits: the frozen repository snapshot
	// Tokenizer and PacketTokens: the recorder's count of this document's
	// bytes (the returned packet as the review receives it) under the
	// frozen tokenizer, which must be the manifest's identities.tokenizer.
	Tokenizer    string           `json:"tokenizer"`
	PacketTokens int64            `json:"packet_tokens"`
	Setup        []ToolRecord     `json:"setup"`        // declared setup overhead (SetupOverheadTool only)
	Observations []RawObservation `json:"observations"` // E1..EN in completion order
}

// ToolRecord is one tool call as it was delivered: the original request
// arguments and response bytes, the provider's metadata, and the host's
// monotonic completion time.
type ToolRecord struct {
	Kind        string         `json:"kind"` // ordinary, mcp
	Name        string         `json:"name"`
	Arguments   string         `json:"arguments"`
	Response    string         `json:"response"`
	Metadata    jsontext.Value `json:"metadata"` // a JSON object, kept verbatim
	CompletedNS int64          `json:"completed_ns"`
}

// RawObservation is one numbered observation: a tool record, the status
// the protocol declared and the provider-declared source coordinates, or
// null for plain output (never invented).
type RawObservation struct {
	ID          string             `json:"id"` // E<n>
	Kind        string             `json:"kind"`
	Name        string             `json:"name"`
	Arguments   string             `json:"arguments"`
	Response    string             `json:"response"`
	Metadata    jsontext.Value     `json:"metadata"`
	CompletedNS int64              `json:"completed_ns"`
	Status      string             `json:"status"`
	Source      *ObservationSource `json:"source"`
}

// ObservationSource is a provider-declared source range: the exact bytes of
// lines StartLine..EndLine of sources/<FileSHA256> must appear inside the
// observation's response, so that what a citation relies on was visible.
type ObservationSource struct {
	Path       string `json:"path"`
	StartLine  int64  `json:"start_line"`
	EndLine    int64  `json:"end_line"`
	FileSHA256 string `json:"file_sha256"`
}
