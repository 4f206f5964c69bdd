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
	for _, p := range Presets() {
		fmt.Fprintf(&b, "\n## Preset `%s`\n\nJudges %s campaigns, tasks of split %s", p.Name, p.Kind, p.Split)
		if p.LastRound {
			b.WriteString(", round 2 (repetition 2) only, of exactly four development tasks with two rounds each; any other development split is refused")
		}
		fmt.Fprintf(&b, " (rule %s). Gates in order, conjunctive; a manifest's `gate_policy.thresholds` may override any threshold by gate name.\n\n| gate | default threshold | observed |\n|---|---|---|\n", p.Rule)
		for _, pg := range p.Gates {
			g, _ := FindGate(pg.Gate)
			fmt.Fprintf(&b, "| `%s` | %s %s | %s |\n", pg.Gate, g.Compare, pg.Threshold, mdCell(g.Observed))
		}
	}
	return b.String()
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
