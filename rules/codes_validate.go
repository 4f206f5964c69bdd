package rules

// Codes emitted by stages/validate. Answer-rule codes (V4–V6) are Reject
// when an answer is checked on its own (evalgate check-answer) and Warn
// inside a campaign, where they make the session a scored failure rather
// than the campaign inadmissible. Campaign codes (V1–V3 provenance, V2
// completeness) are Reject.
//
// Enumerated values are checked with load's [CodeEnumValue] when an answer
// reaches AnswerRules without the strict decoder.
const (
	// V4 link closure.
	CodeLinkDangling  Code = "link_dangling"
	CodeLinkWrongType Code = "link_wrong_type"

	// V5 per-status rules.
	CodeEvidenceRequired         Code = "evidence_required"
	CodeCitationRequired         Code = "citation_required"
	CodeUncertaintyLinkRequired  Code = "uncertainty_link_required"
	CodeVerificationLinkRequired Code = "verification_link_required"
	CodeCitationRangeInverted    Code = "citation_range_inverted"

	// V6 reconciliation.
	CodeRoleUnknown                   Code = "role_unknown"
	CodeReconciliationMissing         Code = "reconciliation_missing"
	CodeReconciliationUnexpected      Code = "reconciliation_unexpected"
	CodeObligationAddressedUnlinked   Code = "obligation_addressed_unlinked"
	CodeObligationUnresolvedUnlinked  Code = "obligation_unresolved_unlinked"
	CodeObligationExcludedUnlinked    Code = "obligation_excluded_unlinked"
	CodeDispositionUsedUnsupported    Code = "disposition_used_unsupported"
	CodeDispositionExcludedUnlinked   Code = "disposition_excluded_unlinked"
	CodeExclusionReasonGeneric        Code = "exclusion_reason_generic"
	CodeDispositionUnresolvedUnlinked Code = "disposition_unresolved_unlinked"
	CodeDispositionDuplicate          Code = "disposition_duplicate"

	// V6/C13 and V3 against the packet.
	CodeEvidenceUnknown        Code = "evidence_unknown"
	CodeDispositionMissing     Code = "disposition_missing"
	CodeDispositionInvented    Code = "disposition_invented"
	CodeDispositionSubstituted Code = "disposition_substituted"

	// V3 citations against the packet and the content-addressed sources.
	CodeCitationPathMismatch  Code = "citation_path_mismatch"
	CodeCitationOutsideItem   Code = "citation_outside_item"
	CodeCitationBeyondSource  Code = "citation_beyond_source"
	CodeCitationBytesMismatch Code = "citation_bytes_mismatch"

	// V1 identity and V2 completeness.
	CodeIdentityMismatch        Code = "identity_mismatch"
	CodeOutputMissing           Code = "output_missing"
	CodeOutputMismatch          Code = "output_mismatch"
	CodeReceiptInconsistent     Code = "receipt_inconsistent"
	CodeReceiptDuplicate        Code = "receipt_duplicate"
	CodeSessionUnplanned        Code = "session_unplanned"
	CodeSessionMissing          Code = "session_missing"
	CodeTerminalMissing         Code = "terminal_missing"
	CodeReviewAfterFailedDraft  Code = "review_after_failed_draft"
	CodeNotDispatchedUnexpected Code = "not_dispatched_unexpected"
	CodeReplacementUnjustified  Code = "replacement_unjustified"
	CodeInvalidTripletsExceeded Code = "invalid_triplets_exceeded"
	CodeReplacedAttemptNoted    Code = "replaced_attempt_finding_noted"
	CodeInfrastructureInvalid   Code = "infrastructure_invalid"
)

