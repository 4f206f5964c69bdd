package rules

// Codes of the system-comparison campaign kind (rule G5 and
// "Conditional system comparison: frozen investigation and packet
// procedure"), emitted by stages/load, stages/validate and
// stages/aggregate.
const (
	CodeComparatorRoles          Code = "comparator_roles_invalid"
	CodeComparatorRoleUnexpected Code = "comparator_role_unexpected"
	CodeOrderUnbalanced          Code = "order_unbalanced"
	CodeObservationsUnexpected   Code = "observations_unexpected"
	CodeObservationsMismatch     Code = "observations_mismatch"
	CodeObservationsNotRaw       Code = "observations_not_raw"
	CodeObservationOrder         Code = "observation_order"
	CodeObservationsMissing      Code = "observations_missing"
	CodeInvestigationEmpty       Code = "investigation_empty"
	CodeSetupMissing             Code = "setup_missing"
	CodeSetupDuplicate           Code = "setup_duplicate"
	CodeSetupNotFirst            Code = "setup_not_first"
	CodeGatePresetKind           Code = "gate_preset_kind_mismatch"

	CodeObservationsUnaccounted     Code = "observations_unaccounted"
	CodeObservationSourceUnseen     Code = "observation_source_unseen"
	CodeObservationStatus           Code = "observation_status_inconsistent"
	CodeSetupOverheadMisplaced      Code = "setup_overhead_misplaced"
	CodeObservationTokens           Code = "observation_tokens_implausible"
	CodeEvidenceBudgetExceeded      Code = "evidence_budget_exceeded"
	CodeWorkflowTimeExceeded        Code = "workflow_time_exceeded"
	CodeInvestigationTimeExceeded   Code = "investigation_time_exceeded"
	CodeReviewTimeExceeded          Code = "review_time_exceeded"
	CodeWorkflowOperationsExceeded  Code = "workflow_operations_exceeded"
	CodeReviewToolCall              Code = "review_tool_call"
	CodeSystemSessionCeiling        Code = "system_session_ceiling"
	CodeDevelopmentRound2Incomplete Code = "development_round2_incomplete"
)

var syscompCodes = []CodeDoc{
	{CodeComparatorRoles, "load", "I1/G5", "A system-comparison design does not name exactly one baseline (the first arm) and one candidate, at most one comparator, and a role for every arm."},
	{CodeComparatorRoleUnexpected, "load", "I1", "An arm names a comparator_role although the campaign kind is not system-comparison."},
	{CodeOrderUnbalanced, "load", "G5", "The system orders of a system-comparison schedule are not balanced: permutation counts differ by more than one."},
	{CodeObservationsUnexpected, "load", "I5/G5", "A receipt carries observations although it is not an investigation session of a system comparison."},
	{CodeObservationsMismatch, "load", "I5/G5", "A raw-observation packet does not have the receipt's sha256 and byte count, or names another task or repository."},
	{CodeObservationsNotRaw, "load", "I2/G5", "A packet is used in the wrong place: a raw-observation packet as a task packet, or an investigation's packet without raw_observations true."},
	{CodeObservationOrder, "load", "G5", "Raw observations are not numbered E1..EN in completion order."},
	{CodeObservationsMissing, "validate", "V2/G5", "An investigation session that returned a response recorded no raw-observation packet, so its review's evidence is unknown; the execution is invalid."},
	{CodeInvestigationEmpty, "validate", "V7/G5", "An investigation returned an empty or non-UTF-8 draft: a valid investigation-stage system failure of the model, not infrastructure."},
	{CodeSetupMissing, "validate", "V2/G5", "A (system, repository) of a system comparison has no preparation (cold setup) receipt."},
	{CodeSetupDuplicate, "validate", "V2/G5", "A (system, repository) of a system comparison has more than one preparation receipt."},
	{CodeSetupNotFirst, "validate", "G5", "A preparation receipt is not charged to its system's first workflow in that repository (schedule order)."},
	{CodeObservationsUnaccounted, "load", "G5", "The raw observations and declared setup records are not the investigation's recorded tool calls one to one in completion order: an observation was filtered, deduplicated, reordered or invented."},
	{CodeObservationSourceUnseen, "load", "G5", "An observation declares source coordinates whose exact bytes do not appear in its response, so the evidence was not visible to the investigator."},
	{CodeObservationStatus, "load", "G5", "An observation's declared status contradicts its record: an empty observation with response bytes, or source coordinates on an error, empty or unsupported result."},
	{CodeSetupOverheadMisplaced, "load", "G5", "The declared setup overhead (initial_instructions) is numbered as evidence, or another tool result is recorded as setup overhead."},
	{CodeObservationTokens, "load", "G5", "The raw-observation log's token count is not under the manifest's frozen tokenizer, or is more tokens than bytes under a byte-level BPE tokenizer."},
	{CodeEvidenceBudgetExceeded, "validate", "G5", "The returned packet exceeds 60,000 tokens under the frozen tokenizer: a valid evidence_budget_exceeded system failure (R_sys = U = 0); its review must not be dispatched."},
	{CodeWorkflowTimeExceeded, "score", "G5", "A system workflow (investigation, review, validation and attributed cold setup) took more than 12 minutes; the workflow-limits gate fails for the candidate."},
	{CodeInvestigationTimeExceeded, "score", "G5", "An investigation session took more than 8 minutes; the workflow-limits gate fails for the candidate."},
	{CodeReviewTimeExceeded, "score", "G5", "A review session took more than 4 minutes; the workflow-limits gate fails for the candidate."},
	{CodeWorkflowOperationsExceeded, "score", "G5", "A system workflow used more than 60 ordinary and MCP operations; the workflow-limits gate fails for the candidate."},
	{CodeReviewToolCall, "validate", "D5/G5", "A system comparison's review recorded an ordinary or MCP tool call although the review has no tools or further acquisition: the execution is invalid (undeclared permissions)."},
	{CodeSystemSessionCeiling, "account", "A6/G5", "A system comparison's ceilings.campaign.total_sessions is above 90 model sessions; the 90-session cap (retries and preparation included) applies instead."},
	{CodeDevelopmentRound2Incomplete, "aggregate", "G2", "The development round-2 preset needs four development tasks with exactly two rounds (repetitions) each; the campaign is refused for that preset, never judged on another repetition."},
	{CodeGatePresetKind, "aggregate", "G2/G5", "The gate preset does not fit the campaign kind (system-comparison-v1 judges only system comparisons, the paired presets only paired reviews)."},
}
