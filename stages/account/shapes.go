package account

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
)

// The accepted usage shapes (Meter.Usage is the provider's usage object
// itself, not an envelope). Members marked required must be present and
// non-null; documented optional members may be absent or null (= 0); any
// other member is refused. See docs/format.md and notes/receipts.md §2.

// normalizedUsage is evalgate's own shape: the buckets themselves, all
// required. reasoning ⊂ output.
type normalizedUsage struct {
	UncachedInput *int64 `json:"uncached_input"`
	CachedInput   *int64 `json:"cached_input"`
	CacheWrite5m  *int64 `json:"cache_write_5m"`
	CacheWrite1h  *int64 `json:"cache_write_1h"`
	Output        *int64 `json:"output"`
	Reasoning     *int64 `json:"reasoning"`
}

func (u *normalizedUsage) buckets(d *decoder) Buckets {
	b := Buckets{
		UncachedInput: d.need("/uncached_input", u.UncachedInput),
		CachedInput:   d.need("/cached_input", u.CachedInput),
		CacheWrite5m:  d.need("/cache_write_5m", u.CacheWrite5m),
		CacheWrite1h:  d.need("/cache_write_1h", u.CacheWrite1h),
		Output:        d.need("/output", u.Output),
		Reasoning:     d.need("/reasoning", u.Reasoning),
	}
	d.subset(rules.CodeMeterReasoningExceedsOut, "/reasoning", b.Reasoning, "/output", b.Output)
	return b
}

// responsesUsage is the OpenAI Responses API usage: input_tokens includes
// cached_tokens (and the newer optional cache_write_tokens, billed as a
// 5-minute cache write); output_tokens includes reasoning_tokens;
// total_tokens = input + output.
type responsesUsage struct {
	InputTokens        *int64 `json:"input_tokens"`
	InputTokensDetails *struct {
		CachedTokens     *int64 `json:"cached_tokens"`
		CacheWriteTokens *int64 `json:"cache_write_tokens"`
	} `json:"input_tokens_details"`
	OutputTokens        *int64 `json:"output_tokens"`
	OutputTokensDetails *struct {
		ReasoningTokens *int64 `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
	TotalTokens *int64 `json:"total_tokens"`
}

func (u *responsesUsage) buckets(d *decoder) Buckets {
	in := d.need("/input_tokens", u.InputTokens)
	out := d.need("/output_tokens", u.OutputTokens)
	total := d.need("/total_tokens", u.TotalTokens)
	var cached, write, reasoning int64
	if u.InputTokensDetails == nil {
		d.need("/input_tokens_details", nil)
	} else {
		cached = d.need("/input_tokens_details/cached_tokens", u.InputTokensDetails.CachedTokens)
		write = d.opt("/input_tokens_details/cache_write_tokens", u.InputTokensDetails.CacheWriteTokens)
	}
	if u.OutputTokensDetails == nil {
		d.need("/output_tokens_details", nil)
	} else {
		reasoning = d.need("/output_tokens_details/reasoning_tokens", u.OutputTokensDetails.ReasoningTokens)
	}
	return inclusive(d, inclusiveMeter{
		in: in, cached: cached, write: write, out: out, reasoning: reasoning, total: total,
		inPtr: "/input_tokens", cachedPtr: "/input_tokens_details/cached_tokens",
		outPtr: "/output_tokens", reasoningPtr: "/output_tokens_details/reasoning_tokens", totalPtr: "/total_tokens",
	})
}

// chatUsage is the OpenAI Chat Completions usage: prompt_tokens includes
// cached_tokens, completion_tokens includes reasoning_tokens, total =
// prompt + completion. Audio tokens are priced differently: any is an
// unsupported modifier.
type chatUsage struct {
	PromptTokens        *int64 `json:"prompt_tokens"`
	CompletionTokens    *int64 `json:"completion_tokens"`
	TotalTokens         *int64 `json:"total_tokens"`
	PromptTokensDetails *struct {
		CachedTokens *int64 `json:"cached_tokens"`
		AudioTokens  *int64 `json:"audio_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens          *int64 `json:"reasoning_tokens"`
		AudioTokens              *int64 `json:"audio_tokens"`
		AcceptedPredictionTokens *int64 `json:"accepted_prediction_tokens"`
		RejectedPredictionTokens *int64 `json:"rejected_prediction_tokens"`
	} `json:"completion_tokens_details"`
}