var validateCodes = []CodeDoc{
	{CodeLinkDangling, "validate", "V4/C12", "A link names no record of the current final answer (for example an ID that exists only in the draft)."},
	{CodeLinkWrongType, "validate", "V4", "A link names an ID of a type the field does not accept (for example a citation supporting a U ID)."},
	{CodeEvidenceRequired, "validate", "V5/V6", "A source_backed or inference claim, a source-based action or verification, or a source-based addressed obligation has no evidence IDs."},
	{CodeCitationRequired, "validate", "V5", "A source_backed claim or source-based action or verification is supported by no citation of one of its own evidence IDs."},
	{CodeUncertaintyLinkRequired, "validate", "V5", "An unknown claim or a missing_source verification has no uncertainty_id."},
	{CodeVerificationLinkRequired, "validate", "V5", "An action has neither a verification link nor a verification_limitation."},
	{CodeCitationRangeInverted, "validate", "V3", "A citation's start_line is greater than its end_line."},
	{CodeRoleUnknown, "validate", "V6", "The role an answer is checked for is not draft, review or reconciliation."},
	{CodeReconciliationMissing, "validate", "V6", "A reconciliation review returned reconciliation null."},
	{CodeReconciliationUnexpected, "validate", "V6", "A draft or ordinary review returned a reconciliation object instead of null."},
	{CodeObligationAddressedUnlinked, "validate", "V6", "An addressed obligation lacks a C/A link plus a V link, or an A link with a verification_limitation."},
	{CodeObligationUnresolvedUnlinked, "validate", "V6", "An unresolved obligation has no U link."},
	{CodeObligationExcludedUnlinked, "validate", "V6", "An excluded obligation has no X link."},
	{CodeDispositionUsedUnsupported, "validate", "V6", "A used disposition has no C/A/V link supported by a citation of that evidence ID."},
	{CodeDispositionExcludedUnlinked, "validate", "V6", "An excluded disposition has no X link whose evidence_ids include that evidence ID."},
	{CodeExclusionReasonGeneric, "validate", "V6", "An excluded disposition's exclusions all give a generic reason (only words like \"not relevant\", \"out of scope\")."},
	{CodeDispositionUnresolvedUnlinked, "validate", "V6", "An unresolved disposition has no U link."},
	{CodeDispositionDuplicate, "validate", "V6/C13", "An evidence ID has more than one disposition."},
	{CodeEvidenceUnknown, "validate", "V3/C13", "An evidence ID used by the answer is not an item of the task's packet."},
	{CodeDispositionMissing, "validate", "V6/C13", "A packet evidence ID has no disposition."},
	{CodeDispositionInvented, "validate", "V6/C13", "A disposition names an evidence ID that is not in the packet."},
	{CodeDispositionSubstituted, "validate", "V6/C13", "A disposition names an invented evidence ID in place of a packet ID that has none (one missing paired with one invented)."},
	{CodeCitationPathMismatch, "validate", "V3", "A citation's path differs from its evidence item's path."},
	{CodeCitationOutsideItem, "validate", "V3", "A citation's line range is not inside its evidence item's range."},
	{CodeCitationBeyondSource, "validate", "V3/C09", "A citation's line range goes past the source file's physical lines (a final newline adds no line)."},
	{CodeCitationBytesMismatch, "validate", "V3", "The cited lines of the evidence item differ from the source file's bytes."},
	{CodeIdentityMismatch, "validate", "V1/C17", "A receipt's returned identity or delivered input hashes differ from the manifest: the execution is invalid."},
	{CodeOutputMissing, "validate", "V2", "A response receipt has no output, or its output file cannot be read within the answer size cap."},
	{CodeOutputMismatch, "validate", "V1", "An output file's sha256 or byte count differs from its receipt."},
	{CodeReceiptInconsistent, "validate", "V2", "A receipt's status, error class and output contradict each other."},
	{CodeReceiptDuplicate, "validate", "V2/C15", "More than one receipt records the same planned session attempt."},
	{CodeSessionUnplanned, "validate", "V2", "A draft or review receipt matches no planned session of the design."},
	{CodeSessionMissing, "validate", "V2", "A planned session has no receipt."},
	{CodeTerminalMissing, "validate", "V2/C15", "A started session has no terminal receipt (ended_at null or no terminal status)."},
	{CodeReviewAfterFailedDraft, "validate", "V2/C23", "A review was dispatched although its repetition's draft failed; it must be a not_dispatched receipt."},
	{CodeNotDispatchedUnexpected, "validate", "V2/C23", "A session is not_dispatched although no failed draft explains it."},
	{CodeReplacementUnjustified, "validate", "V2/A6", "A repetition was replaced although its earlier attempt had no infrastructure-invalid session."},
	{CodeInvalidTripletsExceeded, "validate", "V2/A6", "More infrastructure-invalid triplets than the campaign's replacement allowance: the campaign stops."},
	{CodeReplacedAttemptNoted, "validate", "V2/A6", "A finding that made a replaced attempt's session infrastructure-invalid (identity mismatch, wrong rendered input, no terminal receipt, no output), kept as a note: the attempt was replaced within the allowance, retained and charged, and only its replacement is scored."},
	{CodeInfrastructureInvalid, "validate", "V7/A6", "A session of a repetition's final attempt failed for an infrastructure reason (error class) and was not replaced."},
}
