package rules

// Codes of the system comparison's provider pins and design (rules P1,
// P2 and P3; contract #741 §6 and COMPARATOR-SELECTION), emitted by
// stages/validate.
const (
	CodeProviderPinMissing     Code = "provider_pin_missing"
	CodeProviderPinMismatch    Code = "provider_pin_mismatch"
	CodeProviderToolDenied     Code = "provider_tool_denied"
	CodeProviderUnexpected     Code = "provider_unexpected"
	CodeProviderToolNotAllowed Code = "provider_tool_not_allowed"
	CodeSystemDesignMismatch   Code = "system_design_mismatch"
)

var providerCodes = []CodeDoc{
	{CodeProviderPinMissing, "validate", "P1", "A system of a system comparison has no provider pin, or its pin leaves an identity empty (package, version, commit, package integrity, advertised tool-schema hash, ordinary tools, or a provider's MCP allowlist): a missing identity, never filled in."},
	{CodeProviderPinMismatch, "validate", "P1", "A provider pin differs from the contract's frozen provider of its role under system-comparison-v1 (Madar 0.32.1 at 06b373a with MADAR_TOOL_PROFILE=core and its core allowlist; Serena 13ac8c5 with its seven-tool global and project allowlists, read_only, planning and no-memories), or the systems do not share the same ordinary tools."},
	{CodeProviderToolDenied, "validate", "P1", "A provider allowlist exposes a denied tool: arbitrary shell commands, edits, memories, onboarding, mode or project switching."},
	{CodeProviderUnexpected, "validate", "P1", "An arm pins a provider although the campaign kind is not system-comparison."},
	{CodeProviderToolNotAllowed, "validate", "P2", "An investigation or cold setup recorded a tool call outside its system's pinned allowlist (an ordinary tool not in ordinary_tools, an MCP tool not in mcp_tools): an undeclared permission, so the execution is invalid and counts against the replacement allowance."},
	{CodeSystemDesignMismatch, "validate", "P3", "A system comparison judged by system-comparison-v1 is not the contract's design: three systems (baseline, candidate, comparator), six evaluation tasks in three repositories with two tasks each, two repetitions, 72 planned sessions."},
}