func (u *chatUsage) buckets(d *decoder) Buckets {
	in := d.need("/prompt_tokens", u.PromptTokens)
	out := d.need("/completion_tokens", u.CompletionTokens)
	total := d.need("/total_tokens", u.TotalTokens)
	var cached, reasoning int64
	if p := u.PromptTokensDetails; p == nil {
		d.need("/prompt_tokens_details", nil)
	} else {
		cached = d.need("/prompt_tokens_details/cached_tokens", p.CachedTokens)
		if d.opt("/prompt_tokens_details/audio_tokens", p.AudioTokens) > 0 {
			d.modifier("/prompt_tokens_details/audio_tokens", "audio input tokens")
		}
	}
	if c := u.CompletionTokensDetails; c == nil {
		d.need("/completion_tokens_details", nil)
	} else {
		reasoning = d.need("/completion_tokens_details/reasoning_tokens", c.ReasoningTokens)
		if d.opt("/completion_tokens_details/audio_tokens", c.AudioTokens) > 0 {
			d.modifier("/completion_tokens_details/audio_tokens", "audio output tokens")
		}
		// Predicted-output tokens are inside completion_tokens and billed as output.
		d.opt("/completion_tokens_details/accepted_prediction_tokens", c.AcceptedPredictionTokens)
		d.opt("/completion_tokens_details/rejected_prediction_tokens", c.RejectedPredictionTokens)
	}
	return inclusive(d, inclusiveMeter{
		in: in, cached: cached, out: out, reasoning: reasoning, total: total,
		inPtr: "/prompt_tokens", cachedPtr: "/prompt_tokens_details/cached_tokens",
		outPtr: "/completion_tokens", reasoningPtr: "/completion_tokens_details/reasoning_tokens", totalPtr: "/total_tokens",
	})
}

// inclusiveMeter is an OpenAI-style meter: cached (and cache writes) inside
// input, reasoning inside output, total = input + output.
type inclusiveMeter struct {
	in, cached, write, out, reasoning, total         int64
	inPtr, cachedPtr, outPtr, reasoningPtr, totalPtr string
}

// inclusive subtracts the cached subset from the inclusive input exactly
// once and keeps reasoning inside output.
func inclusive(d *decoder, m inclusiveMeter) Buckets {
	d.subset(rules.CodeMeterCachedExceedsInput, m.cachedPtr, m.cached+m.write, m.inPtr, m.in)
	d.subset(rules.CodeMeterReasoningExceedsOut, m.reasoningPtr, m.reasoning, m.outPtr, m.out)
	d.total(m.totalPtr, m.total, "input + output", m.in, m.out)
	if d.invalid() {
		return Buckets{}
	}
	return Buckets{
		UncachedInput: m.in - m.cached - m.write,
		CachedInput:   m.cached,
		CacheWrite5m:  m.write,
		Output:        m.out,
		Reasoning:     m.reasoning,
	}
}

