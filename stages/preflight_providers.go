package stages

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// providerItems is the provider section of the checklist of a system
// comparison (rule P1): for each system, its pin (identity, configuration
// and allowlists, checked by validate's provider rules) and what must be
// verified on the running provider before scored use, which no offline
// record can establish (contract #741 §6 and COMPARATOR-SELECTION: the
// actual exposed tools, the loaded configuration, a real tool call and
// unchanged source). A verification item is ok when the pin it compares
// against is; its detail is the runner's list.
func providerItems(m *tables.Manifest) []*checkItem {
	if m.Kind != rules.KindSystemComparison {
		return nil
	}
	var out []*checkItem
	for i, a := range m.Design.Arms {
		ptr := fmt.Sprintf("/design/arms/%d/provider", i)
		pin := manifestItem("provider "+a.ID+" pin", ptr, "")
		verify := &checkItem{item: tables.PreflightItem{Item: "provider " + a.ID + " verified before scored use", File: manifestFile, Pointer: ptr},
			claims: func(rules.Finding) bool { return false }, deps: []*checkItem{pin}}
		if p := a.Provider; p != nil {
			pin.ok = pinText(p)
			verify.ok = "to verify on the running provider: " + strings.Join(providerChecks(p), "; ")
		}
		out = append(out, pin, verify)
	}
	return out
}

// pinText is a provider pin in one line.
func pinText(p *tables.Provider) string {
	parts := []string{p.Name}
	if p.Package != "" {
		parts = append(parts, fmt.Sprintf("%s %s at %s", p.Package, p.Version, p.Commit))
	}
	var settings []string
	for _, s := range p.Settings {
		settings = append(settings, s.Name+"="+s.Value)
	}
	if len(settings) > 0 {
		parts = append(parts, strings.Join(settings, ", "))
	}
	parts = append(parts, fmt.Sprintf("ordinary tools [%s]", strings.Join(p.OrdinaryTools, " ")))
	if len(p.MCPTools) > 0 {
		parts = append(parts, fmt.Sprintf("MCP tools [%s]", strings.Join(p.MCPTools, " ")))
	}
	if len(p.ProjectTools) > 0 {
		parts = append(parts, fmt.Sprintf("project tools [%s]", strings.Join(p.ProjectTools, " ")))
	}
	parts = append(parts, fmt.Sprintf("read_only %t", p.ReadOnly))
	if len(p.Modes) > 0 {
		parts = append(parts, fmt.Sprintf("modes [%s]", strings.Join(p.Modes, " ")))
	}
	return strings.Join(parts, "; ")
}

// providerChecks are the verifications the contract requires of a
// provider before any scored task.
func providerChecks(p *tables.Provider) []string {
	out := []string{"the ordinary tools offered are exactly the pinned ones, and no MCP resources, prompts or completions pass the client boundary uncounted"}
	if p.Name == tables.ProviderNative {
		return append(out, "no MCP server is connected")
	}
	out = append(out,
		fmt.Sprintf("the installed package's integrity is %s", p.PackageIntegrity),
		fmt.Sprintf("the MCP tool schemas the server advertises hash to %s and name exactly the %d pinned tools", p.ToolsSHA256, len(p.MCPTools)),
		"a real call of a pinned tool succeeds on an unrelated synthetic smoke fixture",
		"the source snapshot is unchanged after the call and generated indexes live in an isolated writable cache",
		"the resolved runtimes and compiler (TypeScript version and where it comes from) are recorded")
	switch p.Name {
	case tables.ProviderSerena:
		out = append(out, "the loaded configuration is the pinned one: active project, LSP backend, modes, read_only, fresh SERENA_HOME and external project data (no in-repository .serena fallback), no memories or onboarding")
	case tables.ProviderMadar:
		out = append(out, "MADAR_TOOL_PROFILE=core is in effect, with the pre-generated graph, no auto-refresh and no optional embedding or rerank download")
	}
	return out
}
