package tables

import (
	"slices"
	"testing"
)

// TestEnumValuesStable pins the text of every enumeration value: these
// strings are written to Parquet, scorecard.json and receipts, so a rename
// must fail here rather than silently change users' files. The lists also
// prove each enumeration lists every value exactly once, in order.
func TestEnumValuesStable(t *testing.T) {
	check := func(t *testing.T, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("values %q, want %q", got, want)
		}
	}
	t.Run("classification", func(t *testing.T) {
		check(t, stringsOf(Classifications()), []string{
			"valid", "scored_failure", "shared_draft_failure", "investigation_failure", "evidence_budget_exceeded", "invalid", "not_dispatched",
		})
	})
	t.Run("decision", func(t *testing.T) {
		check(t, stringsOf(Verdicts()), []string{"advance", "do_not_advance", "stop_no_gain", "no_verdict", "inconclusive"})
	})
	t.Run("usage shape", func(t *testing.T) {
		check(t, stringsOf(UsageShapes()), []string{
			"normalized", "openai.responses", "openai.chat_completions", "anthropic.messages",
			"gemini.usage_metadata", "codex.token_count", "inspect.model_usage", "inspect.model_usage.inclusive",
			"inspect.model_usage.google", "inspect.model_usage.declared_hidden_output", "codex.total_token_usage", "harbor.agent_context",
		})
	})
	// Each constant by name, so a list that drops one still fails.
	for _, c := range []struct{ got, want string }{
		{string(ClassValid), "valid"},
		{string(ClassScoredFailure), "scored_failure"},
		{string(ClassSharedDraftFailure), "shared_draft_failure"},
		{string(ClassInvestigationFailure), "investigation_failure"},
		{string(ClassEvidenceBudgetExceeded), "evidence_budget_exceeded"},
		{string(ClassInvalid), "invalid"},
		{string(ClassNotDispatched), "not_dispatched"},
		{string(DecisionAdvance), "advance"},
		{string(DecisionDoNotAdvance), "do_not_advance"},
		{string(DecisionStopNoGain), "stop_no_gain"},
		{string(DecisionNoVerdict), "no_verdict"},
		{string(DecisionInconclusive), "inconclusive"},
		{string(ShapeNormalized), "normalized"},
		{string(ShapeOpenAIResponses), "openai.responses"},
		{string(ShapeOpenAIChat), "openai.chat_completions"},
		{string(ShapeAnthropic), "anthropic.messages"},
		{string(ShapeGemini), "gemini.usage_metadata"},
		{string(ShapeCodexTokenCount), "codex.token_count"},
		{string(ShapeInspect), "inspect.model_usage"},
		{string(ShapeInspectInclusive), "inspect.model_usage.inclusive"},
		{string(ShapeInspectGoogle), "inspect.model_usage.google"},
		{string(ShapeInspectDeclaredHidden), "inspect.model_usage.declared_hidden_output"},
		{string(ShapeCodexTotalTokenUsage), "codex.total_token_usage"},
		{string(ShapeHarborAgentContext), "harbor.agent_context"},
		{StatusMissing, "missing"},
	} {
		if c.got != c.want {
			t.Errorf("constant is %q, want %q", c.got, c.want)
		}
	}
}

func stringsOf[S ~string](vs []S) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
