package tables

import "time"

// FormatVersion values. Every input document carries its own "format"
// member so a file can be recognised and upgraded on its own; a reader
// refuses a major version it does not know.
const (
	FormatManifest     = "evalgate.manifest/v1"
	FormatManifestV2   = "evalgate.manifest/v2" // the schedule in its own file (Design.ScheduleFile)
	FormatSchedule     = "evalgate.schedule/v1" // one line of a v2 manifest's schedule file
	FormatPacket       = "evalgate.packet/v1"
	FormatTruth        = "evalgate.truth/v1"
	FormatReceipt      = "evalgate.receipt/v1"
	FormatAdjudication = "evalgate.adjudication/v1"
)

// Manifest is a campaign's frozen identity (rule I1). Its sha256 is the
// campaign identity written into every output file.
type Manifest struct {
	Format               string       `json:"format"` // FormatManifest
	CampaignID           string       `json:"campaign_id"`
	Kind                 string       `json:"kind"`
	Synthetic            bool         `json:"synthetic"`
	Seed                 uint64       `json:"seed"` // frozen before task selection
	FrozenAt             time.Time    `json:"frozen_at"`
	Identities           Identities   `json:"identities"`
	Prompts              []PromptFile `json:"prompts"`
	ResponseSchemaSHA256 string       `json:"response_schema_sha256"`
	RateCards            []RateCard   `json:"rate_cards"`
	Ceilings             Ceilings     `json:"ceilings"`
	Design               Design       `json:"design"`
	GatePolicy           GatePolicy   `json:"gate_policy"`
	Intervals            IntervalPlan `json:"intervals"`
	// Evaluator optionally pins the evaluator the campaign was frozen with
	// (contract #741 §3: the evaluator itself is frozen); nil is absent.
	Evaluator *EvaluatorPin `json:"evaluator,omitzero"`
	// Benchmark freezes the cases and task files of kind
	// reviewer-benchmark; absent for every other kind.
	Benchmark *BenchmarkPlan `json:"benchmark,omitzero"`
}

// EvaluatorPin is the evaluator a campaign was frozen with: its version
// (evalgate's, as tool_version says) and optionally its source commit.
type EvaluatorPin struct {
	Version string `json:"version"`
	Commit  string `json:"commit,omitzero"`
}

// Identities are the execution identities every receipt is checked against
// (V1). A missing identity is refused with the list of what is missing,
// never filled in.
type Identities struct {
	RequestedModel   string    `json:"requested_model"`
	ReturnedModel    string    `json:"returned_model"`
	CLIVersion       string    `json:"cli_version"`
	CLISHA256        string    `json:"cli_sha256"`
	Runtimes         []Runtime `json:"runtimes"`
	Host             string    `json:"host"`
	OS               string    `json:"os"`
	PermissionPolicy string    `json:"permission_policy"`
	Tokenizer        string    `json:"tokenizer"`
	// ReasoningEffort and ServiceTier pin the model configuration (e.g.
	// "medium", "standard, fast mode disabled"). Optional in the format;
	// a campaign that is not synthetic must give both (identity_missing);
	// nil is absent.
	ReasoningEffort *string `json:"reasoning_effort,omitzero"`
	ServiceTier     *string `json:"service_tier,omitzero"`
}

// Runtime is one pinned runtime (Node, Python, ...).
type Runtime struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// PromptFile is one frozen prompt file, relative to the campaign directory.
type PromptFile struct {
	ID     string `json:"id"` // e.g. common, draft, review-a, review-b
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	// Kind is what the file is to the session receiving it, one of
	// PartKinds (tables/render.go); it decides how the file is rendered and
	// which roles may receive it. Required for paired-review and
	// system-comparison campaigns (stages/validate, prompt_kind_missing).
	Kind string `json:"kind,omitzero"`
}

// RateCard is a dated reference tariff. Prices are exact decimal strings in
// currency units per million tokens; a null price means the bucket is not
// priced, and any token in it makes the cost gate unable to pass.
type RateCard struct {
	ID          string     `json:"id"`
	Model       string     `json:"model"`
	DateChecked string     `json:"date_checked"` // YYYY-MM-DD
	Source      string     `json:"source"`
	Currency    string     `json:"currency"` // ISO 4217, e.g. USD
	Prices      RatePrices `json:"prices"`
}

// RatePrices are per-million-token prices as decimal strings (at most six
// decimal places).
type RatePrices struct {
	UncachedInput string  `json:"uncached_input"`
	CachedInput   *string `json:"cached_input"`
	CacheWrite5m  *string `json:"cache_write_5m"`
	CacheWrite1h  *string `json:"cache_write_1h"`
	Output        string  `json:"output"`
}

// Ceilings are inclusive limits (A6). Money limits are decimal strings in
// the rate cards' currency.
type Ceilings struct {
	Session  SessionCeilings  `json:"session"`
	Campaign CampaignCeilings `json:"campaign"`
}

