package evalgate_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures/controls"
	"github.com/evalgate/evalgate/rules"
)

// The rule registry (rules.Rules, docs/rules.md) is the one place a rule
// is stated. These tests keep every citation pointing at it:
//
//   - no Go file, README or doc cites the documents the rules came from
//     (users do not have them): no "SPEC X1", "seed 000", "RFC 0033";
//   - every "rule X", "rules X, Y", "rules X–Y" and control ID (C01–C23)
//     in code, tests, help text and docs names a registered rule;
//   - every rule is enforced somewhere: a finding code, a gate or preset, a
//     control, or non-test code that cites it.

var (
	// outsideCitation matches a reference to a document outside the repository.
	outsideCitation = regexp.MustCompile(`\bSPEC\b|(?i:\bseeds? ?-?00[0-9]\b)|\bRFC ?0033\b|\bthe RFC(?:'s| [a-z]|[.,;:)]|$)`)
	// ruleCitation matches "rule A6", "rules A1–A7", "rules V3, V4 and C09".
	ruleCitation = regexp.MustCompile(`\b[Rr]ules? ((?:[A-Z][0-9]{1,2})(?:–[A-Z]?[0-9]{1,2})?(?:(?:, | and | or |, and |/)[A-Z][0-9]{1,2}(?:–[A-Z]?[0-9]{1,2})?)*)`)
	// controlCitation matches a contract control ID in a comment, e.g. C09.
	controlCitation = regexp.MustCompile(`\bC[0-9]{2}\b`)
	ruleToken       = regexp.MustCompile(`([A-Z])([0-9]{1,2})(?:–([A-Z]?)([0-9]{1,2}))?`)
)

// trackedFiles lists the repository's Go files and Markdown documents.
func trackedFiles(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("git", "ls-files", "*.go", "*.md").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	var files []string
	for _, f := range strings.Fields(string(out)) {
		if strings.Contains(f, "/testdata/") || strings.HasPrefix(f, "interop/node_modules/") {
			continue
		}
		files = append(files, f)
	}
	return files
}

// expand turns one cited token ("A6", "A1–A7", "C01–C08") into rule IDs.
func expand(tok string) []rules.RuleID {
	m := ruleToken.FindStringSubmatch(tok)
	if m == nil {
		return nil
	}
	if m[4] == "" {
		return []rules.RuleID{rules.RuleID(m[1] + m[2])}
	}
	lo, _ := strconv.Atoi(m[2])
	hi, _ := strconv.Atoi(m[4])
	var ids []rules.RuleID
	for i := lo; i <= hi && i-lo < 100; i++ {
		n := strconv.Itoa(i)
		if len(m[2]) == 2 && len(n) == 1 {
			n = "0" + n
		}
		ids = append(ids, rules.RuleID(m[1]+n))
	}
	return ids
}

// citations returns the rule IDs cited in text; comment is true for a Go
// comment line, where bare control IDs (C09) count too.
func citations(line string, comment bool) []string {
	var ids []string
	for _, m := range ruleCitation.FindAllStringSubmatch(line, -1) {
		ids = append(ids, regexp.MustCompile(`[A-Z][0-9]{1,2}(?:–[A-Z]?[0-9]{1,2})?`).FindAllString(m[1], -1)...)
	}
	if comment {
		ids = append(ids, controlCitation.FindAllString(line, -1)...)
	}
	return ids
}

func TestNoOutsideCitations(t *testing.T) {
	for _, f := range trackedFiles(t) {
		if f == "rules_test.go" { // this file names the patterns it refuses
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if outsideCitation.MatchString(line) {
				t.Errorf("%s:%d cites a document users do not have (cite the rule, see docs/rules.md): %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}

func TestCitedRulesExist(t *testing.T) {
	for _, f := range trackedFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		goFile := strings.HasSuffix(f, ".go")
		for i, line := range strings.Split(string(data), "\n") {
			comment := goFile && strings.HasPrefix(strings.TrimSpace(line), "//")
			for _, tok := range citations(line, comment) {
				for _, id := range expand(tok) {
					if _, ok := rules.FindRule(id); !ok {
						t.Errorf("%s:%d cites rule %s, which docs/rules.md does not list", f, i+1, id)
					}
				}
			}
		}
	}
	for _, c := range controls.All() {
		for _, id := range strings.Split(c.Rules, "/") {
			if _, ok := rules.FindRule(rules.RuleID(id)); !ok {
				t.Errorf("control %s cites rule %q, which docs/rules.md does not list", c.ID, id)
			}
		}
	}
}

// TestEveryRuleEnforced: each rule has a finding code, a gate or preset, a
// control, or non-test code citing it.
func TestEveryRuleEnforced(t *testing.T) {
	enforced := map[rules.RuleID]string{}
	note := func(id rules.RuleID, by string) {
		if _, ok := enforced[id]; !ok {
			enforced[id] = by
		}
	}
	for _, c := range rules.AllCodes() {
		for _, id := range strings.Split(c.Rule, "/") {
			note(rules.RuleID(id), "code "+string(c.Code))
		}
	}
	for _, g := range rules.Gates() {
		note(g.Rule, "gate "+string(g.Name))
	}
	for _, p := range rules.Presets() {
		note(p.Rule, "preset "+string(p.Name))
	}
	for _, c := range controls.All() {
		for _, id := range strings.Split(c.Rules, "/") {
			note(rules.RuleID(id), "control "+c.ID)
		}
	}
	for _, f := range trackedFiles(t) {
		if !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go") || filepath.Base(f) == "rules.go" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			comment := strings.HasPrefix(strings.TrimSpace(line), "//")
			for _, tok := range citations(line, comment) {
				for _, id := range expand(tok) {
					note(id, f)
				}
			}
		}
	}
	for _, r := range rules.Rules() {
		if _, ok := enforced[r.ID]; !ok {
			t.Errorf("rule %s is enforced by no code, gate or control: %s", r.ID, r.Text)
		}
	}
}

// TestCitationParsing proves the citation reader finds what it must.
func TestCitationParsing(t *testing.T) {
	got := citations("see rules A1–A3, V2 and C09; control C13 and rule G7", true)
	want := []string{"A1–A3", "V2", "C09", "G7", "C09", "C13"}
	if !slices.Equal(got, want) {
		t.Errorf("citations = %v, want %v", got, want)
	}
	if ids := expand("C01–C03"); !slices.Equal(ids, []rules.RuleID{"C01", "C02", "C03"}) {
		t.Errorf("expand = %v", ids)
	}
	for _, bad := range []string{"SPEC A6", "seed 000 §5", "Seed 000 §6", "seed-002", "RFC 0033", "RFC0033", "the RFC's pilot"} {
		if !outsideCitation.MatchString(bad) {
			t.Errorf("%q not recognised as an outside citation", bad)
		}
	}
	for _, fine := range []string{"the frozen seed 42 of the campaign", "the RFC 3339 time"} {
		if outsideCitation.MatchString(fine) {
			t.Errorf("%q taken for an outside citation", fine)
		}
	}
}
