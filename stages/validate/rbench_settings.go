package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Recorded settings (rule G6: "Bind reviewer identity to prompt/skill
// hashes, code, model route, generation settings and tool limits"): every
// dispatched review receipt records the generation settings it ran with,
// and they are its profile's frozen ones in its model stratum
// (benchmark.profiles).

// checkSettings compares one dispatched review receipt's recorded
// settings with its profile's frozen ones in stratum model.
func (b *bench) checkSettings(r *tables.Receipt, line int64, model, profile string) {
	if r.Status == tables.StatusNotDispatched {
		return
	}
	p := b.c.Manifest.Benchmark.Profile(profile, model)
	if p == nil || p.Settings == nil {
		return // the profile is unpinned: benchmark_profile_unpinned says so once
	}
	reject := func(code rules.Code, ptr, format string, args ...any) {
		b.add(code, rules.Reject, receiptsFile, line, ptr, r.SessionID, format, args...)
	}
	b.checkToolCalls(r, line, model, profile, p.ToolLimits)
	if r.Settings == nil {
		reject(rules.CodeRbenchSettingsUnrecorded, "/settings", "the review receipt records no generation settings, so it cannot be shown to have run with profile %s's frozen ones in model stratum %s (%s); record them in the receipt's settings (an import fills them from an Inspect log's generate config)",
			profile, model, settingsJSON(p.Settings))
		return
	}
	if got, want := r.Identity.ReasoningEffort, p.Settings.ReasoningEffort; got != nil && want != nil && !strings.EqualFold(strings.TrimSpace(*got), strings.TrimSpace(*want)) {
		reject(rules.CodeRbenchSettingsMismatch, "/identity/reasoning_effort", "the provider reports reasoning effort %q for the session, but profile %s's frozen setting in model stratum %s is %q",
			*got, profile, model, *want)
	}
	if !r.Settings.Equal(p.Settings) {
		reject(rules.CodeRbenchSettingsMismatch, "/settings", "the session ran with generation settings %s, but profile %s's frozen ones in model stratum %s are %s (differing: %s)",
			settingsJSON(r.Settings), profile, model, settingsJSON(p.Settings), strings.Join(settingsDiff(r.Settings, p.Settings), ", "))
	}
}

func settingsJSON(s *tables.GenerationSettings) string {
	b, err := json.Marshal(s)
	if err != nil {
		return "?"
	}
	return string(b)
}

// settingsDiff names the members in which two settings differ.
func settingsDiff(a, b *tables.GenerationSettings) []string {
	var out []string
	one := func(name string, x, y *tables.GenerationSettings) {
		if !x.Equal(y) {
			out = append(out, name)
		}
	}
	pick := func(s *tables.GenerationSettings, name string) *tables.GenerationSettings {
		switch name {
		case "temperature":
			return &tables.GenerationSettings{Temperature: s.Temperature}
		case "top_p":
			return &tables.GenerationSettings{TopP: s.TopP}
		case "max_output_tokens":
			return &tables.GenerationSettings{MaxOutputTokens: s.MaxOutputTokens}
		case "reasoning_effort":
			return &tables.GenerationSettings{ReasoningEffort: s.ReasoningEffort}
		}
		return &tables.GenerationSettings{Seed: s.Seed}
	}
	for _, name := range []string{"temperature", "top_p", "max_output_tokens", "reasoning_effort", "seed"} {
		one(name, pick(a, name), pick(b, name))
	}
	if len(out) == 0 {
		out = append(out, "none")
	}
	return out
}

// checkToolCalls compares the tool calls a review receipt records with
// its profile's frozen tool limits: at most max_calls calls, each of a
// listed tool when tools are listed.
func (b *bench) checkToolCalls(r *tables.Receipt, line int64, model, profile string, lim *tables.ToolLimits) {
	if lim == nil || lim.MaxCalls == nil {
		return // unpinned: benchmark_profile_unpinned says so
	}
	if n := int64(len(r.ToolCalls)); n > *lim.MaxCalls {
		b.add(rules.CodeRbenchToolLimitExceeded, rules.Reject, receiptsFile, line, "/tool_calls", r.SessionID,
			"the session made %d tool calls, more than profile %s's frozen limit of %d in model stratum %s", n, profile, *lim.MaxCalls, model)
	}
	if len(lim.Tools) == 0 {
		return
	}
	for i, c := range r.ToolCalls {
		if !slices.Contains(lim.Tools, c.Name) {
			b.add(rules.CodeRbenchToolLimitExceeded, rules.Reject, receiptsFile, line, fmt.Sprintf("/tool_calls/%d/name", i), r.SessionID,
				"the session called tool %q, which is none of profile %s's frozen tools %q in model stratum %s", clipLabel(c.Name), profile, lim.Tools, model)
			return
		}
	}
}
