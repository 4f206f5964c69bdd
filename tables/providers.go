package tables

import "slices"

// Provider pins one system of a system comparison (rule P1): the evidence
// provider behind the agent, its identity and configuration, and the tools
// the investigator may call. It is the optional member
// design.arms[].provider, refused for every other kind; every system of a
// system comparison must have one. A value the record does not know is
// the empty string (or an empty list), which validate lists as missing,
// never fills in.
type Provider struct {
	// Name is the provider: native (the host's ordinary tools only),
	// madar or serena in the contract.
	Name string `json:"name"`
	// Package, Version and Commit are the published package, its version
	// and the 40-hex source commit; all empty for native.
	Package string `json:"package"`
	Version string `json:"version"`
	Commit  string `json:"commit"`
	// PackageIntegrity is the installed artifact's integrity string (an
	// npm "sha512-…" or the resolved environment's lock digest).
	PackageIntegrity string `json:"package_integrity"`
	// ToolsSHA256 is the sha256 of the advertised MCP tool schemas as
	// enumerated from the running server; empty for native.
	ToolsSHA256 string `json:"tools_sha256"`
	// Settings are the configuration the provider runs with, by name
	// (MADAR_TOOL_PROFILE=core; Serena's context and language backend),
	// sorted by name, names unique.
	Settings []ProviderSetting `json:"settings"`
	// OrdinaryTools are the host's ordinary read/search tools, the same
	// for every system.
	OrdinaryTools []string `json:"ordinary_tools"`
	// MCPTools is the provider's global allowlist: the MCP tools exposed
	// at connection time (Serena's global fixed_tools); empty for native.
	MCPTools []string `json:"mcp_tools"`
	// ProjectTools is the project allowlist (Serena's project
	// fixed_tools); empty when the provider has none.
	ProjectTools []string `json:"project_tools"`
	// ReadOnly says the provider may not edit the source.
	ReadOnly bool `json:"read_only"`
	// Modes are the provider's active modes (Serena: planning,
	// no-memories), sorted.
	Modes []string `json:"modes"`
}

// ProviderSetting is one named configuration value of a provider.
type ProviderSetting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Providers of the contract's system comparison (contract #741 §6).
const (
	ProviderNative = "native"
	ProviderMadar  = "madar"
	ProviderSerena = "serena"
)

// ContractProvider returns the provider the contract pins for a system of
// the given comparator role (§6 and COMPARATOR-SELECTION: Native the
// baseline, Madar stable core the candidate, Serena the comparator), or
// false. Package integrity, the tool-schema hash and the ordinary tools are
// the record's to pin (the contract names no value); everything else must
// be exactly this.
func ContractProvider(role string) (Provider, bool) {
	switch role {
	case ComparatorBaseline:
		return Provider{Name: ProviderNative, Settings: []ProviderSetting{}, MCPTools: []string{}, ProjectTools: []string{}, ReadOnly: true, Modes: []string{}}, true
	case ComparatorCandidate:
		return Provider{
			Name: ProviderMadar, Package: "@lubab/madar", Version: "0.32.1", Commit: "06b373a447acfce895412ac10eb4e5228c5df0b7",
			Settings: []ProviderSetting{{Name: "MADAR_TOOL_PROFILE", Value: "core"}},
			MCPTools: slices.Clone(MadarCoreTools), ProjectTools: []string{}, ReadOnly: true, Modes: []string{},
		}, true
	case ComparatorComparator:
		return Provider{
			Name: ProviderSerena, Package: "oraios/serena", Version: "1.7.1.dev0", Commit: "13ac8c5b1d51873bd148aea440dcb22f85d3a439",
			Settings: slices.Clone(serenaSettings),
			MCPTools: slices.Clone(SerenaTools), ProjectTools: slices.Clone(SerenaTools), ReadOnly: true, Modes: []string{"no-memories", "planning"},
		}, true
	}
	return Provider{}, false
}

// MadarCoreTools is Madar's frozen core allowlist (contract #741 §6).
var MadarCoreTools = []string{"call_chain", "community_overview", "graph_stats", "graph_summary", "impact", "pr_impact", "retrieve"}

// SerenaTools is Serena's exact seven-tool allowlist, global and project
// (COMPARATOR-SELECTION).
var SerenaTools = []string{"find_declaration", "find_implementations", "find_referencing_symbols", "find_symbol", "get_symbols_overview", "initial_instructions", "search_for_pattern"}

// serenaSettings is Serena's frozen configuration besides its allowlists
// and modes, sorted by name: the codex context, the LSP backend with the
// TypeScript language server, no activation command, no custom initial
// prompt, no excluded or optional tools, inherited base and default modes
// cleared (COMPARATOR-SELECTION).
var serenaSettings = []ProviderSetting{
	{Name: "activation_command", Value: ""},
	{Name: "base_modes", Value: ""},
	{Name: "context", Value: "codex"},
	{Name: "default_modes", Value: ""},
	{Name: "excluded_tools", Value: ""},
	{Name: "included_optional_tools", Value: ""},
	{Name: "initial_prompt", Value: ""},
	{Name: "language_backend", Value: "LSP"},
	{Name: "language_servers", Value: "typescript"},
}

// DeniedProviderTools are MCP tools no provider may expose (contract #741
// §6: arbitrary shell commands, edits, memories, implicit onboarding,
// dynamic tool expansion, mode and project switching), by the names the
// providers give them.
var DeniedProviderTools = []string{
	"activate_project", "check_onboarding_performed", "create_text_file", "delete_lines", "delete_memory",
	"edit_memory", "execute_shell_command", "insert_after_symbol", "insert_at_line", "insert_before_symbol",
	"list_memories", "onboarding", "prepare_for_new_conversation", "read_memory", "remove_project",
	"rename_symbol", "replace_content", "replace_lines", "replace_symbol_body", "safe_delete_symbol",
	"switch_modes", "write_memory",
}
