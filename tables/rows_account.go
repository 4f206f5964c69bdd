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
	SessionID     string     `parquet:"session_id"`                             // the session, as receipts.jsonl and the schedule name it
	Shape         UsageShape `parquet:"shape,dict"`                             // the provider usage shape the meter was decoded from
	RateCard      string     `parquet:"rate_card,dict"`                         // the manifest rate card that prices the session
	UncachedInput int64      `parquet:"uncached_input"`                         // input tokens neither read from nor written to a cache
	CachedInput   int64      `parquet:"cached_input"`                           // input tokens read from a cache
	CacheWrite5m  int64      `parquet:"cache_write_5m"`                         // input tokens written to a 5-minute cache
	CacheWrite1h  int64      `parquet:"cache_write_1h"`                         // input tokens written to a 1-hour cache
	Output        int64      `parquet:"output"`                                 // billed output, reasoning included
	Reasoning     int64      `parquet:"reasoning"`                              // informational subset of Output
	ToolInput     int64      `parquet:"tool_input"`                             // input tokens summed over the receipt's tool calls
	ToolOutput    int64      `parquet:"tool_output"`                            // output tokens summed over the receipt's tool calls
	ReferenceCost *Money     `parquet:"reference_cost,optional,decimal(12:18)"` // null unless cost_status is priced
	ToolCharges   *Money     `parquet:"tool_charges,optional,decimal(12:18)"`   // null when any tool charge is unattributable; 0 with no calls
	BillingBasis  string     `parquet:"billing_basis,dict"`                     // the receipt's billing basis: reference, actual or unavailable
	ActualCharge  *Money     `parquet:"actual_charge,optional,decimal(12:18)"`  // null = unavailable (or reference basis), never zero
	Currency      string     `parquet:"currency,dict"`                          // the rate card's currency, e.g. USD
	CostStatus    string     `parquet:"cost_status,dict"`                       // priced, missing_tariff, missing_meter, invalid_meter, unknown_rate_card, unsupported_modifier

	RequestID      string `parquet:"request_id"`           // the dispatch request the receipt answers
	Line           int64  `parquet:"line"`                 // the receipt's line in receipts.jsonl
	InputTotal     int64  `parquet:"input_total"`          // uncached + cached + cache writes: the session's cumulative input (A6)
	DurationNS     *int64 `parquet:"duration_ns,optional"` // monotonic end - start when both given, else UTC; null without an end
	ValidationNS   int64  `parquet:"validation_ns"`        // the receipt's validation_ms in nanoseconds
	WithinCeilings bool   `parquet:"within_ceilings"`      // metered, priced, and wall time, input, output and cost within the per-session ceilings and the reservation (A6/A8)

	// Stop conditions of the session (A6/A7), written by the account stage
	// and read by the gates: the cost gates pass only when every dispatched
	// session has a reservation covering its use and a complete meter.
	ReservationPresent    bool `parquet:"reservation_present"`     // a reservation was made before dispatch
	ReservationCoversUse  bool `parquet:"reservation_covers_use"`  // present, and metered input, output and reference cost all within its worst-case bound (false when use is unknown)
	MeterComplete         bool `parquet:"meter_complete"`          // a meter decoded into trustworthy buckets with no unpriceable modifier
	TimesConsistent       bool `parquet:"times_consistent"`        // the session does not end before it starts (monotonic and UTC) and its validation time is in range
	WithinSessionCeilings bool `parquet:"within_session_ceilings"` // wall time, cumulative input and billed output within the per-session ceilings (inclusive); false when the wall time is unknown
}

// Ceiling is one row per campaign ceiling (A6): its limit, what the
// campaign used (accounted plus held, as the ledger shows) and whether it
// held. Ceilings are inclusive: a use equal to the limit holds, one unit
// over does not. Written by the account stage; an exceeded ceiling gives
// the campaign no verdict, naming the ceiling.
type Ceiling struct {
	Ceiling   string `parquet:"ceiling,dict"`                       // planned_sessions, total_sessions, wall_time, input_tokens, output_tokens, reference_cost, actual_cost
	Pointer   string `parquet:"pointer"`                            // the ceiling's JSON pointer in manifest.json
	Unit      string `parquet:"unit,dict"`                          // sessions, ns, tokens or money (in the rate cards' currency)
	Limit     *int64 `parquet:"limit,optional"`                     // the ceiling's limit in its unit; null for money (see limit_cost) or when unset
	Use       *int64 `parquet:"use,optional"`                       // null when unknown (or for money, see use_cost)
	LimitCost *Money `parquet:"limit_cost,optional,decimal(12:18)"` // money ceilings only
	UseCost   *Money `parquet:"use_cost,optional,decimal(12:18)"`   // money ceilings only; null when a charge is unknown
	Held      *bool  `parquet:"held,optional"`                      // null when the use or the limit is unknown: it cannot be shown within its ceiling
	Code      string `parquet:"code,dict"`                          // the finding code when the ceiling did not hold, "" otherwise
}

// LedgerEntry is one row per ledger event: a charge accounted, held or
// reserved against the campaign allowance. Run writes one per receipt in
// receipt order; account.Admit appends reserved entries.
type LedgerEntry struct {
	Seq           int64  `parquet:"seq"`                                    // 1-based order of the event in the ledger
	SessionID     string `parquet:"session_id"`                             // the session, as receipts.jsonl and the schedule name it
	RequestID     string `parquet:"request_id"`                             // the dispatch request the receipt answers
	Kind          string `parquet:"kind,dict"`                              // accounted, held, reserved, released, replayed
	InputTokens   int64  `parquet:"input_tokens"`                           // cumulative input tokens charged
	OutputTokens  int64  `parquet:"output_tokens"`                          // billed output tokens, reasoning included
	ReferenceCost *Money `parquet:"reference_cost,optional,decimal(12:18)"` // null when the charge is unknown
	ActualCost    *Money `parquet:"actual_cost,optional,decimal(12:18)"`    // attributable actual charge; null when unavailable or uncertain

	Line        int64  `parquet:"line"`                                 // receipts.jsonl line; 0 for admission entries
	ToolCharges *Money `parquet:"tool_charges,optional,decimal(12:18)"` // attributable tool charges; null when any is unattributable
	Role        string `parquet:"role,dict"`                            // the receipt's role (review, adjudication, second_opinion, probe, ...); "" for admission entries
}
