package tables

import "strings"

// SameModel is the identity rule for model names (docs/format.md, "Model
// identities"): a returned model matches a pinned one when the two strings
// are equal, or when one of them is the other with one provider prefix in
// front ("anthropic/claude-3-5-haiku-20241022" and
// "claude-3-5-haiku-20241022"), the form Inspect AI and LiteLLM give model
// names. Two names that both carry a provider must agree on it; nothing
// else is normalised (no case folding, no snapshot dates), and receipts
// keep the raw strings.
func SameModel(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	provider, rest, ok := strings.Cut(a, "/")
	return ok && provider != "" && b != "" && rest == b
}
