package tables

// FormatImportMap is the format of the --map FILE of `evalgate import`
// (schema "import-map", docs/import.md).
const FormatImportMap = "evalgate.import-map/v1"

// FormatImportRecord is the format of one line of a campaign's
// imports.jsonl, the ledger `evalgate import` keeps so that importing the
// same record twice adds nothing and a conflicting import is refused.
const FormatImportRecord = "evalgate.import/v1"

// Import sources: the tools whose records `evalgate import` reads.
const (
	SourceInspect = "inspect" // Inspect AI .json / .eval logs
	SourceCodex   = "codex"   // Codex CLI rollout JSONL
	SourceHarbor  = "harbor"  // Harbor trial result.json
)

// ImportMap says, explicitly, which campaign session each source record
// is. Nothing is guessed from file or record names: a record an imported
// file holds and no entry names refuses the import.
type ImportMap struct {
	Format     string         `json:"format"` // FormatImportMap
	Source     string         `json:"source"` // SourceInspect, SourceCodex, SourceHarbor
	RateCard   string         `json:"rate_card"`
	Billing    string         `json:"billing"` // BillingReference or BillingActual (harbor only)
	Identity   ImportIdentity `json:"identity"`
	OutputFile string         `json:"output_file"` // harbor: trial-relative answer file; "" none
	// InputFile is, for Harbor, the trial-relative file holding the exact
	// input the agent received (a reviewer benchmark's recorded input: a
	// trial's result.json records none). Optional; "" none.
	InputFile    string             `json:"input_file,omitzero"`
	ErrorClasses []ImportErrorClass `json:"error_classes"`
	Sessions     []ImportSession    `json:"sessions"`
}

// ImportIdentity holds host facts no source records; the mapping's author
// attests them ("" when unknown, which validate then reports).
type ImportIdentity struct {
	CLISHA256        string `json:"cli_sha256"`
	PermissionPolicy string `json:"permission_policy"`
	// Host is the host every imported session ran on (the receipts'
	// identity.host): no Inspect log, Codex rollout or Harbor trial
	// records one. Optional; absent leaves the receipts without a host,
	// which a paired review refuses (session_host_missing), and the
	// import says so once (import_no_host).
	Host string `json:"host,omitzero"`
}

// ImportErrorClass maps one error name the source records to an evalgate
// error class.
type ImportErrorClass struct {
	SourceError string `json:"source_error"`
	Class       string `json:"class"`
}

// ImportSession is one mapped source record and the session it is.
type ImportSession struct {
	Match          ImportMatch  `json:"match"`
	SessionID      string       `json:"session_id"`
	Attempt        int64        `json:"attempt"`
	TaskID         string       `json:"task_id"`
	Repetition     int64        `json:"repetition"`
	Role           string       `json:"role"`
	Arm            *string      `json:"arm"`
	DraftSessionID *string      `json:"draft_session_id"`
	PromptIDs      []string     `json:"prompt_ids"`
	Reservation    *Reservation `json:"reservation"`
	// RenderedSHA256 and RenderedBytes are the exact input the runner
	// rendered (docs/prompts.md). Optional: no source records them, so
	// absent leaves the receipt without a rendered input, which validate
	// refuses (rendered_input_mismatch).
	RenderedSHA256 string `json:"rendered_sha256,omitzero"`
	RenderedBytes  int64  `json:"rendered_bytes,omitzero"`
	// ReturnedModel is the model the provider returned, from the runner's
	// records, for a record that names none. Optional: "" leaves such a
	// receipt without one, which validate refuses; a record that names a
	// model keeps its own, and a different one here refuses the import.
	ReturnedModel string `json:"returned_model,omitzero"`
}

// ImportMatch names one source record by the source's own identifiers.
type ImportMatch struct {
	Record string `json:"record"` // Inspect eval.run_id, Codex session id, Harbor trial id
	Sample string `json:"sample"` // Inspect sample id as text; "" otherwise
	Epoch  int64  `json:"epoch"`  // Inspect epoch; 0 otherwise
	Model  string `json:"model"`  // the model the record's usage belongs to
}

// ImportRecord is one line of imports.jsonl: which source record became
// which session, and the sha256 of what the import wrote for it.
type ImportRecord struct {
	Format        string      `json:"format"` // FormatImportRecord
	Source        string      `json:"source"`
	Match         ImportMatch `json:"match"`
	File          string      `json:"file"`        // the source file as named on the command line
	FileSHA256    string      `json:"file_sha256"` // sha256 of that file's bytes
	SessionID     string      `json:"session_id"`
	ReceiptSHA256 string      `json:"receipt_sha256"` // sha256 of the receipts.jsonl line, without its newline
	AnswerSHA256  string      `json:"answer_sha256"`  // sha256 of the answer written; "" none
}
