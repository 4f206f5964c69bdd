package rules

// Codes of `evalgate import` (docs/import.md): mapping source records of
// other tools to campaign sessions, and the Codex rollout and Harbor trial
// readers, and the Inspect AI log reader.
const (
	CodeImportMapInvalid         Code = "import_map_invalid"
	CodeImportUnmapped           Code = "import_unmapped"
	CodeImportMapUnmatched       Code = "import_map_unmatched"
	CodeImportErrorUnmapped      Code = "import_error_unmapped"
	CodeImportConflict           Code = "import_conflict"
	CodeImportTimeMissing        Code = "import_time_missing"
	CodeImportIDInvalid          Code = "import_id_invalid"
	CodeImportUsageUnattributed  Code = "import_usage_unattributed"
	CodeImportCampaignUnreadable Code = "import_campaign_unreadable"
	CodeImportNoReturnedModel    Code = "import_no_returned_model"
	CodeImportNoMeter            Code = "import_no_meter"
	CodeImportNoHost             Code = "import_no_host"
	CodeImportWrongFormat        Code = "import_wrong_format"
	CodeImportAgentNoModel       Code = "import_agent_no_model"

	CodeCodexRolloutMalformed Code = "codex_rollout_malformed"
	CodeCodexRolloutResumed   Code = "codex_rollout_resumed"
	CodeCodexTotalsDisagree   Code = "codex_totals_disagree"
	CodeCodexNoUsage          Code = "codex_no_usage"

	CodeHarborResultMalformed Code = "harbor_result_malformed"
	CodeHarborNoReward        Code = "harbor_no_reward"
	CodeHarborCostInexact     Code = "harbor_cost_inexact"
	CodeHarborNoUsage         Code = "harbor_no_usage"

	// Inspect AI logs read by `evalgate import inspect` (A1, I5).
	CodeInspectLogMalformed    Code = "inspect_log_malformed"
	CodeInspectVersionUnknown  Code = "inspect_version_unknown"
	CodeInspectSampleDuplicate Code = "inspect_sample_duplicate"
	CodeInspectLogIncomplete   Code = "inspect_log_incomplete"
	CodeInspectNoSamples       Code = "inspect_no_samples"
	CodeInspectSampleNoUsage   Code = "inspect_sample_no_usage"
	CodeInspectProviderUnknown Code = "inspect_provider_unknown"
)

var importCodes = []CodeDoc{
	{CodeImportMapInvalid, "import", "I5", "The mapping file contradicts itself or the import: another source, a rate card the manifest lacks, actual billing outside Harbor, an output file outside Harbor, two entries for one record or one session."},
	{CodeImportUnmapped, "import", "I5", "An imported file holds a record no mapping entry names; nothing is imported rather than a record silently dropped."},
	{CodeImportMapUnmatched, "import", "I5", "Warning: a mapping entry names no record of the files imported."},
	{CodeImportErrorUnmapped, "import", "V7", "A source record failed with an error the mapping's error_classes does not name; its class is never guessed."},
	{CodeImportConflict, "import", "I5", "A record already imported would now be written differently, or its session ID or answer file is already taken; a conflicting import is refused."},
	{CodeImportTimeMissing, "import", "I5", "A source record has no start time of its own."},
	{CodeImportIDInvalid, "import", "I5", "A source's own ID cannot be a campaign request ID."},
	{CodeImportUsageUnattributed, "import", "A1", "An Inspect log's totals hold usage its samples do not: tokens no session could be charged."},
	{CodeImportCampaignUnreadable, "import", "I1", "The --into directory has no readable manifest.json, so imported sessions cannot be tied to its design."},
	{CodeImportNoReturnedModel, "import", "V1", "Warning: a source record names no model (an Inspect sample without output.model, a Harbor trial without agent_info.model_info); the receipt's returned_model is left empty, never guessed, so validate refuses the session's identity until the mapping's sessions[].returned_model gives it from the runner's records."},
	{CodeImportNoMeter, "import", "A8", "Warning, once per import: sessions imported without a meter (their records hold no usage whose semantics are known); their cost is unknown, so the campaign's cost gate cannot pass while they are in it."},
	{CodeImportNoHost, "import", "D3", "Warning, once per import: no source records the host a session ran on (Inspect, Codex and Harbor record none) and the mapping's identity.host gives none, so the imported receipts have no identity.host, which a paired review refuses (session_host_missing) until the mapping gives it and the import is run again."},
	{CodeImportWrongFormat, "import", "I5", "A file given to an importer is of another known format (an Inspect log, a Codex rollout, a Harbor trial or job result, a terminal-bench 1 results.json, a legacy Codex rollout, `codex exec --json` output): one finding names it and what to do."},
	{CodeImportAgentNoModel, "import", "V1", "A Harbor trial of an agent that runs no model (the oracle, which runs the task's own solution; nop, which does nothing) is mapped to a session of a model: it is no model's session, so it is imported only as a reviewer benchmark's probe or remote execution, or left out."},
	{CodeCodexRolloutMalformed, "import", "I5", "A Codex rollout is not readable JSONL of session_meta, turn_context, response_item and event_msg lines."},
	{CodeCodexRolloutResumed, "import", "A1", "A Codex rollout's first running total already counts turns before it (a resumed or forked conversation): the session's own usage is unknown."},
	{CodeCodexTotalsDisagree, "import", "A1", "A Codex rollout's per-turn usage does not add up to its final running total."},
	{CodeCodexNoUsage, "import", "A1", "Warning: a Codex rollout has no token_count usage; its receipt has no meter."},
	{CodeHarborResultMalformed, "import", "I5", "A Harbor trial result.json is not a readable TrialResult."},
	{CodeHarborNoReward, "import", "V7", "Warning: a Harbor trial without an exception has no verifier reward; it is imported as an error (recorder_loss), never as a pass."},
	{CodeHarborCostInexact, "import", "A3", "A Harbor cost_usd is missing or not an exact decimal of at most 12 places, so it cannot be the actual charge."},
	{CodeHarborNoUsage, "import", "A1", "Warning: a Harbor trial reports no token counts; its receipt has no meter."},
	{CodeInspectLogMalformed, "import", "I5", "An Inspect log is not a readable .json or .eval log: not an object or zip, no header, a member of the wrong type, a bad sample id, epoch, time or usage."},
	{CodeInspectVersionUnknown, "import", "A1/I5", "An Inspect log's header does not name a parseable eval.packages.inspect_ai version, so its token semantics are unknown."},
	{CodeInspectSampleDuplicate, "import", "I5", "An Inspect log has two samples with the same id and epoch."},
	{CodeInspectLogIncomplete, "import", "I5", "Warning: a .eval log has no header.json (killed or running); its identity is read from _journal/start.json."},
	{CodeInspectNoSamples, "import", "I5", "Warning: an Inspect log has no samples and yields no meters."},
	{CodeInspectSampleNoUsage, "import", "A1", "Warning: an Inspect sample reports no model usage and yields no meter."},
	{CodeInspectProviderUnknown, "import", "A1", "Warning: a pre-0.3.184 Inspect log's provider has unknown token semantics; its usage yields no meter rather than a guess."},
}
