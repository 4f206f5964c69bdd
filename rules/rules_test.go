package rules

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/golden"
)

var ruleIDSyntax = regexp.MustCompile(`^([A-Z][0-9]|C[0-9][0-9])$`)

// TestRulesWellFormed: IDs unique and well formed, one line of text each.
func TestRulesWellFormed(t *testing.T) {
	seen := map[RuleID]bool{}
	for _, r := range Rules() {
		if seen[r.ID] {
			t.Errorf("rule %s declared twice", r.ID)
		}
		seen[r.ID] = true
		if !ruleIDSyntax.MatchString(string(r.ID)) || r.Area == "" || r.Text == "" || strings.Contains(r.Text, "\n") {
			t.Errorf("rule %+v: want an ID like A6 or C09, an area and one line of text", r)
		}
	}
}

// TestGatesCiteRules: every gate and preset cites an existing rule, every
// preset gate is registered exactly once per preset, and every threshold
// is a plain decimal.
func TestGatesCiteRules(t *testing.T) {
	seen := map[GateName]bool{}
	for _, g := range Gates() {
		if seen[g.Name] {
			t.Errorf("gate %s declared twice", g.Name)
		}
		seen[g.Name] = true
		if _, ok := FindRule(g.Rule); !ok {
			t.Errorf("gate %s cites rule %q, which does not exist", g.Name, g.Rule)
		}
		if g.Compare != AtLeast && g.Compare != AtMost || g.Observed == "" {
			t.Errorf("gate %+v lacks a comparison or an observation", g)
		}
	}
	used := map[GateName]bool{}
	for _, p := range Presets() {
		if _, ok := FindRule(p.Rule); !ok {
			t.Errorf("preset %s cites rule %q, which does not exist", p.Name, p.Rule)
		}
		inPreset := map[GateName]bool{}
		for _, pg := range p.Gates {
			if _, ok := FindGate(pg.Gate); !ok || inPreset[pg.Gate] {
				t.Errorf("preset %s: gate %s unregistered or repeated", p.Name, pg.Gate)
			}
			inPreset[pg.Gate], used[pg.Gate] = true, true
			if !regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`).MatchString(pg.Threshold) {
				t.Errorf("preset %s gate %s threshold %q is not a plain decimal", p.Name, pg.Gate, pg.Threshold)
			}
		}
	}
	for g := range seen {
		if !used[g] {
			t.Errorf("gate %s belongs to no preset", g)
		}
	}
}

// TestCodesCiteRules: the rule column of every finding code names
// registered rules ("V3/C09" cites V3 and C09).
func TestCodesCiteRules(t *testing.T) {
	for _, c := range AllCodes() {
		for _, id := range strings.Split(c.Rule, "/") {
			if _, ok := FindRule(RuleID(id)); !ok {
				t.Errorf("code %s cites rule %q, which does not exist", c.Code, id)
			}
		}
	}
}

// TestRulesDoc keeps docs/rules.md generated from the registries. Refresh
// with go test ./rules -run TestRulesDoc -update.
func TestRulesDoc(t *testing.T) {
	golden.Check(t, "../docs/rules.md", []byte(rulesDoc()))
}

func rulesDoc() string {
	var b strings.Builder
	b.WriteString(`# Rules and gates

<!-- Generated from rules.Rules, rules.Gates and rules.Presets by "go test ./rules -run TestRulesDoc -update". Do not edit. -->

Every rule evalgate enforces, in its own words, with the gates that enforce
it (docs/errors.md lists the rule of every finding code). Code, tests,
finding codes, gates and controls (docs/controls.md) cite rules by these
IDs; a test fails when anything cites a rule that is not listed here, or
when a rule is enforced by no code, gate or control. Thresholds are
inclusive.
`)
	gatesOf := map[RuleID][]string{}
	for _, g := range Gates() {
		gatesOf[g.Rule] = append(gatesOf[g.Rule], "`"+string(g.Name)+"`")
	}
	area := ""
	for _, r := range Rules() {
		if r.Area != area {
			area = r.Area
			fmt.Fprintf(&b, "\n## %s\n\n| rule | statement | gates |\n|---|---|---|\n", area)
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r.ID, mdCell(r.Text), strings.Join(gatesOf[r.ID], " "))
	}
	b.WriteString("\n## The reviewer benchmark in its protocol's own words\n\nRules G6 and I8 restate the reviewer-benchmark protocol; each of its sentences below is enforced by the codes, gates and tables beside it.\n\n| rule | the protocol says | enforced by |\n|---|---|---|\n")
	for _, q := range RuleQuotes() {
		by := make([]string, len(q.By))
		for i, x := range q.By {
			by[i] = "`" + x + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", q.Rule, mdCell(q.Quote), strings.Join(by, " "))
	}
	b.WriteString("\n## Gates\n\nA gate passes when its observation meets the threshold; an unknown observation never passes.\n\n| gate | passes when observed | rule | observed |\n|---|---|---|---|\n")
	for _, g := range Gates() {
		fmt.Fprintf(&b, "| `%s` | %s threshold | %s | %s |\n", g.Name, g.Compare, g.Rule, mdCell(g.Observed))
	}
	b.WriteString(`
## Frozen presets (rule F1)

A manifest names its preset in ` + "`gate_policy.preset`" + `. A preset is the only
source of its numbers: every threshold, ceiling, the infrastructure
replacement allowance and every pinned value below is **fixed**. A manifest
under a preset that states any other value — looser **or stricter** — is
refused with a code naming the field (` + "`preset_threshold_<gate>`" + `,
` + "`preset_ceiling_<name>`" + `, ` + "`preset_pin_<name>`" + `; docs/errors.md) and the
decision is ` + "`no_verdict`" + `. An override stating the preset's own value
(however written: 0.8 is 0.80) changes nothing.

**Why a stricter ceiling is refused too.** A stricter number would be
allowed only if it could never turn a would-be ` + "`no_verdict`" + ` or failure into
a pass, and that cannot be shown. Within the evaluator's arithmetic a lower
ceiling only flags more sessions, but the manifest's ceilings are also the
limits the campaign ran under (` + "`evalgate admit`" + ` reserves against them, and
the session ceilings are each session's deadline and allowance), and the
gates are relative: a shorter deadline or smaller output allowance, though
equal for both arms, can cut a slow or long baseline answer into a scored
failure (R = 0), raising the treatment's gain so that ` + "`g3_macro_gain`" + ` or
` + "`g3_improved_tasks`" + ` passes where the frozen allowance fails them; a smaller
replacement allowance or campaign cap changes which attempts are judged.
The contract fixes the allowance, deadline and budgets prospectively and
equal for both arms (contract #741 §2, §4, §5, §7), so every difference
is refused, in either direction.

**Custom policies.** Another experiment may declare ` + "`gate_policy.custom`" + `, an
ID that is not a preset's name: the preset's gates judge the preset's runs
with the manifest's thresholds, and the manifest's ceilings and pins are
enforced as written. Every place the decision is shown (` + "`run`" + `, ` + "`show`" + `,
scorecard.json, report.md, report.html) says "custom policy ID — not
contract #741's frozen rules", and its advance reason never names a preset.

**The pinned evaluator.** A manifest may pin ` + "`evaluator.version`" + ` (and
` + "`evaluator.commit`" + `) it was frozen with; a run by another evaluator is
refused (` + "`evaluator_mismatch`" + `): contract #741 §3 freezes the evaluator with
the campaign and §7 makes a changed evaluator invalidate the comparison.
`)
	for _, p := range Presets() {
		fmt.Fprintf(&b, "\n## Preset `%s`\n\nThe frozen rules of %s (%s). Judges %s campaigns, tasks of split %s", p.Name, p.Source, p.Sections, p.Kind, p.Split)
		if p.LastRound {
			b.WriteString(", round 2 (repetition 2) only, of exactly four development tasks with two rounds each; any other development split is refused")
		}
		fmt.Fprintf(&b, " (rule %s). Gates in order, conjunctive. An advance says: %s.\n\n| gate | threshold (fixed) | observed |\n|---|---|---|\n", p.Rule, p.Qualifier)
		for _, pg := range p.Gates {
			g, _ := FindGate(pg.Gate)
			fmt.Fprintf(&b, "| `%s` | %s %s | %s |\n", pg.Gate, g.Compare, pg.Threshold, mdCell(g.Observed))
		}
		if len(p.Numbers) > 0 {
			b.WriteString("\n| manifest field | kind | value (fixed) | stated in | code when it differs |\n|---|---|---|---|---|\n")
			for _, n := range p.Numbers {
				fmt.Fprintf(&b, "| `%s` | %s | %s | %s | `%s` |\n", n.Field, n.Kind, n.Value, n.Source, PolicyCode(n.Kind, n.Name))
			}
		}
		b.WriteString("\nEvery other manifest number of this kind of campaign is not fixed by the preset.\n")
	}
	return b.String()
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
