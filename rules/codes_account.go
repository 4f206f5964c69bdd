package rules

// Codes emitted by stages/account (rules A1–A7). Severity conventions:
//
//   - Reject: the recorded inputs cannot be accounted truthfully — an
//     impossible or undecodable meter, an unknown rate card or meter shape,
//     a malformed price, charge or ceiling, a dispatched session without a
//     reservation, an inconsistent billing basis, arithmetic overflow.
//   - Warn: the campaign is well formed but its cost cannot pass — a missing
//     meter or tariff, an unsupported price modifier, an exceeded ceiling or
//     reservation, an unknowable campaign total. [CostGateBlocking] lists
//     these for stages/aggregate.
//
// The admission_* codes are Verdict reasons of account.Admit; they never
// appear in the rejections table.
const (
	// A1 meters.
	CodeMeterUnknownShape        Code = "meter_unknown_shape"
	CodeMeterMalformed           Code = "meter_malformed"
	CodeMeterUnknownField        Code = "meter_unknown_field"
	CodeMeterMissingField        Code = "meter_missing_field"
	CodeMeterNegative            Code = "meter_negative"
	CodeMeterOutOfRange          Code = "meter_out_of_range"
	CodeMeterCachedExceedsInput  Code = "meter_cached_exceeds_input"
	CodeMeterReasoningExceedsOut Code = "meter_reasoning_exceeds_output"
	CodeMeterTotalMismatch       Code = "meter_total_mismatch"
	CodeMeterCacheBreakdown      Code = "meter_cache_breakdown_mismatch"
	CodeMeterRunningTotalBelow   Code = "meter_running_total_below_turn"
	CodeMeterHiddenTokens        Code = "meter_hidden_tokens"
	CodeMeterUnsupportedModifier Code = "meter_unsupported_modifier"
	CodeMeterMissing             Code = "meter_missing"
	CodeToolTokensInvalid        Code = "tool_tokens_invalid"

	// A2/A3 prices, charges and billing.
	CodeRateCardUnknown        Code = "rate_card_unknown"
	CodeTariffMissing          Code = "tariff_missing"
	CodeCurrencyMixed          Code = "currency_mixed"
	CodeToolChargeInvalid      Code = "tool_charge_invalid"
	CodeActualChargeInvalid    Code = "actual_charge_invalid"
	CodeActualChargeMissing    Code = "actual_charge_missing"
	CodeActualChargeUnexpected Code = "actual_charge_unexpected"
	CodeBillingBasisUnknown    Code = "billing_basis_unknown"
	CodeMoneyOverflow          Code = "money_overflow"

	// A6 ceilings.
	CodeCeilingInvalid             Code = "ceiling_invalid"
	CodeCeilingSessionWall         Code = "ceiling_session_wall"
	CodeCeilingSessionInput        Code = "ceiling_session_input"
	CodeCeilingSessionOutput       Code = "ceiling_session_output"
	CodeCeilingPlannedSessions     Code = "ceiling_planned_sessions"
	CodeCeilingTotalSessions       Code = "ceiling_total_sessions"
	CodeCeilingCampaignWall        Code = "ceiling_campaign_wall"
	CodeCeilingCampaignInput       Code = "ceiling_campaign_input"
	CodeCeilingCampaignOutput      Code = "ceiling_campaign_output"
	CodeCeilingReferenceCost       Code = "ceiling_reference_cost"
	CodeCeilingActualCost          Code = "ceiling_actual_cost"
	CodeCampaignCostUnknown        Code = "campaign_cost_unknown"
	CodeSessionTimeInvalid         Code = "session_time_invalid"
	CodeLedgerRequestReplayed      Code = "ledger_request_replayed"
	CodeReservationMissing         Code = "reservation_missing"
	CodeReservationInvalid         Code = "reservation_invalid"
	CodeReservationExceeded        Code = "reservation_exceeded"
	CodeReservationReused          Code = "reservation_reused"
	CodeAdmissionInvalidRequest    Code = "admission_invalid_request"
	CodeAdmissionNoReservation     Code = "admission_missing_reservation"
	CodeAdmissionMissingMeter      Code = "admission_missing_meter"
	CodeAdmissionUnknownCard       Code = "admission_unknown_rate_card"
	CodeAdmissionMissingTariff     Code = "admission_missing_tariff"
	CodeAdmissionInvalidCeiling    Code = "admission_invalid_ceiling"
	CodeAdmissionRequestReused     Code = "admission_request_reused"
	CodeAdmissionReservationReused Code = "admission_reservation_reused"
	CodeRequestIDReused            Code = "request_id_reused"
)

