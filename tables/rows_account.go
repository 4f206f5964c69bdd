package tables

// Row types of the tables filled by stages/account. Field comments are the
// data dictionary; see rows.go for the conventions.

// Token is one row per session: the meter normalised into disjoint buckets
// and its exact reference cost.
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
	ReferenceCost *Money `parquet:"reference_cost,optional,decimal(12:18)"` // null when a bucket has no tariff
	ToolCharges   *Money `parquet:"tool_charges,optional,decimal(12:18)"`   // null when any tool charge is unattributable
	BillingBasis  string `parquet:"billing_basis,dict"`
	ActualCharge  *Money `parquet:"actual_charge,optional,decimal(12:18)"` // null = unavailable, never zero
	Currency      string `parquet:"currency,dict"`
	CostStatus    string `parquet:"cost_status,dict"` // priced, missing_tariff, missing_meter
}

// LedgerEntry is one row per ledger event: a charge accounted, held or
// reserved against the campaign allowance.
type LedgerEntry struct {
	Seq           int64  `parquet:"seq"`
	SessionID     string `parquet:"session_id"`
	RequestID     string `parquet:"request_id"`
	Kind          string `parquet:"kind,dict"` // accounted, held, reserved
	InputTokens   int64  `parquet:"input_tokens"`
	OutputTokens  int64  `parquet:"output_tokens"`
	ReferenceCost *Money `parquet:"reference_cost,optional,decimal(12:18)"`
	ActualCost    *Money `parquet:"actual_cost,optional,decimal(12:18)"`
}
