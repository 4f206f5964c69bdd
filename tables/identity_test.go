package tables

import (
	"strings"
	"testing"
)

// TestPlaceholderIdentity: every value nobody records as an identity is a
// placeholder (refused like a missing one); real identities of the
// examples and the contract are not.
func TestPlaceholderIdentity(t *testing.T) {
	placeholders := []string{
		"", "   ", "TBD", "tbd", " Pending ", "pending", "unknown", "UNKNOWN", "n/a", "N/A", "na", "xxx", "XXXX",
		"todo", "TODO", "none", "null", "-", "---", "?", "???", "...", "…", "0", "0000", "0.0.0",
		"changeme", "placeholder", "fixme", "not set", "<model>", "{{cli_version}}", "${HOST}", "[host]", "%TOKENIZER%",
	}
	if len(placeholders) < 20 {
		t.Fatalf("only %d placeholders listed", len(placeholders))
	}
	for _, p := range placeholders {
		if !PlaceholderIdentity(p) {
			t.Errorf("%q is not taken for a placeholder", p)
		}
	}
	for _, real := range []string{
		"gpt-5.6-sol", "gpt-5.6-sol-2026-08-21", "0.149.0", "22.22.3", "3.13.7", "o200k_base", "synthetic-host-01",
		"linux-6.8-x86_64 (synthetic)", "read-only-no-tools-v1", "medium", "standard (fast mode disabled)",
		"anthropic/claude-sonnet-4-6", "repo2rlenv-0.9.3", "model-1", "read-only", "x86", "10", "22", "111", "nano",
	} {
		if PlaceholderIdentity(real) {
			t.Errorf("the identity %q is taken for a placeholder", real)
		}
	}
}

// TestPlaceholderHash: a digest made of a short block repeated is a
// placeholder; the examples' digests are not.
func TestPlaceholderHash(t *testing.T) {
	for _, p := range []string{
		strings.Repeat("0", 64), strings.Repeat("f", 64), strings.Repeat("7", 64), strings.Repeat("ab", 32),
		strings.Repeat("deadbeef", 8), strings.Repeat("01234567", 8), strings.Repeat("abc0", 16), strings.Repeat("A", 64),
		strings.Repeat("0123456789abcdef", 4),
	} {
		if !PlaceholderHash(p) {
			t.Errorf("%s is not taken for a placeholder hash", p)
		}
	}
	for _, real := range []string{
		"993edee2d6ac61144ffcb914ba65fb28802227873f84aeecc33281a044de5951",
		"7696311fa04a255e7e5a4ad9e6549bebcdd32bb1c313548529140589e0549876",
	} {
		if PlaceholderHash(real) {
			t.Errorf("%s is taken for a placeholder hash", real)
		}
	}
}
