package tables

// The enumerations that cross stages. Each is a string type with one
// declaration of every value; enums_test.go pins every value's text, so a
// rename that would change a table, the scorecard or a user's script fails
// a test. Values are written verbatim to Parquet and JSON.

// Classification is how a session or run counts (sessions.classification,
// runs.classification). A model's own failure is scored (scored_failure,
// shared_draft_failure, investigation_failure, not_dispatched); an invalid
// execution is not (invalid).
type Classification string

// Classifications. Sessions take every value but investigation_failure
// and evidence_budget_exceeded;
// runs take every value but valid's structural meaning is the review's.
const (
	ClassValid                Classification = "valid"
	ClassScoredFailure        Classification = "scored_failure"
	ClassSharedDraftFailure   Classification = "shared_draft_failure"
	ClassInvestigationFailure Classification = "investigation_failure" // a system comparison's run whose investigation failed
	// ClassEvidenceBudgetExceeded is a system comparison's run whose
	// returned packet exceeded PacketTokenLimit: a valid system failure.
	ClassEvidenceBudgetExceeded Classification = "evidence_budget_exceeded"
	ClassInvalid                Classification = "invalid"
	ClassNotDispatched          Classification = "not_dispatched"
)

// Classifications lists every classification, in documentation order.
func Classifications() []Classification {
	return []Classification{ClassValid, ClassScoredFailure, ClassSharedDraftFailure, ClassInvestigationFailure, ClassEvidenceBudgetExceeded, ClassInvalid, ClassNotDispatched}
}

// Verdict is the decision of one treatment arm (decision.decision).
type Verdict string

// Decisions (G3). advance only when every gate passes; no_verdict when the
// execution cannot support a verdict.
const (
	DecisionAdvance      Verdict = "advance"
	DecisionDoNotAdvance Verdict = "do_not_advance"
	DecisionStopNoGain   Verdict = "stop_no_gain"
	DecisionNoVerdict    Verdict = "no_verdict"
	// DecisionInconclusive (reviewer benchmark only) keeps the default
	// reviewer: no regression observed, but no demonstrated improvement.
	DecisionInconclusive Verdict = "inconclusive"
)

// Verdicts lists every decision, in documentation order.
func Verdicts() []Verdict {
	return []Verdict{DecisionAdvance, DecisionDoNotAdvance, DecisionStopNoGain, DecisionNoVerdict, DecisionInconclusive}
}

// UsageShape names the native shape of a provider's usage object
// (Meter.Shape, tokens.shape, an admission request's meter_shape); the
// account stage decodes each strictly (see notes/receipts.md).
type UsageShape string

// Usage shapes accepted in Meter.Shape.
const (
	ShapeNormalized      UsageShape = "normalized"
	ShapeOpenAIResponses UsageShape = "openai.responses"
	ShapeOpenAIChat      UsageShape = "openai.chat_completions"
	ShapeAnthropic       UsageShape = "anthropic.messages"
	ShapeGemini          UsageShape = "gemini.usage_metadata"
	ShapeCodexTokenCount UsageShape = "codex.token_count"
	ShapeInspect         UsageShape = "inspect.model_usage"
	// ShapeInspectInclusive is Inspect AI's ModelUsage as written by
	// inspect_ai < 0.3.184 for OpenAI, Grok and (before 0.3.208) Google:
	// cache reads and writes are inside input_tokens, total = input + output.
	ShapeInspectInclusive UsageShape = "inspect.model_usage.inclusive"
	// ShapeInspectGoogle is Inspect AI's ModelUsage of a Google model as
	// written by inspect_ai < 0.3.208: input_tokens includes the cache reads,
	// output_tokens leaves out the thinking tokens Gemini reports apart, and
	// total = input + output + thoughts. The gap is counted as reasoning,
	// billed as output (docs/format.md).
	ShapeInspectGoogle UsageShape = "inspect.model_usage.google"
	// ShapeInspectDeclaredHidden is an inspect.model_usage.inclusive meter
	// whose total exceeds input + output, imported with the user's
	// declaration (`import inspect --hidden-tokens output`) that the excess
	// is hidden reasoning the provider bills at the output rate: normalised
	// as ShapeInspectGoogle (docs/format.md).
	ShapeInspectDeclaredHidden UsageShape = "inspect.model_usage.declared_hidden_output"
	// ShapeCodexTotalTokenUsage is one Codex CLI TokenUsage: the final
	// total_token_usage of a whole rollout, written by `evalgate import codex`.
	ShapeCodexTotalTokenUsage UsageShape = "codex.total_token_usage"
	// ShapeHarborAgentContext is a Harbor trial's agent_result token members
	// (n_input_tokens includes n_cache_tokens), written by `evalgate import harbor`.
	ShapeHarborAgentContext UsageShape = "harbor.agent_context"
)

// UsageShapes lists every accepted usage shape, in documentation order.
func UsageShapes() []UsageShape {
	return []UsageShape{ShapeNormalized, ShapeOpenAIResponses, ShapeOpenAIChat, ShapeAnthropic,
		ShapeGemini, ShapeCodexTokenCount, ShapeInspect, ShapeInspectInclusive, ShapeInspectGoogle,
		ShapeInspectDeclaredHidden,
		ShapeCodexTotalTokenUsage, ShapeHarborAgentContext}
}
