package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/go-json-experiment/json"
)

// answerDir holds one file per rule of the response contract, named
// <role>__<expected_code>__<what>.json, and valid edge cases named
// valid__<role>__<what>.json. The generator is stages/testdata/gen_answers.go.
const answerDir = "../../stages/testdata/answers"

// TestValidateAnswerCLI runs every answer file through `evalgate validate
// --answer FILE --role ROLE --json`: a malformed file exits 1 and reports
// its rule's code and no other; a valid one exits 0 with no finding.
func TestValidateAnswerCLI(t *testing.T) {
	entries, err := os.ReadDir(answerDir)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[rules.Code]bool{}
	var malformed int
	for _, e := range entries {
		name := e.Name()
		parts := strings.SplitN(strings.TrimSuffix(name, ".json"), "__", 3)
		if len(parts) != 3 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			role, want := parts[0], parts[1]
			valid := role == "valid"
			if valid {
				role = parts[1]
			}
			code, stdout, stderr := evalgate(t, "validate", "--answer", filepath.Join(answerDir, name), "--role", role, "--json")
			var rep struct {
				Valid    bool            `json:"valid"`
				Findings []rules.Finding `json:"findings"`
			}
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatalf("exit %d, stdout not JSON: %v\n%s%s", code, err, stdout, stderr)
			}
			got := map[rules.Code]bool{}
			for _, f := range rep.Findings {
				got[f.Code] = true
			}
			if valid {
				if code != 0 || len(rep.Findings) > 0 {
					t.Fatalf("valid answer: exit %d, findings %v", code, rep.Findings)
				}
				return
			}
			if code != 1 || rep.Valid {
				t.Errorf("exit %d valid=%v, want exit 1", code, rep.Valid)
			}
			if !got[rules.Code(want)] {
				t.Errorf("missing code %s; got %v", want, rep.Findings)
			}
			for c := range got {
				if c != rules.Code(want) {
					t.Errorf("unrelated code %s besides %s: %v", c, want, rep.Findings)
				}
			}
			codes[rules.Code(want)] = true
		})
		if !strings.HasPrefix(name, "valid__") {
			malformed++
		}
	}
	if malformed < 40 {
		t.Errorf("%d malformed answer files, want at least 40", malformed)
	}
	if len(codes) < 30 {
		t.Errorf("only %d distinct codes exercised through the CLI", len(codes))
	}
	t.Logf("%d malformed files, %d distinct codes", malformed, len(codes))
}
