package rules

// Codes of the reviewer-benchmark campaign kind (rules I8, G6), emitted by
// stages/load, stages/validate and stages/score. Record defects reject
// the campaign; a reviewer's own faults (a fabricated quotation, an
// unsupported failure, a probe claim without a receipt) are warnings whose
// consequence is scored: the finding is not grounded, the rating is
// unknown, the planted defect is missed.
const (
	CodeRbenchPlanMissing          Code = "benchmark_plan_missing"
	CodeRbenchPlanUnexpected       Code = "benchmark_plan_unexpected"
	CodeRbenchDesignInvalid        Code = "benchmark_design_invalid"
	CodeRbenchCaseInvalid          Code = "benchmark_case_invalid"
	CodeRbenchLineageSplits        Code = "benchmark_lineage_crosses_splits"
	CodeRbenchInventoryMismatch    Code = "benchmark_inventory_mismatch"
	CodeRbenchDefectLocation       Code = "benchmark_defect_location_invalid"
	CodeRbenchVariantNotOneDefect  Code = "benchmark_variant_not_one_defect"
	CodeRbenchAttemptUnplanned     Code = "benchmark_attempt_unplanned"
	CodeRbenchAttemptDuplicate     Code = "benchmark_attempt_duplicate"
	CodeRbenchAttemptMissing       Code = "benchmark_attempt_missing"
	CodeRbenchInputUnrecorded      Code = "benchmark_input_unrecorded"
	CodeRbenchLabelInInput         Code = "benchmark_label_in_input"
	CodeRbenchPriorDecisionInInput Code = "benchmark_prior_decision_in_input"
	CodeRbenchRemoteBillMissing    Code = "benchmark_remote_bill_missing"
	CodeRbenchRemoteBillUnsupport  Code = "benchmark_remote_bill_unsupported"
	CodeRbenchReceiptOtherCase     Code = "benchmark_receipt_other_case"
	CodeRbenchProfileMismatch      Code = "benchmark_profile_mismatch"
	CodeRbenchResponseCacheHit     Code = "benchmark_response_cache_hit"
	CodeRbenchRunsIdentical        Code = "benchmark_runs_identical"
	CodeRbenchReviewMalformed      Code = "benchmark_review_malformed"
	CodeRbenchReviewInconsistent   Code = "benchmark_review_inconsistent"
	CodeRbenchFindingIDRepeated    Code = "benchmark_finding_id_repeated"
	CodeRbenchSplitsFrozenLate     Code = "benchmark_splits_frozen_late"
	CodeRbenchBudgetUnequal        Code = "benchmark_budget_unequal"
	CodeRbenchFinalBeforeSelection Code = "benchmark_final_before_selection"
	CodeRbenchQuoteFabricated      Code = "benchmark_quote_fabricated"
	CodeRbenchProbeUnbound         Code = "benchmark_probe_unbound"
	CodeRbenchInstrumentation      Code = "benchmark_instrumentation_unresolved"
	CodeRbenchFailureUnsupported   Code = "benchmark_failure_unsupported"
	CodeRbenchPassOwnsBlocking     Code = "benchmark_pass_owns_blocking"
	CodeRbenchPassOverridden       Code = "benchmark_pass_overridden"
	CodeRbenchWrongLocation        Code = "benchmark_wrong_location"
	CodeRbenchAdjudicationTarget   Code = "benchmark_adjudication_unknown_finding"
	CodeRbenchAdjudicatorReviewer  Code = "benchmark_adjudicator_not_independent"
	CodeRbenchAdjudicationEarly    Code = "benchmark_adjudication_before_review"
	CodeRbenchAttemptReplaced      Code = "benchmark_attempt_replaced"
	CodeRbenchReplacementsExceed   Code = "benchmark_replacements_exceeded"
	CodeRbenchCasesFormatOld       Code = "benchmark_cases_format_old"
	CodeRbenchSecondReviewMissing  Code = "benchmark_second_review_missing"
	CodeRbenchRationaleMissing     Code = "benchmark_mutation_rationale_missing"
	CodeRbenchExcludedScored       Code = "benchmark_excluded_case_scored"
	CodeRbenchProfileUnpinned      Code = "benchmark_profile_unpinned"
	CodeRbenchProfilesUnequal      Code = "benchmark_profiles_unequal"
	CodeRbenchSettingsUnrecorded   Code = "benchmark_settings_unrecorded"
	CodeRbenchSettingsMismatch     Code = "benchmark_settings_mismatch"
	CodeRbenchToolLimitExceeded    Code = "benchmark_tool_limit_exceeded"
)

