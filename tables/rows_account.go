package tables

// Row types of the tables filled by stages/account. Field comments are the
// data dictionary; see rows.go for the conventions.

// Cost statuses of a Token row, in order of precedence: the first that
// applies is reported.
const (
	CostInvalidMeter        = "invalid_meter"        // the meter is impossible or undecodable
	CostMissingMeter        = "missing_meter"        // a dispatched session reported no meter
	CostUnknownRateCard     = "unknown_rate_card"    // the meter names no manifest rate card
	CostUnsupportedModifier = "unsupported_modifier" // tier, geo, audio or server-tool pricing the card cannot express
	CostMissingTariff       = "missing_tariff"       // a bucket with tokens has a null price
	CostPriced              = "priced"               // reference_cost is exact
)

// Ledger entry kinds.
const (
	LedgerAccounted = "accounted" // a terminal response or error with a valid meter: its exact charge
	LedgerHeld      = "held"      // an interruption or an unmetered/invalid meter: held at the reservation's worst case
	LedgerReserved  = "reserved"  // an admitted request's worst-case bound (account.Admit), not yet accounted
	LedgerReleased  = "released"  // a not_dispatched receipt: nothing was charged
	LedgerReplayed  = "replayed"  // a second receipt for an already charged request ID: charged once, never twice
)

// Token is one row per dispatched session receipt (status other than
// not_dispatched), sorted by session_id: the meter normalised into
// disjoint buckets and its exact reference cost.
type Token struct {
	SessionID     string `parquet:"session_id"`
	Shape         string `parquet:"shape,dict"`
	RateCard      string `parquet:"rate_card,dict"`
	UncachedInput int64  `parquet:"uncached_input"`
	CachedInput   int64  `parquet:"cached_input"`
	CacheWrite5m  int64  `parquet:"cache_write_5m"`
	CacheWrite1h  int64  `parquet:"cache_write_1h"`
	Output        int64  `parquet:"output"`    // billed output, reasoning included
	Reasoning     int64  `parquet:"reasoning"` // informational subset of Output
	ToolInput     int64  `parquet:"tool_input"`
	ToolOutput    int64  `parquet:"tool_output"`
	ReferenceCost *Money `parquet:"reference_cost,optional,decimal(12:18)"` // null unless cost_status is priced
	ToolCharges   *Money `parquet:"tool_charges,optional,decimal(12:18)"`   // null when any tool charge is unattributable; 0 with no calls
	BillingBasis  string `parquet:"billing_basis,dict"`
	ActualCharge  *Money `parquet:"actual_charge,optional,decimal(12:18)"` // null = unavailable (or reference basis), never zero
	Currency      string `parquet:"currency,dict"`
	CostStatus    string `parquet:"cost_status,dict"` // priced, missing_tariff, missing_meter, invalid_meter, unknown_rate_card, unsupported_modifier

	RequestID      string `parquet:"request_id"`
	Line           int64  `parquet:"line"`                 // the receipt's line in receipts.jsonl
	InputTotal     int64  `parquet:"input_total"`          // uncached + cached + cache writes: the session's cumulative input (A6)
	DurationNS     *int64 `parquet:"duration_ns,optional"` // monotonic end - start when both given, else UTC; null without an end
	ValidationNS   int64  `parquet:"validation_ns"`        // the receipt's validation_ms in nanoseconds
	WithinCeilings bool   `parquet:"within_ceilings"`      // metered, priced, and wall time, input, output and cost within the per-session ceilings and the reservation (A6/A8)
}

// LedgerEntry is one row per ledger event: a charge accounted, held or
// reserved against the campaign allowance. Run writes one per receipt in
// receipt order; account.Admit appends reserved entries.
type LedgerEntry struct {
	Seq           int64  `parquet:"seq"`
	SessionID     string `parquet:"session_id"`
	RequestID     string `parquet:"request_id"`
	Kind          string `parquet:"kind,dict"` // accounted, held, reserved, released, replayed
	InputTokens   int64  `parquet:"input_tokens"`
	OutputTokens  int64  `parquet:"output_tokens"`
	ReferenceCost *Money `parquet:"reference_cost,optional,decimal(12:18)"` // null when the charge is unknown
	ActualCost    *Money `parquet:"actual_cost,optional,decimal(12:18)"`    // attributable actual charge; null when unavailable or uncertain

	Line        int64  `parquet:"line"`                                 // receipts.jsonl line; 0 for admission entries
	ToolCharges *Money `parquet:"tool_charges,optional,decimal(12:18)"` // attributable tool charges; null when any is unattributable
}
