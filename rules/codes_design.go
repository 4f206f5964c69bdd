package rules

// Codes of the design and custody of a paired review (rules D3–D9),
// emitted by stages/validate, and by stages/score for a rating frozen
// before its answer existed.
const (
	// D3 serial custody on one recorded host, in schedule order.
	CodeSessionHostMismatch   Code = "session_host_mismatch"
	CodeSessionHostMissing    Code = "session_host_missing"
	CodeSessionOverlap        Code = "session_overlap"
	CodeReviewBeforeDraftEnd  Code = "review_before_draft_end"
	CodeDispatchOutOfSchedule Code = "dispatch_out_of_schedule"

	// D4 freeze times.
	CodeManifestFrozenLate Code = "manifest_frozen_after_dispatch"
	CodeTruthSignedOffLate Code = "truth_signed_off_after_dispatch"
	CodeRatingBeforeAnswer Code = "rating_before_answer"

	// D5 zero tools in fixed-evidence sessions.
	CodeFixedEvidenceToolCall Code = "fixed_evidence_tool_call"

	// D6 prompt custody.
	CodePromptNamedInstruction Code = "prompt_named_instruction_mismatch"

	// D7 allowances.
	CodeReservationAboveCeiling Code = "reservation_above_session_ceiling"
	CodeArmAllowanceUnequal     Code = "arm_output_allowance_unequal"

	// D8 the sample's shape under the paired-review presets.
	CodeDesignArmsMismatch    Code = "design_arms_mismatch"
	CodeEvaluationTasksTooFew Code = "evaluation_tasks_too_few"
	CodeDesignTaskCount       Code = "design_task_count_mismatch"
	CodeDesignRepetitions     Code = "design_repetitions_mismatch"
	CodeDesignRepositories    Code = "design_repositories_mismatch"
	CodeDesignCategories      Code = "design_categories_mismatch"

	// D9 counterbalanced order.
	CodeDesignOrderUnbalanced Code = "design_order_unbalanced"
	CodeDesignOrderOneSided   Code = "design_order_one_sided"
)

var designCodes = []CodeDoc{
	{CodeSessionHostMismatch, "validate", "D3", "A dispatched session ran on another host than the one the manifest records: the execution is invalid."},
	{CodeSessionHostMissing, "validate", "D3", "A dispatched session's receipt records no host, so nothing shows it ran on the manifest's one host: the execution is invalid (a missing execution record)."},
	{CodeSessionOverlap, "validate", "D3", "A session started before the previous session ended: the sessions did not run serially."},
	{CodeReviewBeforeDraftEnd, "validate", "D3", "A review started before its draft's terminal receipt (in a system comparison: its investigation's, whose draft and observations it receives)."},
	{CodeDispatchOutOfSchedule, "validate", "D3", "A session was dispatched out of schedule order (an earlier slot's session after a later one's, or a slot's draft and reviews not in the slot's order)."},
	{CodeManifestFrozenLate, "validate", "D4", "The manifest's frozen_at is after the first session started: the campaign was not frozen before dispatch."},
	{CodeTruthSignedOffLate, "validate", "D4", "A task's truth was signed off after the first session started."},
	{CodeRatingBeforeAnswer, "score", "D4", "A rating was frozen at or before the end of the session whose answer it rates; it cannot count."},
	{CodeFixedEvidenceToolCall, "validate", "D5", "A draft or review of a paired review recorded an ordinary or MCP tool call although fixed-evidence sessions have no tools: the execution is invalid (undeclared permissions)."},
	{CodePromptNamedInstruction, "validate", "D6", "The draft or the ordinary review is given another role instruction than its named one (the contract's Draft D or Ordinary review A text)."},
	{CodeReservationAboveCeiling, "validate", "D7", "A recorded reservation reserves more input or output tokens than the session ceiling allows."},
	{CodeArmAllowanceUnequal, "validate", "D7", "The two reviews of a repetition reserved different output allowances."},
	{CodeDesignArmsMismatch, "validate", "D8", "A paired review judged by a contract preset does not have the contract's two arms, the ordinary review A first and the reconciliation review B second."},
	{CodeEvaluationTasksTooFew, "validate", "D8", "A paired review judged by paired-review-evaluation-v1 has fewer than eight evaluation tasks: the contract stops without an evaluation claim (no verdict), and no smaller sample is judged."},
	{CodeDesignTaskCount, "validate", "D8", "A paired review judged by a contract preset has more than eight evaluation tasks (or some, but fewer than eight, under the round-2 preset), or under the evaluation preset other than four development tasks."},
	{CodeDesignRepetitions, "validate", "D8", "A paired review judged by a contract preset runs its evaluation tasks other than three repetitions, or its development tasks other than two rounds."},
	{CodeDesignRepositories, "validate", "D8", "A paired review judged by a contract preset does not draw its evaluation tasks from four repositories with two tasks each, or its development tasks from two further repositories (none an evaluation repository) with two tasks each."},
	{CodeDesignCategories, "validate", "D8", "A paired review judged by a contract preset does not have two evaluation tasks of each of the four categories (behaviour explanation, change impact, correctness boundary, explicit uncertainty)."},
	{CodeDesignOrderUnbalanced, "validate", "D9", "The schedule of a paired review judged by a contract preset does not run half of its evaluation pairs A-first and half B-first (12 and 12 of 24)."},
	{CodeDesignOrderOneSided, "validate", "D9", "The schedule of a paired review judged by a contract preset runs an evaluation task in one order only: every task runs in both orders across its repetitions."},
}
