package load

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/golden"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// TestData renders the stage's findings for small malformed answers as
// text (testdata/answers.txt; refresh with go test -update). Commands:
//
//	answer           decodes the input lines as answer.json
//	edit             applies the input lines to answer_test.go's valid
//	                 answer, one per line: "set /pointer JSON" or
//	                 "del /pointer", then decodes it
//
// Each prints "accepted" or one line per finding: severity code pointer.
func TestData(t *testing.T) {
	golden.RunData(t, "testdata/answers.txt", func(t *testing.T, c *golden.Case) string {
		var data []byte
		switch c.Cmd {
		case "answer":
			data = []byte(strings.TrimSuffix(c.Input, "\n"))
		case "edit":
			var edits []edit
			for _, l := range strings.Split(strings.TrimSpace(c.Input), "\n") {
				op, rest, _ := strings.Cut(l, " ")
				ptr, value, _ := strings.Cut(rest, " ")
				switch op {
				case "set":
					edits = append(edits, set(ptr, value))
				case "del":
					edits = append(edits, del(ptr))
				default:
					t.Fatalf("%s: unknown edit %q", c.Pos, l)
				}
			}
			data = applyEdits(t, validAnswer(), edits...)
		default:
			t.Fatalf("%s: unknown command %s", c.Pos, c.Cmd)
		}
		a, findings := Answer("answer.json", data)
		return renderFindings(a, findings)
	})
}

func renderFindings(a *tables.Answer, findings rules.Findings) string {
	if len(findings) == 0 && a != nil {
		return "accepted\n"
	}
	var b strings.Builder
	for _, f := range findings {
		fmt.Fprintf(&b, "%s %s %q\n", f.Severity, f.Code, f.Pointer)
	}
	if a != nil {
		b.WriteString("answer returned\n")
	}
	return b.String()
}
