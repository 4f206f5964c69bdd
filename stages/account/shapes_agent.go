package account

import (
	"fmt"

	"github.com/evalgate/evalgate/rules"
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
			d.add(rules.CodeMeterRunningTotalBelow, "/total_token_usage/"+p.name,
				fmt.Sprintf("The running total %s (%d) is below the last turn's (%d).", p.name, p.running, p.turn))
		}
	}
	return inclusive(d, last.meter("/last_token_usage"))
}
