package account

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
)

// inspectUsage is Inspect AI's ModelUsage (notes/receipts.md §2.6). Its
// members are the same under both of Inspect's semantics; what they mean
// depends on the inspect_ai version and provider that wrote the log, so
// the receipt names the semantics in its shape:
//
//   - inspect.model_usage (inspect_ai ≥ 0.3.184, and Anthropic always):
//     input_tokens excludes cache reads and writes; total_tokens = input +
//     cache read + cache write + output.
//   - inspect.model_usage.inclusive (inspect_ai < 0.3.184 for OpenAI and
//     Grok, < 0.3.208 for Google): input_tokens includes the cache reads
//     (and writes, if any); total_tokens = input + output.
//
// Under both, reasoning_tokens ⊂ output_tokens, cache writes (TTL unknown)
// are billed as 5-minute writes, and total_cost (a float) is ignored: cost
// is recomputed exactly from the buckets.
type inspectUsage struct {
	InputTokens           *int64         `json:"input_tokens"`
	OutputTokens          *int64         `json:"output_tokens"`
	TotalTokens           *int64         `json:"total_tokens"`
	InputTokensCacheWrite *int64         `json:"input_tokens_cache_write"`
	InputTokensCacheRead  *int64         `json:"input_tokens_cache_read"`
	ReasoningTokens       *int64         `json:"reasoning_tokens"`
	TotalCost             jsontext.Value `json:"total_cost"`
}

// buckets normalises an inspect.model_usage meter (exclusive input).
func (u *inspectUsage) buckets(d *decoder) Buckets {
	b := Buckets{
		UncachedInput: d.need("/input_tokens", u.InputTokens),
		CachedInput:   d.opt("/input_tokens_cache_read", u.InputTokensCacheRead),
		CacheWrite5m:  d.opt("/input_tokens_cache_write", u.InputTokensCacheWrite),
		Output:        d.need("/output_tokens", u.OutputTokens),
		Reasoning:     d.opt("/reasoning_tokens", u.ReasoningTokens),
	}
	total := d.need("/total_tokens", u.TotalTokens)
	d.subset(rules.CodeMeterReasoningExceedsOut, "/reasoning_tokens", b.Reasoning, "/output_tokens", b.Output)
	d.total("/total_tokens", total, "input + cache read + cache write + output",
		b.UncachedInput, b.CachedInput, b.CacheWrite5m, b.Output)
	if d.invalid() {
		return Buckets{}
	}
	return b
}

// inclusiveBuckets normalises an inspect.model_usage.inclusive meter: the
// cache reads and writes are subtracted from input_tokens exactly once.
// A total above input + output means the log hides tokens (a pre-0.3.208
// Gemini log leaves thinking out of output_tokens): the meter is refused
// rather than guessed, since the gap cannot be attributed to a bucket.
func (u *inspectUsage) inclusiveBuckets(d *decoder) Buckets {
	in := d.need("/input_tokens", u.InputTokens)
	out := d.need("/output_tokens", u.OutputTokens)
	total := d.need("/total_tokens", u.TotalTokens)
	read := d.opt("/input_tokens_cache_read", u.InputTokensCacheRead)
	write := d.opt("/input_tokens_cache_write", u.InputTokensCacheWrite)
	reasoning := d.opt("/reasoning_tokens", u.ReasoningTokens)
	if !d.badCount && total > in+out {
		d.add(rules.CodeMeterHiddenTokens, "/total_tokens",
			fmt.Sprintf("\"/total_tokens\" is %d but input + output is %d: the meter hides %d tokens it does not attribute to any bucket.",
				total, in+out, total-in-out))
		return Buckets{}
	}
	return inclusive(d, inclusiveMeter{
		in: in, cached: read, write: write, out: out, reasoning: reasoning, total: total,
		inPtr: "/input_tokens", cachedPtr: "/input_tokens_cache_read",
		outPtr: "/output_tokens", reasoningPtr: "/reasoning_tokens", totalPtr: "/total_tokens",
	})
}
