package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Provider pins and tool calls of a system comparison (rules P1, P2;
// contract #741 §6 and COMPARATOR-SELECTION). Each system (arm) pins its
// provider in design.arms[].provider: identity (package, version, commit,
// integrity, the hash of the advertised tool schemas), configuration
// (settings, read_only, modes) and the tools the investigator may call
// (the host's ordinary tools, the same for every system, and the
// provider's MCP allowlists).
//
// Readings:
//   - A missing pin or an empty identity in it is a missing identity
//     (provider_pin_missing, rejecting): "missing fields fail admission"
//     (§7), never filled in.
//   - Under the contract's preset (system-comparison-v1) each pin must be
//     the contract's provider of its comparator role
//     (tables.ContractProvider): "a configuration mismatch stops
//     admission" (§6), so a different one is a record defect
//     (provider_pin_mismatch). Package integrity, the tool-schema hash and
//     the ordinary tool names are the record's own (the contract names no
//     value), but the ordinary tools must be the same for every system.
//   - Whatever the preset, no allowlist may expose a denied tool
//     (provider_tool_denied): §6 denies shell commands, edits, memories,
//     onboarding and dynamic tool expansion outright.
//   - A tool call of an investigation or a cold setup outside its system's
//     allowlist is an undeclared permission, one of the seed's
//     infrastructure invalidities (§5): the session is invalid
//     (provider_tool_not_allowed), rejecting unless its slot was replaced
//     within the allowance. The review has no tools at all; its calls are
//     checked elsewhere.

// ProviderFindings checks every arm's provider pin against the campaign
// kind, the contract and the deny list; findings point into the manifest.
func ProviderFindings(m *tables.Manifest) rules.Findings {
	var out rules.Findings
	add := func(code rules.Code, i int, ptr, format string, args ...any) {
		out = append(out, rules.Finding{Code: code, Severity: rules.Reject, File: manifestFile,
			Pointer: fmt.Sprintf("/design/arms/%d/provider%s", i, ptr), Message: fmt.Sprintf(format, args...) + "."})
	}
	if m.Kind != rules.KindSystemComparison {
		for i, a := range m.Design.Arms {
			if a.Provider != nil {
				add(rules.CodeProviderUnexpected, i, "", "arm %q pins a provider, but only the systems of a system comparison have one", a.ID)
			}
		}
		return out
	}
	contract := m.GatePolicy.Preset == string(rules.PresetSystemComparison)
	var ordinary []string
	ordinaryFrom := -1
	for i, a := range m.Design.Arms {
		p := a.Provider
		if p == nil {
			add(rules.CodeProviderPinMissing, i, "", "system %q pins no provider: its identity, configuration and tool allowlists must be in the manifest before any session", a.ID)
			continue
		}
		for _, miss := range missingPins(p) {
			add(rules.CodeProviderPinMissing, i, "/"+miss, "system %q leaves its provider's %s empty: a missing identity, never filled in", a.ID, miss)
		}
		for j, list := range [][]string{p.MCPTools, p.ProjectTools} {
			field := []string{"mcp_tools", "project_tools"}[j]
			for k, name := range list {
				if slices.Contains(tables.DeniedProviderTools, name) {
					add(rules.CodeProviderToolDenied, i, fmt.Sprintf("/%s/%d", field, k), "system %q exposes %q, a denied tool (shell commands, edits, memories, onboarding and mode or project switching are never exposed)", a.ID, name)
				}
			}
		}
		if ordinaryFrom < 0 {
			ordinary, ordinaryFrom = sortedCopy(p.OrdinaryTools), i
		} else if !slices.Equal(sortedCopy(p.OrdinaryTools), ordinary) {
			add(rules.CodeProviderPinMismatch, i, "/ordinary_tools", "system %q's ordinary tools %v differ from system %q's %v: the host's ordinary tools are the same for every system", a.ID, p.OrdinaryTools, m.Design.Arms[ordinaryFrom].ID, ordinary)
		}
		if !contract {
			continue
		}
		want, ok := tables.ContractProvider(a.ComparatorRole)
		if !ok {
			continue // the comparator roles are checked by the loader
		}
		for _, d := range pinDiffs(p, &want) {
			add(rules.CodeProviderPinMismatch, i, "/"+d.field, "system %q (%s) has %s %s, but preset %s freezes %s", a.ID, a.ComparatorRole, d.field, d.got, m.GatePolicy.Preset, d.want)
		}
	}
	return out
}

// missingPins lists the identities of p that are empty or a placeholder.
// Native (no MCP provider) has no package, commit, integrity or tool
// schemas; every other provider must name them all and expose at least
// one MCP tool.
func missingPins(p *tables.Provider) []string {
	var out []string
	if len(p.OrdinaryTools) == 0 {
		out = append(out, "ordinary_tools")
	}
	if p.Name == tables.ProviderNative {
		return out
	}
	for _, f := range []struct{ name, v string }{
		{"package", p.Package}, {"version", p.Version}, {"commit", p.Commit},
		{"package_integrity", p.PackageIntegrity}, {"tools_sha256", p.ToolsSHA256},
	} {
		if strings.TrimSpace(f.v) == "" || tables.PlaceholderIdentity(f.v) {
			out = append(out, f.name)
		}
	}
	if len(p.MCPTools) == 0 {
		out = append(out, "mcp_tools")
	}
	return out
}

type pinDiff struct{ field, got, want string }

// pinDiffs lists the frozen fields where p differs from the contract's
// want; lists compare as sets (sorted), settings by name and value.
func pinDiffs(p, want *tables.Provider) []pinDiff {
	var out []pinDiff
	str := func(field, got, w string) {
		if got != w {
			out = append(out, pinDiff{field, fmt.Sprintf("%q", got), fmt.Sprintf("%q", w)})
		}
	}
	list := func(field string, got, w []string) {
		if g, ww := sortedCopy(got), sortedCopy(w); !slices.Equal(g, ww) {
			out = append(out, pinDiff{field, fmt.Sprint(g), fmt.Sprint(ww)})
		}
	}
	str("name", p.Name, want.Name)
	str("package", p.Package, want.Package)
	str("version", p.Version, want.Version)
	str("commit", p.Commit, want.Commit)
	list("settings", settingStrings(p.Settings), settingStrings(want.Settings))
	list("mcp_tools", p.MCPTools, want.MCPTools)
	list("project_tools", p.ProjectTools, want.ProjectTools)
	if p.ReadOnly != want.ReadOnly {
		out = append(out, pinDiff{"read_only", fmt.Sprint(p.ReadOnly), fmt.Sprint(want.ReadOnly)})
	}
	list("modes", p.Modes, want.Modes)
	return out
}

func settingStrings(s []tables.ProviderSetting) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.Name + "=" + x.Value
	}
	return out
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// providerToolCalls applies rule P2 to one investigation or preparation
// receipt: every tool call must be in its system's allowlist. It reports
// whether a call is outside it (the session is then invalid).
func (v *runner) providerToolCalls(sr *sessionResult, r *tables.Receipt, arm tables.Arm) bool {
	p := arm.Provider
	if p == nil || (r.Role != tables.RoleInvestigation && r.Role != tables.RolePreparation) {
		return false
	}
	var outside []string
	for _, c := range r.ToolCalls {
		allowed := p.OrdinaryTools
		if c.Kind == "mcp" {
			allowed = p.MCPTools
		}
		if !slices.Contains(allowed, c.Name) {
			outside = append(outside, fmt.Sprintf("%s %q", c.Kind, c.Name))
		}
	}
	if len(outside) == 0 {
		return false
	}
	v.addReceipt(sr, rules.CodeProviderToolNotAllowed, fmt.Sprintf("The %s of system %q called %s, outside the system's pinned allowlist: an undeclared permission, so the execution is invalid.", r.Role, arm.ID, strings.Join(outside, ", ")))
	return true
}