// SessionCeilings limit one model session.
type SessionCeilings struct {
	WallMS       int64 `json:"wall_ms"`
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// CampaignCeilings limit the whole campaign.
type CampaignCeilings struct {
	PlannedSessions            int64  `json:"planned_sessions"`
	TotalSessions              int64  `json:"total_sessions"`
	WallMS                     int64  `json:"wall_ms"`
	InputTokens                int64  `json:"input_tokens"`
	OutputTokens               int64  `json:"output_tokens"`
	ReferenceCost              string `json:"reference_cost"`
	ActualCost                 string `json:"actual_cost"`
	InfrastructureReplacements int64  `json:"infrastructure_replacements"`
}

// Design is the planned experiment: tasks, arms, repetitions and the order
// of arms in every repetition.
//
// A v1 manifest lists the schedule in the manifest; a v2 manifest names
// the file that lists it (ScheduleFile) and the loader fills Schedule from
// that file, so every later stage reads Schedule whatever the version.
type Design struct {
	Repetitions  int64      `json:"repetitions"`
	DraftPrompts []string   `json:"draft_prompts"` // prompt IDs rendered for the draft session
	Arms         []Arm      `json:"arms"`
	Tasks        []TaskSpec `json:"tasks"`
	// Schedule is omitted only when nil, so a v1 manifest's empty list
	// ([]) is written as it was read.
	Schedule      []Slot        `json:"schedule,omitzero"`
	ScheduleFile  *ScheduleFile `json:"schedule_file,omitzero"` // v2 only
	PacketItemMin int64         `json:"packet_item_min"`        // 6 for a paired review (rule I2)
	PacketItemMax int64         `json:"packet_item_max"`        // 12 for a paired review (rule I2)
	// Development is the two-round development flow (rule G8; see
	// tables/development.go). Optional; paired-review only.
	Development *Development `json:"development,omitzero"`
}

// ScheduleFile names a v2 manifest's schedule: a campaign-relative JSONL
// file of ScheduleLine records and the sha256 of its bytes, so the
// manifest's identity covers the schedule.
type ScheduleFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// ScheduleLine is one line of a schedule file: a Slot with its format.
type ScheduleLine struct {
	Format string `json:"format"` // FormatSchedule
	Slot   `json:",inline"`
}

// Arm is one treatment. The first arm listed is the baseline.
type Arm struct {
	ID             string   `json:"id"` // e.g. A, B
	Label          string   `json:"label"`
	Prompts        []string `json:"prompts"`        // prompt IDs, in render order
	Reconciliation bool     `json:"reconciliation"` // the arm must return a reconciliation record
	// ComparatorRole names the arm's part in a system comparison (rule G5):
	// baseline, candidate or comparator. Optional; only kind
	// system-comparison uses it (see tables/syscomp.go).
	ComparatorRole string `json:"comparator_role,omitzero"`
	// Provider pins the system's evidence provider (rule P1). Optional in
	// the format; required for kind system-comparison, refused for the
	// others (see tables/providers.go).
	Provider *Provider `json:"provider,omitzero"`
}

// Task categories of a paired review (rule I4).
const (
	CategoryBehaviorExplanation = "behavior_explanation"
	CategoryChangeImpact        = "change_impact"
	CategoryCorrectnessBoundary = "correctness_boundary"
	CategoryExplicitUncertainty = "explicit_uncertainty"
)

// TaskSpec is one frozen task and the hashes of its files.
type TaskSpec struct {
	ID           string `json:"id"`
	Repository   string `json:"repository"`
	Family       string `json:"family"`
	Split        string `json:"split"` // development, evaluation (reviewer benchmark: dev, selection, final)
	Category     string `json:"category"`
	TaskPath     string `json:"task_path"`
	TaskSHA256   string `json:"task_sha256"`
	PacketPath   string `json:"packet_path"`
	PacketSHA256 string `json:"packet_sha256"`
	TruthPath    string `json:"truth_path"`
	TruthSHA256  string `json:"truth_sha256"`
}

// Slot is one planned repetition of one task with the order its arms run in.
type Slot struct {
	Task       string   `json:"task"`
	Repetition int64    `json:"repetition"` // 1-based
	Order      []string `json:"order"`      // arm IDs, a permutation of Design.Arms
}

// GatePolicy names a preset (rule F1). Under a preset every threshold is
// the preset's: an override must state the preset's own value. Custom, when
// not empty, declares a custom policy under that ID (never a preset's
// name): the preset's gates judge the preset's runs with the overridden
// thresholds, and the campaign's own ceilings and pins; every output says
// it is not the preset. Thresholds are decimal strings so that they compare
// exactly.
type GatePolicy struct {
	Preset     string      `json:"preset"`
	Custom     string      `json:"custom,omitzero"`
	Thresholds []Threshold `json:"thresholds"`
}

// Threshold overrides one named threshold of the preset.
type Threshold struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// IntervalPlan configures the exploratory bootstrap (rule B1).
type IntervalPlan struct {
	Cluster   string `json:"cluster"` // family (default) or repository
	Resamples int64  `json:"resamples"`
	Seed      uint64 `json:"seed"`
}
