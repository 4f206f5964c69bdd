package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Frozen profile terms (rules I1, G6): the reviewer's identity binds its
// model route, generation settings and tool limits, and the baseline and
// the candidate are compared under the same pinned model, tools and
// budget. benchmark.profiles holds one entry per design profile × model
// stratum; each states its generation settings, tool limits and
// per-attempt budget, and within a stratum every profile's terms equal
// the first profile's.

// checkBenchmarkProfiles checks a reviewer benchmark's benchmark.profiles.
func checkBenchmarkProfiles(m *tables.Manifest) rules.Findings {
	plan := m.Benchmark
	if plan == nil {
		return nil
	}
	var out rules.Findings
	bad := func(code rules.Code, ptr, format string, args ...any) {
		out = append(out, rules.Finding{Code: code, Severity: rules.Reject, File: manifestFile, Pointer: ptr, Message: fmt.Sprintf(format, args...) + "."})
	}
	strata := append([]string{m.Identities.ReturnedModel}, plan.Models...)
	var arms []string
	for _, a := range m.Design.Arms {
		arms = append(arms, a.ID)
	}
	seen := map[[2]string]bool{}
	for i, p := range plan.Profiles {
		ptr := fmt.Sprintf("/benchmark/profiles/%d", i)
		key := [2]string{p.Profile, p.Model}
		switch {
		case !slices.Contains(arms, p.Profile):
			bad(rules.CodeRbenchProfileUnpinned, ptr+"/profile", "benchmark.profiles entry %d names profile %q, which is none of the design's profiles %q", i, p.Profile, arms)
			continue
		case !slices.Contains(strata, p.Model):
			bad(rules.CodeRbenchProfileUnpinned, ptr+"/model", "benchmark.profiles entry %d names model %q, which is no model stratum of the benchmark (identities.returned_model and benchmark.models: %q)", i, p.Model, strata)
			continue
		case seen[key]:
			bad(rules.CodeRbenchProfileUnpinned, ptr, "benchmark.profiles repeats profile %s in model stratum %s: each profile's terms are frozen once per stratum", p.Profile, p.Model)
			continue
		}
		seen[key] = true
		if missing := unpinned(&p); len(missing) > 0 {
			bad(rules.CodeRbenchProfileUnpinned, ptr, "profile %s in model stratum %s does not freeze its %s: the reviewer's identity binds its generation settings, tool limits and budget", p.Profile, p.Model, strings.Join(missing, ", "))
		}
	}
	for _, model := range strata {
		var first *tables.BenchmarkProfile
		for _, arm := range arms {
			p := plan.Profile(arm, model)
			if p == nil {
				bad(rules.CodeRbenchProfileUnpinned, "/benchmark/profiles", "profile %s has no frozen terms in model stratum %s: benchmark.profiles needs an entry with its generation settings, tool limits and per-attempt budget", arm, model)
				continue
			}
			if len(unpinned(p)) > 0 {
				continue
			}
			if first == nil {
				first = p
				continue
			}
			if diff := profileDiff(first, p); len(diff) > 0 {
				bad(rules.CodeRbenchProfilesUnequal, fmt.Sprintf("/benchmark/profiles/%d", slices.IndexFunc(plan.Profiles, func(q tables.BenchmarkProfile) bool { return q.Profile == arm && q.Model == model })),
					"in model stratum %s, profile %s is frozen with other %s than profile %s (%s): both profiles are compared under the same pinned model, tools and budget",
					model, p.Profile, strings.Join(diff, ", "), first.Profile, diffDetail(first, p))
			}
		}
	}
	return out
}

// unpinned lists what a profile entry does not freeze.
func unpinned(p *tables.BenchmarkProfile) []string {
	var missing []string
	if p.Settings == nil {
		missing = append(missing, "generation settings (settings)")
	}
	if p.ToolLimits == nil || p.ToolLimits.MaxCalls == nil || *p.ToolLimits.MaxCalls < 0 {
		missing = append(missing, "tool limits (tool_limits.max_calls)")
	}
	if b := p.Budget; b == nil || b.InputTokens < 1 || b.OutputTokens < 1 {
		missing = append(missing, "per-attempt budget (budget.input_tokens, budget.output_tokens, budget.cost)")
	} else if _, err := tables.ParseMoney(b.Cost); err != nil {
		missing = append(missing, fmt.Sprintf("per-attempt budget (budget.cost %q is no amount)", b.Cost))
	}
	return missing
}

// profileDiff names the members in which two profile entries differ.
func profileDiff(a, b *tables.BenchmarkProfile) []string {
	var diff []string
	if !a.Settings.Equal(b.Settings) {
		diff = append(diff, "generation settings")
	}
	if !a.ToolLimits.Equal(b.ToolLimits) {
		diff = append(diff, "tool limits")
	}
	if !a.Budget.Equal(b.Budget) {
		diff = append(diff, "budget")
	}
	return diff
}

// diffDetail shows both entries' differing members as JSON.
func diffDetail(a, b *tables.BenchmarkProfile) string {
	var parts []string
	show := func(name string, x, y any) {
		bx, _ := json.Marshal(x)
		by, _ := json.Marshal(y)
		parts = append(parts, fmt.Sprintf("%s %s %s, %s %s", name, a.Profile, bx, b.Profile, by))
	}
	if !a.Settings.Equal(b.Settings) {
		show("settings", a.Settings, b.Settings)
	}
	if !a.ToolLimits.Equal(b.ToolLimits) {
		show("tool_limits", a.ToolLimits, b.ToolLimits)
	}
	if !a.Budget.Equal(b.Budget) {
		show("budget", a.Budget, b.Budget)
	}
	return strings.Join(parts, "; ")
}
