package rules

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/golden"
)

var codeSyntax = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// TestCodesWellFormed checks every code is unique, snake_case and
// documented with its stage and rule.
func TestCodesWellFormed(t *testing.T) {
	seen := map[Code]string{}
	for _, c := range AllCodes() {
		if prev, dup := seen[c.Code]; dup {
			t.Errorf("code %q declared twice (stages %s and %s)", c.Code, prev, c.Stage)
		}
		seen[c.Code] = c.Stage
		if !codeSyntax.MatchString(string(c.Code)) {
			t.Errorf("code %q is not snake_case", c.Code)
		}
		if c.Stage == "" || c.Rule == "" || c.Doc == "" {
			t.Errorf("code %q lacks a stage, rule or doc: %+v", c.Code, c)
		}
		if strings.Contains(c.Doc, "\n") {
			t.Errorf("code %q: doc must be one line", c.Code)
		}
	}
}

// TestCodesPinned pins the set of codes: codes are a public interface, so
// a code may be added (refresh with -update) but never renamed or
// removed silently. The golden file lists one code per line.
func TestCodesPinned(t *testing.T) {
	var got bytes.Buffer
	for _, c := range AllCodes() {
		fmt.Fprintf(&got, "%s\t%s\n", c.Code, c.Stage)
	}
	const pinned = "testdata/codes.golden"
	want, err := os.ReadFile(pinned)
	if err != nil {
		t.Fatalf("%v (create it with go test ./rules -run TestCodesPinned -update)", err)
	}
	gotSet := lines(got.String())
	for _, w := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		if !gotSet[w] {
			t.Errorf("pinned code %q was removed or renamed; codes are stable — restore it", w)
		}
	}
	golden.Check(t, pinned, got.Bytes())
}

func lines(s string) map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		m[l] = true
	}
	return m
}

// severityDoc states the classes of findings and the one rule that follows
// from a rejecting finding.
const severityDoc = `
## Severity

Every code has one severity class, shown in the tables below:

- **rejects: defect of the record** — the manifest, receipts, meters,
  reservations, times, identities, ratings or files cannot be trusted. The
  finding has severity ` + "`reject`" + `. **A campaign with any rejecting finding
  gets decision ` + "`no_verdict`" + `**, every rejecting finding named in the reason;
  ` + "`validate`" + ` and ` + "`run`" + ` both exit 1 ("rejected"), and ` + "`run`" + ` still writes its
  tables for diagnosis.
- **scored failure: fault of the model** — a malformed, refused or empty
  answer, a false citation, a missing disposition, a broken link, a
  timeout. The run is scored as a failure (R=0 and failed gates when no
  valid final answer exists); the campaign is judged. Severity ` + "`warn`" + `;
  never rejecting. Every finding inside a model's answer file is the
  model's fault, whatever its code.
- **cost gates fail** — the record is sound but a cost or bound cannot be
  shown: a missing meter or tariff, an unpriceable modifier, a session over
  its own ceiling or reservation, an unknown campaign total. The cost gates
  fail with the reason and the decision is never ` + "`advance`" + `. Severity ` + "`warn`" + `.
- **note** — recorded; nothing follows. Severity ` + "`warn`" + `.
- **refuses admission** — a reason ` + "`evalgate admit`" + ` refuses a dispatch; never in
  the rejections table.
`

// TestErrorsDoc keeps docs/errors.md generated from AllCodes.
func TestErrorsDoc(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("# Finding codes\n\n")
	b.WriteString("Every problem evalgate reports is a finding with a stable code, a severity,\n")
	b.WriteString("the file, a JSON pointer or line, the session it concerns and one sentence.\n")
	b.WriteString("Codes never change meaning and are never reused. This page is generated\n")
	b.WriteString("from `rules.AllCodes` and `rules.ClassOf` (`go test ./rules -run TestErrorsDoc -update`).\n")
	b.WriteString(severityDoc)
	stage := ""
	for _, c := range CodesByStage() {
		if c.Stage != stage {
			stage = c.Stage
			fmt.Fprintf(&b, "\n## %s\n\n| code | severity | rule | meaning |\n|---|---|---|---|\n", stage)
		}
		severity := ClassOf(c.Code).Describe()
		if AlsoInAnswer(c.Code) {
			severity += "; in an answer, scored failure: fault of the model"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", c.Code, severity, c.Rule, strings.ReplaceAll(c.Doc, "|", "\\|"))
	}
	golden.Check(t, "../docs/errors.md", b.Bytes())
}
