package tables

// FormatRequest is the format of an admission request, the REQ.json of
// `evalgate admit --request` (rule A7; schema "request").
const FormatRequest = "evalgate.request/v1"

// AdmitRequest is one admission request as decoded from REQ.json: a
// dispatch a live runner asks to admit against the campaign's remaining
// allowance. Every member is required. RequestID and SessionID are
// identifiers; RateCard, MeterShape and ReservationID may be empty, which
// the account stage refuses with its own typed reason (an unknown rate
// card, a missing meter or reservation identity) rather than the loader
// rejecting the file. Token bounds are 0..2^53−1.
type AdmitRequest struct {
	Format          string     `json:"format"`            // FormatRequest
	RequestID       string     `json:"request_id"`        // the provider request ID the dispatch will carry
	SessionID       string     `json:"session_id"`        // the session the request belongs to
	RateCard        string     `json:"rate_card"`         // manifest rate_cards[].id pricing the session; may be ""
	MeterShape      UsageShape `json:"meter_shape"`       // usage shape the session will report (Shape*); may be ""
	ReservationID   string     `json:"reservation_id"`    // reservation the dispatch is charged against; may be ""
	MaxInputTokens  int64      `json:"max_input_tokens"`  // worst-case cumulative input: uncached + cached + cache writes
	MaxOutputTokens int64      `json:"max_output_tokens"` // worst-case billed output, reasoning included
}
