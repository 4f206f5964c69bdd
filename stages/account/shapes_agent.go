package account

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/tables"
)

// codexUsage is the info object of a Codex CLI rollout token_count event
// (TokenUsageInfo): total_token_usage is the running total of the whole
// Codex conversation, last_token_usage the most recent model turn. The
// session is charged its per-turn figures (last_token_usage): an evalgate
// session is one model turn, and running totals are never summed or
// billed. total_token_usage is only checked: a running total can never be
// below its own last turn. Within each TokenUsage cached_input_tokens (and
// the optional cache_write_input_tokens) ⊂ input_tokens,
// reasoning_output_tokens ⊂ output_tokens, total_tokens = input + output.
type codexUsage struct {
	TotalTokenUsage    *codexTokenUsage `json:"total_token_usage"`
	LastTokenUsage     *codexTokenUsage `json:"last_token_usage"`
	ModelContextWindow *int64           `json:"model_context_window"`
}

type codexTokenUsage struct {
	InputTokens           *int64 `json:"input_tokens"`
	CachedInputTokens     *int64 `json:"cached_input_tokens"`
	CacheWriteInputTokens *int64 `json:"cache_write_input_tokens"`
	OutputTokens          *int64 `json:"output_tokens"`
	ReasoningOutputTokens *int64 `json:"reasoning_output_tokens"`
	TotalTokens           *int64 `json:"total_tokens"`
}

// codexCounts are one TokenUsage's decoded counts.
type codexCounts struct{ in, cached, write, out, reasoning, total int64 }

func (u *codexTokenUsage) counts(d *decoder, base string) codexCounts {
	if u == nil {
		d.need(base, nil)
		return codexCounts{}
	}
	return codexCounts{
		in:        d.need(base+"/input_tokens", u.InputTokens),
		cached:    d.need(base+"/cached_input_tokens", u.CachedInputTokens),
		write:     d.opt(base+"/cache_write_input_tokens", u.CacheWriteInputTokens),
		out:       d.need(base+"/output_tokens", u.OutputTokens),
		reasoning: d.need(base+"/reasoning_output_tokens", u.ReasoningOutputTokens),
		total:     d.need(base+"/total_tokens", u.TotalTokens),
	}
}

func (c codexCounts) meter(base string) inclusiveMeter {
	return inclusiveMeter{
		in: c.in, cached: c.cached, write: c.write, out: c.out, reasoning: c.reasoning, total: c.total,
		inPtr: base + "/input_tokens", cachedPtr: base + "/cached_input_tokens",
		outPtr: base + "/output_tokens", reasoningPtr: base + "/reasoning_output_tokens", totalPtr: base + "/total_tokens",
	}
}

func (u *codexUsage) buckets(d *decoder) Buckets {
	d.opt("/model_context_window", u.ModelContextWindow)
	running := u.TotalTokenUsage.counts(d, "/total_token_usage")
	last := u.LastTokenUsage.counts(d, "/last_token_usage")
	inclusive(d, running.meter("/total_token_usage"))
	pairs := []struct {
		name          string
		running, turn int64
	}{
		{"input_tokens", running.in, last.in},
		{"cached_input_tokens", running.cached, last.cached},
		{"cache_write_input_tokens", running.write, last.write},
		{"output_tokens", running.out, last.out},
		{"reasoning_output_tokens", running.reasoning, last.reasoning},
		{"total_tokens", running.total, last.total},
	}
	for _, p := range pairs {
		if !d.badCount && u.TotalTokenUsage != nil && u.LastTokenUsage != nil && p.running < p.turn {
			d.add(tables.CodeMeterRunningTotalBelow, "/total_token_usage/"+p.name,
				fmt.Sprintf("The running total %s (%d) is below the last turn's (%d).", p.name, p.running, p.turn))
		}
	}
	return inclusive(d, last.meter("/last_token_usage"))
}

// inspectUsage is Inspect AI's ModelUsage with inspect_ai ≥ 0.3.184
// semantics: input_tokens excludes cache reads and writes
// (input_tokens_cache_read, input_tokens_cache_write — TTL unknown, billed
// as 5-minute writes); reasoning_tokens ⊂ output_tokens; total_tokens =
// input + cache read + cache write + output. total_cost (a float) is
// ignored: cost is recomputed exactly from the buckets.
type inspectUsage struct {
	InputTokens           *int64         `json:"input_tokens"`
	OutputTokens          *int64         `json:"output_tokens"`
	TotalTokens           *int64         `json:"total_tokens"`
	InputTokensCacheWrite *int64         `json:"input_tokens_cache_write"`
	InputTokensCacheRead  *int64         `json:"input_tokens_cache_read"`
	ReasoningTokens       *int64         `json:"reasoning_tokens"`
	TotalCost             jsontext.Value `json:"total_cost"`
}

func (u *inspectUsage) buckets(d *decoder) Buckets {
	b := Buckets{
		UncachedInput: d.need("/input_tokens", u.InputTokens),
		CachedInput:   d.opt("/input_tokens_cache_read", u.InputTokensCacheRead),
		CacheWrite5m:  d.opt("/input_tokens_cache_write", u.InputTokensCacheWrite),
		Output:        d.need("/output_tokens", u.OutputTokens),
		Reasoning:     d.opt("/reasoning_tokens", u.ReasoningTokens),
	}
	total := d.need("/total_tokens", u.TotalTokens)
	d.subset(tables.CodeMeterReasoningExceedsOut, "/reasoning_tokens", b.Reasoning, "/output_tokens", b.Output)
	d.total("/total_tokens", total, "input + cache read + cache write + output",
		b.UncachedInput, b.CachedInput, b.CacheWrite5m, b.Output)
	if d.invalid() {
		return Buckets{}
	}
	return b
}
