package account

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
)

// Shapes written by `evalgate import` for sources whose session usage is
// not one provider response (docs/import.md).

// buckets normalises a codex.total_token_usage meter: one Codex CLI
// TokenUsage, the final total_token_usage of a rollout that began with its
// first turn, i.e. the whole session's usage. The importer never sums
// running totals; this shape is the one running total that is the
// session's own. cached (and cache writes) ⊂ input, reasoning ⊂ output,
// total = input + output.
func (u *codexTokenUsage) buckets(d *decoder) Buckets {
	return inclusive(d, u.counts(d, "").meter(""))
}

// harborUsage is a Harbor trial's agent_result (AgentContext) token
// members: n_input_tokens includes n_cache_tokens (cache reads);
// n_output_tokens is billed output. Harbor reports no cache writes and no
// reasoning split. cost_usd is the agent's own float figure: ignored here
// (cost is recomputed from the buckets); the importer reads it exactly as
// the actual charge only when the mapping says so.
type harborUsage struct {
	NInputTokens  *int64         `json:"n_input_tokens"`
	NCacheTokens  *int64         `json:"n_cache_tokens"`
	NOutputTokens *int64         `json:"n_output_tokens"`
	CostUSD       jsontext.Value `json:"cost_usd"`
}

func (u *harborUsage) buckets(d *decoder) Buckets {
	in := d.need("/n_input_tokens", u.NInputTokens)
	cached := d.opt("/n_cache_tokens", u.NCacheTokens)
	out := d.need("/n_output_tokens", u.NOutputTokens)
	d.subset(rules.CodeMeterCachedExceedsInput, "/n_cache_tokens", cached, "/n_input_tokens", in)
	if d.invalid() {
		return Buckets{}
	}
	return Buckets{UncachedInput: in - cached, CachedInput: cached, Output: out}
}