var accountCodes = []CodeDoc{
	{CodeMeterUnknownShape, "account", "A1", "A receipt's meter.shape is not one of the documented usage shapes."},
	{CodeMeterMalformed, "account", "A1", "A meter's usage is not an object of its shape: wrong JSON type, a non-integer or out-of-range count, or a duplicate key."},
	{CodeMeterUnknownField, "account", "A1", "A meter's usage has a member its shape does not define."},
	{CodeMeterMissingField, "account", "A1", "A meter's usage lacks (or nulls) a count its shape requires."},
	{CodeMeterNegative, "account", "A1", "A token count in a meter is negative."},
	{CodeMeterOutOfRange, "account", "A1", "A token count in a meter exceeds 10^15, beyond any real session."},
	{CodeMeterCachedExceedsInput, "account", "A1", "Cached (or cache-write) tokens exceed the inclusive input total they are a subset of."},
	{CodeMeterReasoningExceedsOut, "account", "A1", "Reasoning tokens exceed the output total they are a subset of."},
	{CodeMeterTotalMismatch, "account", "A1", "A meter's total differs from the sum of its parts as the shape defines it."},
	{CodeMeterCacheBreakdown, "account", "A1", "Anthropic cache_creation by TTL is missing or does not sum to cache_creation_input_tokens."},
	{CodeMeterRunningTotalBelow, "account", "A1", "A Codex running total (total_token_usage) is below its own last turn (last_token_usage)."},
	{CodeMeterHiddenTokens, "account", "A1", "An inclusive Inspect meter's total exceeds input + output and no convention for the hidden tokens is declared, so no bucket can be charged for them; `evalgate import inspect --hidden-tokens output` declares them hidden reasoning billed at the output rate."},
	{CodeMeterUnsupportedModifier, "account", "A2", "A meter reports a price modifier the reference rate card cannot price (batch/priority tier, geo uplift, audio, server tools); the cost gate cannot pass."},
	{CodeMeterMissing, "account", "A1/A7", "A dispatched session has no meter; its charge is held at its reservation and the cost gate cannot pass."},
	{CodeToolTokensInvalid, "account", "A1", "A tool call's token count is negative or beyond 10^15."},
	{CodeRateCardUnknown, "account", "A2", "A meter names a rate card the manifest does not define."},
	{CodeTariffMissing, "account", "A2/C18", "A session has tokens in a bucket its rate card does not price; its reference cost is null and the cost gate cannot pass."},
	{CodeCurrencyMixed, "account", "A2", "Rate cards use more than one currency; campaign money ceilings cannot be compared."},
	{CodeToolChargeInvalid, "account", "A3", "A tool call's charge is not a non-negative decimal with at most twelve decimal places."},
	{CodeActualChargeInvalid, "account", "A3", "A receipt's billing.actual_charge is not a non-negative decimal with at most twelve decimal places."},
	{CodeActualChargeMissing, "account", "A3", "A receipt's billing basis is actual but its actual_charge is null."},
	{CodeActualChargeUnexpected, "account", "A3", "A receipt's billing basis is reference or unavailable but it carries an actual_charge."},
	{CodeBillingBasisUnknown, "account", "A3", "A receipt's billing.basis is not reference, actual or unavailable."},
	{CodeMoneyOverflow, "account", "A2", "An exact money or token sum does not fit in 64 bits."},
	{CodeCeilingInvalid, "account", "A6", "A manifest ceiling is negative or its money amount is not an exact decimal."},
	{CodeCeilingSessionWall, "account", "A6", "A session's duration exceeds the per-session wall-time ceiling (inclusive)."},
	{CodeCeilingSessionInput, "account", "A6", "A session's cumulative input (uncached + cached + cache writes) exceeds the per-session ceiling."},
	{CodeCeilingSessionOutput, "account", "A6", "A session's billed output exceeds the per-session ceiling."},
	{CodeCeilingPlannedSessions, "account", "A6", "The design plans more sessions than the planned-sessions ceiling."},
	{CodeCeilingTotalSessions, "account", "A6", "More sessions were dispatched than the total-sessions ceiling."},
	{CodeCeilingCampaignWall, "account", "A6", "First start to last end of the campaign exceeds its wall-time ceiling."},
	{CodeCeilingCampaignInput, "account", "A6", "Accounted plus held input tokens exceed the campaign ceiling."},
	{CodeCeilingCampaignOutput, "account", "A6", "Accounted plus held output tokens exceed the campaign ceiling."},
	{CodeCeilingReferenceCost, "account", "A6", "Accounted plus held reference cost (with tool charges) exceeds the campaign ceiling."},
	{CodeCeilingActualCost, "account", "A6", "Attributable actual charges plus held bounds exceed the campaign ceiling."},
	{CodeCampaignCostUnknown, "account", "A6/A7", "Some ledger charge is unknown (no tariff, meter or reservation), so the campaign cost cannot be shown within its ceiling."},
	{CodeSessionTimeInvalid, "account", "A5", "A session ends before it starts (monotonic or UTC), or a span of the receipts' times (a session's, or the campaign's first start to last end) does not fit in int64 nanoseconds (about 292 years) and is refused rather than saturated."},
	{CodeLedgerRequestReplayed, "account", "A7", "A request ID appears on more than one dispatched receipt; it is charged once."},
	{CodeReservationMissing, "account", "A7/C18", "A dispatched session has no reservation made before dispatch."},
	{CodeReservationInvalid, "account", "A7", "A reservation's bounds are negative or its cost is not an exact decimal."},
	{CodeReservationExceeded, "account", "A7/C18", "A session used more tokens or reference cost than its reservation's worst-case bound."},
	{CodeReservationReused, "account", "A7/C18", "A dispatched receipt names a reservation an earlier receipt of another request already names: every dispatch is admitted under a reservation of its own (a replay of the same request repeats its reservation)."},
	{CodeAdmissionInvalidRequest, "account", "A7", "Admission refused: the request lacks a request or session ID, or has negative bounds."},
	{CodeAdmissionNoReservation, "account", "A7/C18", "Admission refused: the request has no reservation identity."},
	{CodeAdmissionMissingMeter, "account", "A7/C18", "Admission refused: the request names no accepted usage shape, so its session could not be metered."},
	{CodeAdmissionUnknownCard, "account", "A7", "Admission refused: the request names a rate card the manifest does not define."},
	{CodeAdmissionMissingTariff, "account", "A7/C18", "Admission refused: the rate card has no valid uncached-input, cached-input or output price."},
	{CodeAdmissionInvalidCeiling, "account", "A7", "Admission refused: a manifest ceiling is invalid or the ledger's charges are unknown."},
	{CodeAdmissionRequestReused, "account", "A7", "Admission refused: the request ID is already in the ledger for another session or another bound; only the same request is replayed without a second charge."},
	{CodeAdmissionReservationReused, "account", "A7/C18", "Admission refused: a dispatched receipt of another request already names the request's reservation ID; every dispatch is admitted under a reservation of its own."},
	{CodeRequestIDReused, "account", "A7", "A request ID on a dispatched receipt was already used by another session or with another reservation bound."},
}

