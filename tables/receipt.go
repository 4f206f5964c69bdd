package tables

import (
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// Session roles.
const (
	RoleDraft         = "draft"
	RoleReview        = "review"
	RoleInvestigation = "investigation"
	RolePreparation   = "preparation"
	RoleAdjudication  = "adjudication"

	// Auxiliary calls of a reviewer benchmark (rules A7, G6): every billed
	// call counts. They are no scheduled review attempt, and each is
	// metered, priced or held in the campaign's one ledger under its cap.
	RoleSecondOpinion   = "second_opinion"   // a model's second opinion on a finding (the feedback command)
	RolePlanning        = "planning"         // a model call that plans or calibrates the campaign: a smoke measurement, a comparison outside the schedule, an optimizer's proposal
	RoleProbe           = "probe"            // a remote probe or control trial (Harbor), priced from its trial record or held until reconciled
	RoleRemoteExecution = "remote_execution" // other remote execution (a sandbox check, a build), priced from its trial record or held until reconciled
)

// AuxiliaryRoles are the roles of a reviewer benchmark's receipts that are
// no review attempt, in documentation order.
var AuxiliaryRoles = []string{RoleAdjudication, RoleSecondOpinion, RolePlanning, RoleProbe, RoleRemoteExecution}

// RemoteRole reports whether role is remote execution, which has no token
// meter: its charge is the trial record's reconciled charge or a hold.
func RemoteRole(role string) bool { return role == RoleProbe || role == RoleRemoteExecution }

// Terminal statuses of a session attempt.
const (
	StatusResponse      = "response"
	StatusError         = "error"
	StatusInterruption  = "interruption"
	StatusNotDispatched = "not_dispatched"
	// StatusMissing is the sessions-table status of a planned session
	// that has no receipt; receipts never carry it.
	StatusMissing = "missing"
)

// Error classes. The model's own failures are scored failures; the
// infrastructure classes make an execution invalid. A model failure is never
// relabelled infrastructure.
const (
	ErrorModelTimeout    = "model_timeout"
	ErrorBudgetExhausted = "budget_exhausted"
	ErrorRefused         = "refused"
	ErrorMalformed       = "malformed"
	ErrorEmpty           = "empty"

	ErrorRecorderLoss          = "recorder_loss"
	ErrorWrongInputs           = "wrong_inputs"
	ErrorUndeclaredPermissions = "undeclared_permissions"
	ErrorCrossArmLeakage       = "cross_arm_leakage"
	ErrorPlatformOutage        = "platform_outage"
	ErrorUpstreamDraftFailed   = "upstream_draft_failed" // not_dispatched reviews after a failed draft
)

// Receipt is one line of receipts.jsonl: one session attempt (rule I5).
type Receipt struct {
	Format           string          `json:"format" intern:"true"` // FormatReceipt
	SessionID        string          `json:"session_id"`
	RequestID        string          `json:"request_id"`
	Attempt          int64           `json:"attempt"` // 1-based; >1 only for an infrastructure replacement
	TaskID           string          `json:"task_id" intern:"true"`
	Repetition       int64           `json:"repetition"`
	Role             string          `json:"role" intern:"true"`
	Arm              *string         `json:"arm" intern:"true"` // null for the shared draft
	StartedAt        time.Time       `json:"started_at"`
	EndedAt          *time.Time      `json:"ended_at"` // null only when no terminal receipt exists
	MonotonicStartNS *int64          `json:"monotonic_start_ns"`
	MonotonicEndNS   *int64          `json:"monotonic_end_ns"`
	Status           string          `json:"status" intern:"true"`
	ErrorClass       *string         `json:"error_class" intern:"true"`
	Identity         ReceiptIdentity `json:"identity"`
	Inputs           DeliveredInputs `json:"inputs"`
	Output           *OutputRef      `json:"output"`
	Meter            *Meter          `json:"meter"`
	ToolCalls        []ToolCall      `json:"tool_calls"`
	Reservation      *Reservation    `json:"reservation"`
	Billing          Billing         `json:"billing"`
	ValidationMS     int64           `json:"validation_ms"` // deterministic validation and assembly time charged to this session
	// Observations points at the raw-observation packet (a Packet with
	// raw_observations true) an investigation session of a system
	// comparison returned; its review receives exactly that packet.
	// Optional; absent for every other role.
	Observations *OutputRef `json:"observations,omitzero"`
	// RecordedInput points at the exact input bytes a reviewer-benchmark
	// review session received (rendered prompt and task files), so that
	// no benchmark label can be shown to have reached it. Required for
	// that kind; absent for every other.
	RecordedInput *OutputRef `json:"recorded_input,omitzero"`
	// Settings are the generation settings a reviewer-benchmark review
	// session ran with, as its record states them; they must be its
	// profile's frozen ones (manifest benchmark.profiles). Required for
	// that kind's reviews; absent for every other receipt.
	Settings *GenerationSettings `json:"settings,omitzero"`
}

// ReceiptIdentity is what the provider and host reported for this session.
type ReceiptIdentity struct {
	ReturnedModel    string `json:"returned_model" intern:"true"`
	CLISHA256        string `json:"cli_sha256" intern:"true"`
	PermissionPolicy string `json:"permission_policy" intern:"true"`
	// Host is the recorded identity of the host the session ran on; a
	// paired review runs every session serially on the one host its
	// manifest records (identities.host). Optional in the format.
	Host string `json:"host,omitzero" intern:"true"`
	// ReasoningEffort is the reasoning effort the provider or runner
	// reports the session ran with; optional. A reviewer-benchmark review
	// that records it must have its profile's frozen reasoning effort.
	ReasoningEffort *string `json:"reasoning_effort,omitzero"`
}

// DeliveredInputs are the hashes of what the session actually received.
type DeliveredInputs struct {
	TaskSHA256           string   `json:"task_sha256" intern:"true"`
	PacketSHA256         string   `json:"packet_sha256" intern:"true"`
	PromptIDs            []string `json:"prompt_ids" intern:"true"`
	PromptSHA256s        []string `json:"prompt_sha256s" intern:"true"`
	ResponseSchemaSHA256 string   `json:"response_schema_sha256" intern:"true"`
	DraftSessionID       *string  `json:"draft_session_id" intern:"true"` // reviews: the draft they revised
	RenderedSHA256       string   `json:"rendered_sha256"`
	RenderedBytes        int64    `json:"rendered_bytes"`
	// DataBlocks are the digests of the data blocks (TASK,
	// EVIDENCE_PACKET, COMMON_DRAFT) as the runner serialized them into
	// the rendering, in render order. Optional; when present each must
	// equal the rendering's and both arms of a pair must agree.
	DataBlocks []BlockDigest `json:"data_blocks,omitzero" intern:"true"`
}

// BlockDigest is one data block of a rendered input: its label and the
// sha256 and byte count of its unframed bytes.
type BlockDigest struct {
	Label  string `json:"label" intern:"true"`
	SHA256 string `json:"sha256" intern:"true"`
	Bytes  int64  `json:"bytes"`
}

// OutputRef points at the raw answer bytes the session returned.
type OutputRef struct {
	Path   string `json:"path"` // relative to the campaign directory
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// Meter is the provider's usage object, kept in its native shape. Usage is
// decoded strictly per Shape by stages/account.
type Meter struct {
	Shape    UsageShape     `json:"shape" intern:"true"`
	RateCard string         `json:"rate_card" intern:"true"` // RateCard.ID
	Usage    jsontext.Value `json:"usage"`
}

// ToolCall is one ordinary or MCP call made during the session.
type ToolCall struct {
	Kind         string  `json:"kind" intern:"true"` // ordinary, mcp
	Name         string  `json:"name" intern:"true"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	Charge       *string `json:"charge"` // decimal in the campaign currency; null = unattributable
}

// Reservation is the worst-case bound reserved before dispatch (A7).
type Reservation struct {
	ID           string `json:"id"`
	InputTokens  int64  `json:"input_tokens"`
	OutputTokens int64  `json:"output_tokens"`
	Cost         string `json:"cost" intern:"true"`
}

// Billing bases.
const (
	BillingReference   = "reference"
	BillingActual      = "actual"
	BillingUnavailable = "unavailable"
)

// Billing is how the session's charge is attributed (A3).
type Billing struct {
	Basis        string  `json:"basis" intern:"true"` // reference, actual, unavailable
	ActualCharge *string `json:"actual_charge"`       // required when basis is actual
}