var rbenchCodes = []CodeDoc{
	{CodeRbenchCasesFormatOld, "load", "I8", "cases.json is evalgate.cases/v1, which records no second reviewer per audited case, no mutation rationale per variant and no register of excluded cases: it is refused, to be rewritten as evalgate.cases/v2 with them (docs/format.md)."},
	{CodeRbenchSecondReviewMissing, "load", "I8", "An audited case names no second reviewer: a second reviewer checks each proposed clean case and each mutation rationale, and a case nobody checked is provisional, not audited."},
	{CodeRbenchRationaleMissing, "load", "I8", "A variant states no mutation rationale (why its one planted defect is a defect and what it tests), or a clean case states one."},
	{CodeRbenchExcludedScored, "load", "I8", "The register of excluded cases names a case that is also a scored case, or names one case twice: an exclusion is retained with its reason and leaves the case out of the scored corpus."},
	{CodeRbenchProfileUnpinned, "validate", "I1/G6", "A profile has no frozen terms in a model stratum: benchmark.profiles has no entry for that profile and stratum (identities.returned_model or one of benchmark.models), or the entry lacks its generation settings (settings: an object, whose absent members are the provider's defaults), its tool limits (max_calls) or its per-attempt budget (input and output tokens at least 1, a cost); or an entry names no design profile or no stratum, or repeats one. The reviewer's identity binds its model route, generation settings and tool limits."},
	{CodeRbenchProfilesUnequal, "validate", "G6", "The two profiles of one model stratum are frozen with different generation settings, tool limits or per-attempt budgets: the baseline and the candidate are compared under the same pinned model, tools and budget, and both profiles share each stratum's fixed model and settings."},
	{CodeRbenchSettingsUnrecorded, "validate", "V1/G6", "A dispatched review receipt records no generation settings (settings), so the session cannot be shown to have run with its profile's frozen ones (benchmark.profiles)."},
	{CodeRbenchSettingsMismatch, "validate", "V1/G6", "A review receipt's recorded generation settings, or the reasoning effort its identity reports, differ from its profile's frozen settings in its model stratum (benchmark.profiles): the session ran under other terms than the ones its profile is compared under."},
	{CodeRbenchToolLimitExceeded, "validate", "V1/G6", "A review receipt records more tool calls than its profile's frozen tool_limits.max_calls in its model stratum, or a call of a tool its frozen tool_limits.tools do not list: the session ran under other tool limits than the ones its profile is compared under."},
	{CodeRbenchPlanMissing, "load", "I1/I8", "A reviewer-benchmark manifest has no benchmark member freezing its cases and task-file inventory."},
	{CodeRbenchPlanUnexpected, "load", "I1", "A manifest of another kind has a benchmark member."},
	{CodeRbenchDesignInvalid, "load", "I1/G6", "A reviewer-benchmark design does not have exactly two profiles (baseline first, then candidate), or lists tasks or schedule slots (its schedule is every case × profile × run); or another kind's design lists no task."},
	{CodeRbenchCaseInvalid, "load", "I8", "A case is inconsistent: a repeated ID, a clean case with a variant name or defect, a variant without them, or a family without exactly one clean case."},
	{CodeRbenchLineageSplits, "load", "I8/G6", "A lineage group or family has cases in more than one split: variants and descendants must stay in their group's split."},
	{CodeRbenchInventoryMismatch, "load", "I8", "The inventory does not list every case exactly once, repeats or misorders a path, or a file's bytes are not in sources/ with its sha256 and byte count."},
	{CodeRbenchDefectLocation, "load", "I8", "A planted defect's location is not a file of its case's inventory or lies beyond that file's lines."},
	{CodeRbenchVariantNotOneDefect, "load", "I8/G6", "A variant does not differ from its family's clean case by its one planted defect: another file is added, missing or changed, the defect's file has the clean bytes, or its changed lines lie beyond the planted lines."},
	{CodeRbenchAttemptUnplanned, "validate", "V2/G6", "A receipt is not a review of a known case by a design profile with a run in 1..repetitions."},
	{CodeRbenchAttemptDuplicate, "validate", "V2/G6", "Two receipts with different request IDs claim the same (case, profile, run); a resumed session must reuse its receipt."},
	{CodeRbenchAttemptMissing, "validate", "V2/G6", "A scheduled review attempt has no receipt, or its first receipt or a replacement skips an attempt number (every attempt, an aborted one too, is kept); it stays in every denominator, and the record is incomplete."},
	{CodeRbenchInputUnrecorded, "validate", "G6", "A dispatched review receipt has no recorded_input, or the recorded bytes do not match the receipt's rendered sha256 and byte count, so label isolation cannot be checked."},
	{CodeRbenchLabelInInput, "validate", "G6", "A benchmark label (case ID, variant name, defect description or one of its sentences or clauses of at least four words, expected location) occurs in the bytes a reviewer received, compared ignoring case, whitespace and punctuation, as whole words."},
	{CodeRbenchPriorDecisionInInput, "validate", "G6", "The bytes a reviewer received contain a decision of a review session of the benchmark that ended before this session started — a finding's problem, whole or one of its sentences or clauses of at least four words, or its location written path:start-end, not part of that review's own input — compared ignoring case, whitespace and punctuation, as whole words: earlier decisions are hidden from every reviewer."},
	{CodeRbenchRemoteBillMissing, "account", "A7/G6", "A remote execution (probe or remote_execution receipt) gives billing basis actual with an actual_charge but binds no bill (its output): Harbor's trial record records no sandbox charge, so nothing shows the charge reconciled, and it is held at its reservation's worst case until the bill is recorded."},
	{CodeRbenchRemoteBillUnsupport, "validate", "A7/G6", "A remote execution's bound bill does not support its actual_charge: the bill states no amount equal to it, or it is a Harbor trial record, whose agent_result.cost_usd is the agent's model cost and which records no sandbox charge."},
	{CodeRbenchReceiptOtherCase, "validate", "V1/G6", "A review receipt's task_sha256, or a bound trial's task_checksum, is another case's task checksum (or no case's): evidence crossed cases."},
	{CodeRbenchProfileMismatch, "validate", "V1/G6", "A review document names a profile other than its receipt's arm."},
	{CodeRbenchResponseCacheHit, "validate", "G6", "A review reports a model response-cache hit; repeated sessions must bypass response caching."},
	{CodeRbenchRunsIdentical, "validate", "G6", "Two runs of one case and profile returned byte-identical outputs: the repeat was not an independent session."},
	{CodeRbenchReviewMalformed, "validate", "G6", "A review session's output is not a valid review document: a schema violation of the reviewer, scored as such (undecidable, in every denominator)."},
	{CodeRbenchReviewInconsistent, "validate", "G6", "A review rates a criterion twice, or a rating attaches a finding ID the review does not have: inconsistent findings are rejected, so the review is a contract violation of the reviewer (undecidable, in every denominator, failing the candidate's contract gate)."},
	{CodeRbenchFinalBeforeSelection, "validate", "G6", "A final-split review session started before the last selection-split session ended: selection results choose the candidate and final test runs occur only after that choice, so the final split is no holdout for it."},
	{CodeRbenchBudgetUnequal, "validate", "G6", "A review session reserves another worst-case bound (input tokens, output tokens, cost) than its profile's frozen per-attempt budget in its model stratum (benchmark.profiles), or, where none is frozen, than the stratum's other sessions: the baseline and the candidate are compared under the same pinned model, tools and budget."},
	{CodeRbenchSplitsFrozenLate, "validate", "G6", "A review session started before the manifest's frozen_at, when the manifest froze cases.json and so every case's split: the development, selection and final families are frozen before tuning."},
	{CodeRbenchFindingIDRepeated, "validate", "G6", "A review uses one finding ID for two findings: one stable ID per issue within an immutable review, so the review is a contract violation of the reviewer (undecidable, no finding rows, in every denominator, failing the candidate's contract gate)."},
	{CodeRbenchQuoteFabricated, "validate", "G6", "A quoted excerpt is not the exact bytes of those lines of the task file, or its file sha256 is not the inventory's: the finding is not grounded."},
	{CodeRbenchProbeUnbound, "validate", "G6", "A finding claims a probe ran but cites no trial result in the campaign with that sha256: only a bound receipt establishes execution, so the finding is unresolved."},
	{CodeRbenchInstrumentation, "validate", "G6", "A supported finding rests on a trial that ended in an exception (solver timeout, setup failure) or without a reward: unresolved instrumentation, never a detected defect."},
	{CodeRbenchFailureUnsupported, "score", "G6", "A criterion rated fail has no grounded blocking finding of that criterion: its effective rating is unknown."},
	{CodeRbenchPassOwnsBlocking, "score", "G6", "A criterion rated pass lists a blocking finding as its own: an inconsistent review; its effective rating is fail when the finding is grounded, else unknown."},
	{CodeRbenchPassOverridden, "score", "G6", "A criterion rated pass is contradicted by a grounded blocking finding of that criterion later in the review: its effective rating is fail."},
	{CodeRbenchWrongLocation, "score", "G6", "A grounded blocking finding has the planted defect's category but not its location: a miss, not a detection."},
	{CodeRbenchAdjudicationTarget, "validate", "I8/G6", "A finding adjudication names a session or finding ID that no completed review has."},
	{CodeRbenchAdjudicationEarly, "validate", "I8/G6", "A finding adjudication is decided before the review it adjudicates ended: it cannot have judged that finding, so the record is wrong."},
	{CodeRbenchAdjudicatorReviewer, "validate", "I8/G6", "A finding adjudication's adjudicator is the reviewer under review — a profile of the benchmark, the reviewed session, or the model that returned the review (compared ignoring case and surrounding spaces): precision needs independent adjudication."},
	{CodeRbenchAttemptReplaced, "validate", "V2/A6/G6", "A review attempt's infrastructure-invalid execution (an infrastructure error class, or another model, CLI, permission policy or prompt) was replaced by a later attempt within the campaign's replacement allowance: the original is retained and charged, and only the replacement is scored."},
	{CodeRbenchReplacementsExceed, "validate", "V2/A6/G6", "More review executions are infrastructure-invalid than the campaign's infrastructure_replacements allows: the campaign stops."},
}
