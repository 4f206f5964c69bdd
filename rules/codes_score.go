package rules

// Codes emitted by stages/score (adjudications, rules Q1–Q3) and
// stages/aggregate (gate policy, rules G2–G4).
const (
	CodeRatingUnknownSession    Code = "rating_unknown_session"
	CodeRatingNotBlinded        Code = "rating_not_blinded"
	CodeRatingUnknownRole       Code = "rating_unknown_role"
	CodeRatingDuplicateRater    Code = "rating_duplicate_rater"
	CodeRatingExtraPrimary      Code = "rating_extra_primary"
	CodeRatingExtraAdjudicator  Code = "rating_extra_adjudicator"
	CodeRatingUnknownObligation Code = "rating_unknown_obligation"
	CodeRatingDuplicateOblig    Code = "rating_duplicate_obligation"
	CodeRatingMissingObligation Code = "rating_missing_obligation"
	CodeRatingUnknownOutcome    Code = "rating_unknown_outcome"
	CodeRatingCitationIndex     Code = "rating_citation_index"
	CodeRatingMissingCitation   Code = "rating_missing_citation"
	CodeRatingNegativeCount     Code = "rating_negative_count"
	CodeRatingUnscoreableRun    Code = "rating_unscoreable_run"
	CodeRunUnrated              Code = "run_unrated"
	CodeDisagreementUnsettled   Code = "disagreement_unsettled"
	CodeOracleDefective         Code = "oracle_defective"

	CodeGatePresetUnknown    Code = "gate_preset_unknown"
	CodeGateThresholdUnknown Code = "gate_threshold_unknown"
	CodeGateThresholdInvalid Code = "gate_threshold_invalid"
	CodeGateThresholdRepeat  Code = "gate_threshold_duplicate"
	CodeGateNoTasks          Code = "gate_no_tasks"
	CodeGateNoneEvaluated    Code = "gate_none_evaluated"
)

var scoreCodes = []CodeDoc{
	{CodeRatingUnknownSession, "score", "Q1/I7", "An adjudication names a session that is not a planned review session of the campaign."},
	{CodeRatingNotBlinded, "score", "Q1", "An adjudication was not made blind to arm, cost and reconciliation; it cannot count."},
	{CodeRatingUnknownRole, "score", "Q1/I7", "An adjudication's rater_role is neither primary nor adjudicator."},
	{CodeRatingDuplicateRater, "score", "Q1", "The same rater rated the same session more than once; only the first rating counts."},
	{CodeRatingExtraPrimary, "score", "Q1", "A session has more than two primary ratings; only the first two count."},
	{CodeRatingExtraAdjudicator, "score", "Q1", "A session has more than one adjudicator record; only the first counts."},
	{CodeRatingUnknownObligation, "score", "Q2/I7", "An adjudication rates an obligation ID that the task's truth does not define."},
	{CodeRatingDuplicateOblig, "score", "Q2/I7", "An adjudication rates the same obligation twice."},
	{CodeRatingMissingObligation, "score", "Q2/I7", "An adjudication omits an obligation of the task's truth; the denominator never shrinks."},
	{CodeRatingUnknownOutcome, "score", "I7", "An obligation outcome is not addressed, missed, wrong, unknown_credited or not_applicable."},
	{CodeRatingCitationIndex, "score", "I7/C10", "A citation rating has a negative, repeated or out-of-range index into final.citations."},
	{CodeRatingMissingCitation, "score", "I7/C10", "An adjudication omits the support judgment of a final citation."},
	{CodeRatingNegativeCount, "score", "I7", "An adjudication reports a negative claim count."},
	{CodeRatingUnscoreableRun, "score", "V7", "A rating was recorded for a run without a valid final answer; the run scores R=0 without ratings and the rating is ignored."},
	{CodeRunUnrated, "score", "Q1/G7", "A scoreable run lacks two usable blinded primary ratings; it stays unscored (never zero) and the decision is no_verdict."},
	{CodeDisagreementUnsettled, "score", "Q1/G7", "The two primary ratings disagree and no usable adjudicator record settles the run; it stays unscored."},
	{CodeOracleDefective, "score", "C22", "The task's oracle is marked defective; its runs are not scored and the campaign has no verdict."},
	{CodeGatePresetUnknown, "aggregate", "G2/G4", "The manifest's gate_policy.preset names no known preset."},
	{CodeGateThresholdUnknown, "aggregate", "G2", "A gate_policy threshold override names no threshold of the preset."},
	{CodeGateThresholdInvalid, "aggregate", "G2", "A gate_policy threshold override is not a plain non-negative decimal."},
	{CodeGateThresholdRepeat, "aggregate", "G2", "A gate_policy threshold is overridden more than once."},
	{CodeGateNoTasks, "aggregate", "G2/G4", "No task of the campaign belongs to the split the gate preset judges."},
	{CodeGateNoneEvaluated, "aggregate", "G5", "The gate policy evaluated no gate for the candidate system, so nothing can judge it and the campaign gets no verdict."},
}

// Codes of the blinded adjudication protocol (rule Q1): `evalgate blind
// import` and the unblinding check of stages/score.
const (
	CodeRatingAfterUnblinding Code = "rating_after_unblinding"
	CodeBlindLabelUnknown     Code = "blind_label_unknown"
	CodeBlindKeyInvalid       Code = "blind_key_invalid"
	CodeBlindKeyCampaign      Code = "blind_key_campaign_mismatch"
	CodeBlindItemTampered     Code = "blind_item_tampered"
	CodeBlindUnblindingAbsent Code = "blind_unblinding_unknown"
	CodeUnblindingMissing     Code = "unblinding_missing"
)

var blindCodes = []CodeDoc{
	{CodeRatingAfterUnblinding, "score", "Q1", "A rating was frozen at or after the campaign's unblinding time (arm and cost already revealed); it cannot count."},
	{CodeBlindLabelUnknown, "score", "Q1", "A blind rating names a label that the sealed key does not map to a session."},
	{CodeBlindKeyInvalid, "score", "Q1", "The sealed key of a blind export does not decode, or repeats a label or session."},
	{CodeBlindKeyCampaign, "score", "Q1", "The sealed key was exported from a campaign with a different manifest sha256."},
	{CodeBlindItemTampered, "score", "Q1", "An exported blind item is missing, extra, or no longer has the sha256 recorded in the sealed key."},
	{CodeUnblindingMissing, "score", "Q1", "The campaign has ratings but no unblinding.json, so nothing shows they were frozen before arm and cost were revealed; they cannot count."},
	{CodeBlindUnblindingAbsent, "score", "Q1", "No unblinding time is known (no --unblinded-at, no unblinding.json), so ratings cannot be checked against it."},
}
