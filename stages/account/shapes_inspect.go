package account

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
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
	return u.inclusiveWith(d, false)
}

// googleBuckets normalises an inspect.model_usage.google meter (a Google
// model's usage written by inspect_ai before 0.3.208): as the inclusive
// shape, except that the total's excess over input + output is counted as
// the provider reports it. Inspect copied Gemini's promptTokenCount (cache
// reads inside) to input_tokens and candidatesTokenCount to output_tokens,
// and totalTokenCount, which also counts thoughtsTokenCount (and the
// rarely used toolUsePromptTokenCount), to total_tokens. The excess is
// thinking, which Gemini bills at the output rate: it is added to output,
// and reasoning is the larger of reasoning_tokens and the excess. Tool-use prompt tokens, billed as input, would so be
// priced at the output rate: an over-estimate, never an under-count.
//
// An inspect.model_usage.declared_hidden_output meter is normalised the
// same way: it is an inclusive meter whose excess the user declared, when
// importing, to be hidden reasoning billed at the output rate.
func (u *inspectUsage) googleBuckets(d *decoder) Buckets {
	return u.inclusiveWith(d, true)
}

// inclusiveWith normalises an inclusive meter; thoughts says whether a
// total above input + output is thinking (Google) or hidden tokens.
func (u *inspectUsage) inclusiveWith(d *decoder, thoughts bool) Buckets {
	in := d.need("/input_tokens", u.InputTokens)
	out := d.need("/output_tokens", u.OutputTokens)
	total := d.need("/total_tokens", u.TotalTokens)
	read := d.opt("/input_tokens_cache_read", u.InputTokensCacheRead)
	write := d.opt("/input_tokens_cache_write", u.InputTokensCacheWrite)
	reasoning := d.opt("/reasoning_tokens", u.ReasoningTokens)
	if thoughts && !d.badCount && total > in+out {
		gap := total - in - out
		out, reasoning = out+gap, max(reasoning, gap) // a log may also name the thoughts in reasoning_tokens
	}
	if !d.badCount && total > in+out {
		d.add(rules.CodeMeterHiddenTokens, "/total_tokens",
			fmt.Sprintf("\"/total_tokens\" is %d but input + output is %d: the meter hides %d tokens it does not attribute to any bucket, "+
				"and this provider's logs declare no convention for them (only a Google model's thinking is counted, as shape %s); "+
				"if the provider bills them as hidden reasoning at the output rate, declare it with `evalgate import inspect --hidden-tokens output` (shape %s), "+
				"otherwise the meter cannot be priced, so leave the log out or import the provider's own usage.",
				total, in+out, total-in-out, tables.ShapeInspectGoogle, tables.ShapeInspectDeclaredHidden))
		return Buckets{}
	}
	return inclusive(d, inclusiveMeter{
		in: in, cached: read, write: write, out: out, reasoning: reasoning, total: total,
		inPtr: "/input_tokens", cachedPtr: "/input_tokens_cache_read",
		outPtr: "/output_tokens", reasoningPtr: "/reasoning_tokens", totalPtr: "/total_tokens",
	})
}