// anthropicUsage is the Anthropic Messages usage: input_tokens excludes
// cache reads and writes; cache_creation_input_tokens is split by TTL in
// cache_creation (required whenever writes are non-zero); output_tokens
// includes thinking. There is no total. A non-standard service tier, a
// regional inference geo or server-tool requests are unsupported modifiers.
type anthropicUsage struct {
	InputTokens              *int64 `json:"input_tokens"`
	OutputTokens             *int64 `json:"output_tokens"`
	CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int64 `json:"cache_read_input_tokens"`
	CacheCreation            *struct {
		Ephemeral5m *int64 `json:"ephemeral_5m_input_tokens"`
		Ephemeral1h *int64 `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
	ServerToolUse *struct {
		WebSearchRequests *int64 `json:"web_search_requests"`
		WebFetchRequests  *int64 `json:"web_fetch_requests"`
	} `json:"server_tool_use"`
	ServiceTier         *string `json:"service_tier"`
	InferenceGeo        *string `json:"inference_geo"`
	OutputTokensDetails *struct {
		ThinkingTokens *int64 `json:"thinking_tokens"`
	} `json:"output_tokens_details"`
}

func (u *anthropicUsage) buckets(d *decoder) Buckets {
	b := Buckets{
		UncachedInput: d.need("/input_tokens", u.InputTokens),
		CachedInput:   d.need("/cache_read_input_tokens", u.CacheReadInputTokens),
		Output:        d.need("/output_tokens", u.OutputTokens),
	}
	creation := d.need("/cache_creation_input_tokens", u.CacheCreationInputTokens)
	if c := u.CacheCreation; c != nil {
		b.CacheWrite5m = d.need("/cache_creation/ephemeral_5m_input_tokens", c.Ephemeral5m)
		b.CacheWrite1h = d.need("/cache_creation/ephemeral_1h_input_tokens", c.Ephemeral1h)
	}
	if !d.badCount && b.CacheWrite5m+b.CacheWrite1h != creation {
		d.add(rules.CodeMeterCacheBreakdown, "/cache_creation",
			"cache_creation by TTL is missing or does not sum to cache_creation_input_tokens.")
	}
	if t := u.OutputTokensDetails; t != nil {
		b.Reasoning = d.need("/output_tokens_details/thinking_tokens", t.ThinkingTokens)
		d.subset(rules.CodeMeterReasoningExceedsOut, "/output_tokens_details/thinking_tokens", b.Reasoning, "/output_tokens", b.Output)
	}
	anthropicModifiers(d, u)
	if d.invalid() {
		return Buckets{}
	}
	return b
}

func anthropicModifiers(d *decoder, u *anthropicUsage) {
	if s := u.ServerToolUse; s != nil {
		if d.opt("/server_tool_use/web_search_requests", s.WebSearchRequests)+
			d.opt("/server_tool_use/web_fetch_requests", s.WebFetchRequests) > 0 {
			d.modifier("/server_tool_use", "server tool requests")
		}
	}
	if u.ServiceTier != nil && *u.ServiceTier != "standard" {
		d.modifier("/service_tier", "a non-standard service tier")
	}
	if g := u.InferenceGeo; g != nil && *g != "" && *g != "global" && *g != "not_available" {
		d.modifier("/inference_geo", "a regional inference geo")
	}
}

// geminiUsage is the Gemini usageMetadata (camelCase, proto3 JSON: zero
// counts may be omitted, so only prompt, candidates and total are
// required). cachedContentTokenCount ⊂ promptTokenCount;
// thoughtsTokenCount is outside candidatesTokenCount and billed as output;
// toolUsePromptTokenCount is further input; total = prompt + candidates +
// thoughts + toolUsePrompt. Per-modality details are informational.
type geminiUsage struct {
	PromptTokenCount           *int64         `json:"promptTokenCount"`
	CachedContentTokenCount    *int64         `json:"cachedContentTokenCount"`
	CandidatesTokenCount       *int64         `json:"candidatesTokenCount"`
	ThoughtsTokenCount         *int64         `json:"thoughtsTokenCount"`
	ToolUsePromptTokenCount    *int64         `json:"toolUsePromptTokenCount"`
	TotalTokenCount            *int64         `json:"totalTokenCount"`
	PromptTokensDetails        jsontext.Value `json:"promptTokensDetails"`
	CacheTokensDetails         jsontext.Value `json:"cacheTokensDetails"`
	CandidatesTokensDetails    jsontext.Value `json:"candidatesTokensDetails"`
	ToolUsePromptTokensDetails jsontext.Value `json:"toolUsePromptTokensDetails"`
	TrafficType                *string        `json:"trafficType"`
}

func (u *geminiUsage) buckets(d *decoder) Buckets {
	prompt := d.need("/promptTokenCount", u.PromptTokenCount)
	cached := d.opt("/cachedContentTokenCount", u.CachedContentTokenCount)
	candidates := d.need("/candidatesTokenCount", u.CandidatesTokenCount)
	thoughts := d.opt("/thoughtsTokenCount", u.ThoughtsTokenCount)
	toolUse := d.opt("/toolUsePromptTokenCount", u.ToolUsePromptTokenCount)
	total := d.need("/totalTokenCount", u.TotalTokenCount)
	d.subset(rules.CodeMeterCachedExceedsInput, "/cachedContentTokenCount", cached, "/promptTokenCount", prompt)
	d.total("/totalTokenCount", total, "prompt + candidates + thoughts + toolUsePrompt", prompt, candidates, thoughts, toolUse)
	if t := u.TrafficType; t != nil && *t != "ON_DEMAND" {
		d.modifier("/trafficType", "a traffic type other than ON_DEMAND")
	}
	if d.invalid() {
		return Buckets{}
	}
	return Buckets{
		UncachedInput: prompt - cached + toolUse,
		CachedInput:   cached,
		Output:        candidates + thoughts,
		Reasoning:     thoughts,
	}
}