// CostGateBlocking reports whether a finding with code c means the cost
// gate (A8) cannot pass: every account code of Warn severity, and the
// Reject codes that leave a charge unknown.
func CostGateBlocking(c Code) bool {
	switch c {
	case CodeMeterUnsupportedModifier, CodeMeterMissing, CodeTariffMissing,
		CodeCeilingSessionWall, CodeCeilingSessionInput, CodeCeilingSessionOutput,
		CodeCeilingPlannedSessions, CodeCeilingTotalSessions, CodeCeilingCampaignWall,
		CodeCeilingCampaignInput, CodeCeilingCampaignOutput, CodeCeilingReferenceCost,
		CodeCeilingActualCost, CodeCampaignCostUnknown, CodeReservationExceeded,
		CodeReservationMissing, CodeMeterUnknownShape, CodeMeterMalformed,
		CodeMeterUnknownField, CodeMeterMissingField, CodeMeterNegative,
		CodeMeterOutOfRange, CodeMeterCachedExceedsInput, CodeMeterReasoningExceedsOut,
		CodeMeterTotalMismatch, CodeMeterCacheBreakdown, CodeMeterRunningTotalBelow,
		CodeMeterHiddenTokens, CodeRateCardUnknown, CodeMoneyOverflow:
		return true
	}
	return false
}
