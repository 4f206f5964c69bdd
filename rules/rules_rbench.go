package rules

import "slices"

// RuleQuote is one sentence of the reviewer-benchmark protocol (the one
// rules G6 and I8 restate) with the finding codes, gates and tables
// that enforce it. docs/rules.md lists them under G6 and I8.
type RuleQuote struct {
	Rule  RuleID
	Quote string   // the protocol's own words
	By    []string // codes, gates, statuses or tables that enforce it
}

// RuleQuotes returns the protocol sentences of rules G6 and I8 in
// document order.
func RuleQuotes() []RuleQuote { return slices.Clone(ruleQuotes) }

// RateIntervalMethodName is the reviewer benchmark's interval method, as
// tables.RateIntervalMethod writes it (rules imports no table package).
const RateIntervalMethodName = "expanded_percentile_cr1_t_hull"

var ruleQuotes = []RuleQuote{
	{"G6", "Use one stable ID per issue within an immutable review.",
		[]string{string(CodeRbenchFindingIDRepeated), "status contract_violation", string(GateRbContract)}},
	{"G6", "Fabricated quotations, cross-task receipts and inconsistent findings are rejected.",
		[]string{string(CodeRbenchQuoteFabricated), string(CodeRbenchReceiptOtherCase), string(CodeRbenchReviewInconsistent), string(GateRbContract)}},
	{"G6", "A candidate must pass deterministic contract tests and known regression cases.",
		[]string{string(GateRbContract), string(GateRbRegression)}},
	{"G6", "All 160 scheduled attempts have receipts; 126 produced a completed review. […] Most incomplete reviews exhausted evidence/context or citation-correction limits.",
		[]string{"metrics attempted, completed (abstentions excluded), abstentions"}},
	{"G6", "Report attempted, completed, decidable and independently adjudicated reviews separately.",
		[]string{"metrics attempted, completed, decision_coverage"}},
	{"G6", "Genuine additional defects trigger label adjudication.",
		[]string{"table label_queue", string(GateRbLabelsSettled)}},
	{"G6", "Unexpected findings need adjudication before this is interpreted as a false-positive rate; provisional labels are reported separately.",
		[]string{"table label_queue", string(GateRbLabelsSettled), "metric blocking_on_provisional_clean"}},
	{"G6", "Every original label remains provisional; blocking it is not a proven false alarm.",
		[]string{"table label_queue", string(GateRbLabelsSettled)}},
	{"G6", "A disputed finding does not become false merely because someone disagrees.",
		[]string{"findings.adjudication disputed", "table label_queue"}},
	{"G6", "Selection results choose the candidate; final test runs occur only after that choice.",
		[]string{string(CodeRbenchFinalBeforeSelection)}},
	{"G6", "No candidate may worsen false blocks, detection, decidability or execution errors on either model; stock wins ties.",
		[]string{string(GateRbBlockingSelection), string(GateRbDetectionSelection), string(GateRbBlockingFinal), string(GateRbDetectionFinal),
			string(GateRbDecidability), string(GateRbExecutionErrors)}},
	{"G6", "Freeze 10 development / 5 selection / 5 final-test families before tuning.",
		[]string{string(CodeRbenchSplitsFrozenLate), string(CodeRbenchLineageSplits)}},
	{"G6", "Compare the baseline and one frozen candidate using the same pinned model, tools and budget.",
		[]string{string(CodeRbenchProfilesUnequal) + " (benchmark.profiles: settings, tool limits and budget equal within a stratum)", string(CodeRbenchBudgetUnequal), string(CodeIdentityMismatch)}},
	{"G6", "Bind reviewer identity to prompt/skill hashes, code, model route, generation settings and tool limits.",
		[]string{string(CodeRbenchProfileUnpinned) + " (benchmark.profiles: each profile × model stratum)", string(CodeRbenchSettingsUnrecorded), string(CodeRbenchSettingsMismatch) + " (a receipt's settings and its identity's reasoning effort against its profile's)", string(CodeRbenchToolLimitExceeded) + " (a receipt's tool calls against its profile's tool limits)", string(CodeIdentityMismatch)}},
	{"G6", "Both profiles share each stratum's fixed model/settings.",
		[]string{string(CodeRbenchProfilesUnequal)}},
	{"G6", "The last comparison used identical model, context and spending settings within the pair.",
		[]string{string(CodeRbenchProfilesUnequal) + " (tool_limits.max_context_chars, budget)"}},
	{"G6", "Report definite decisions and total attempted coverage separately; unknown cases cannot disappear from the denominator.",
		[]string{"metrics attempted, decision_coverage (per split, profile and model stratum)"}},
	{"G6", "Finding precision uses all adjudicated findings in the pilot, with counts for any unadjudicated remainder.",
		[]string{"metrics finding_precision, unadjudicated_findings, disputed_findings, adjudicated_reviews"}},
	{"G6", "Unexpected findings need adjudication before this is interpreted as a false-positive rate; provisional labels are reported separately.",
		[]string{"metrics blocking_on_provisional_clean, detection_on_provisional"}},
	{"G6", "Benchmark labels and lineage variants cannot leak into reviewer inputs or splits.",
		[]string{string(CodeRbenchLabelInInput) + " (normalised: case, whitespace, punctuation, sentences and clauses)", string(CodeRbenchLineageSplits)}},
	{"G6", "Benchmark labels and previous baseline decisions are hidden from both reviewers.",
		[]string{string(CodeRbenchLabelInInput), string(CodeRbenchPriorDecisionInInput) + " (an earlier review's finding problems, by sentence and clause, and locations; both profiles' earlier reviews)"}},
	{"G6", "Compute uncertainty by resampling task families while retaining variants and repeated runs together.",
		[]string{"table intervals (exploratory, per split, profile and model stratum; method " + RateIntervalMethodName + ")"}},
	{"G6", "Twenty families provide a pilot signal, not a precise production accuracy claim.",
		[]string{"table intervals: no bounds where the method's coverage is untested (status coverage_untested_families, coverage_untested_extreme_rate)"}},
	{"I8", "Each family has one independently audited clean task and two separate variants, each introducing exactly one defect.",
		[]string{string(CodeRbenchCaseInvalid), string(CodeRbenchVariantNotOneDefect)}},
	{"I8", "Mutation fixtures prove the intended one-defect change; both clean and defective cases are tested.",
		[]string{string(CodeRbenchVariantNotOneDefect)}},
	{"I8", "A second reviewer checks each proposed clean case and each mutation rationale.",
		[]string{string(CodeRbenchSecondReviewMissing), string(CodeRbenchRationaleMissing), string(CodeRbenchCasesFormatOld)}},
	{"I8", "A separate model can assist triage, but unresolved cases remain outside the scored clean set. Retain exclusions and reasons; they affect achieved corpus size.",
		[]string{"cases.json excluded (format evalgate.cases/v2)", string(CodeRbenchExcludedScored), "report: excluded cases with their reasons"}},
	{"G6", "Holds include prior uncertain calls, interrupted model requests and remote execution awaiting billing reconciliation. They are not assumed free.",
		[]string{"ledger kind held", string(CodeRbenchRemoteBillMissing), string(CodeRbenchRemoteBillUnsupport), string(GateRbBudget)}},
	{"G6", "Do not reuse old campaign authorization or silently increase the cap.",
		[]string{string(PolicyCode("ceiling", "campaign_reference_cost")), string(PolicyCode("ceiling", "campaign_actual_cost")), "policy: a custom policy is named in every verdict"}},
}
