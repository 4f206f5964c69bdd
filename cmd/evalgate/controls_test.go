package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/cmd/evalgate/internal/cli"
	"github.com/evalgate/evalgate/fixtures/controls"
	"github.com/evalgate/evalgate/rules"
)

// ctlBaseline is the outcome of the unmodified example through the public
// entry point, computed once and shared by every control.
var ctlBaseline struct {
	once sync.Once
	out  *controls.Outcome
	err  error
}

func controlBaseline(t *testing.T) *controls.Outcome {
	t.Helper()
	ctlBaseline.once.Do(func() {
		c, err := controls.Load()
		if err != nil {
			ctlBaseline.err = err
			return
		}
		ctlBaseline.out, ctlBaseline.err = controls.Execute(c, t.TempDir(), cli.Main)
	})
	if ctlBaseline.err != nil {
		t.Fatal(ctlBaseline.err)
	}
	return ctlBaseline.out
}

// runControl applies ctl to a fresh copy of the example and runs it
// through `evalgate validate` and `evalgate run`.
func runControl(t *testing.T, ctl controls.Control) *controls.Outcome {
	t.Helper()
	c, err := controls.Prepare(ctl)
	if err != nil {
		t.Fatal(err)
	}
	o, err := controls.Execute(c, t.TempDir(), cli.Main)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestControls runs `evalgate controls --run --json`, the suite's one
// public command, and checks every control and mutation matched its
// expectation: each control fails (or passes) for exactly the intended
// reason through evalgate validate and evalgate run. It runs in an empty
// directory outside the source tree, as the binary does for a user: the
// suite needs nothing but what is embedded (make test runs the suite
// once, here).
func TestControls(t *testing.T) {
	t.Chdir(t.TempDir())
	var stdout, stderr bytes.Buffer
	code := cli.Main([]string{"controls", "--run", "--json"}, &stdout, &stderr)
	var res controls.SuiteResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("controls --run --json (exit %d, stderr %q): %v", code, stderr.String(), err)
	}
	seen := map[string]bool{}
	for _, c := range res.Controls {
		seen[c.ID] = true
		if !c.Pass {
			t.Errorf("%s: %s", c.ID, strings.Join(c.Problems, "; "))
		}
	}
	for _, ctl := range controls.All() {
		if !seen[ctl.ID] {
			t.Errorf("controls --run did not run %s", ctl.ID)
		}
	}
	if len(res.Mutations) != len(controls.Mutations()) {
		t.Errorf("controls --run printed %d mutations, want %d", len(res.Mutations), len(controls.Mutations()))
	}
	for _, m := range res.Mutations {
		if !m.Pass {
			t.Errorf("mutation %q: %s", m.Mutation.Mutation, m.Observed)
		}
	}
	if want := map[bool]int{true: 0, false: 1}[res.Pass]; code != want || !res.Pass {
		t.Errorf("controls --run: pass %v, exit %d", res.Pass, code)
	}
}

// TestControlsRunNamesMismatch: the suite's text names every control and
// mutation that did not match, so a broken expectation is visible.
func TestControlsRunNamesMismatch(t *testing.T) {
	res := controls.SuiteResult{
		Controls:  []controls.ControlResult{{ID: "C01", Pass: true}, {ID: "C09", Problems: []string{"expected code citation_beyond_source did not appear"}}},
		Mutations: []controls.MutationResult{{Mutation: controls.Mutation{Mutation: "remove an ID", Control: "C13/missing"}, Runnable: true}},
	}
	text := res.Text()
	for _, want := range []string{"FAIL C09", "expected code citation_beyond_source did not appear", "MISMATCH in 2: C09, mutation remove an ID"} {
		if !strings.Contains(text, want) {
			t.Errorf("suite text lacks %q:\n%s", want, text)
		}
	}
}

// TestAcceptedCampaignPasses: the unmodified example is admissible with no
// rejecting finding, so a verifier that rejects everything fails here.
func TestAcceptedCampaignPasses(t *testing.T) {
	base := controlBaseline(t)
	if base.ValidateExit != 0 || base.RunExit != 0 || base.Out == nil {
		t.Fatalf("validate exit %d, run exit %d: the accepted campaign must pass", base.ValidateExit, base.RunExit)
	}
	if rules.Findings(base.Findings).Rejected() {
		t.Fatalf("the accepted campaign has rejecting findings: %v", base.Findings)
	}
	// The example plants exactly two model failures that warn: T5-r1-B's
	// missing disposition of E8 and T8-r3-A's truncated JSON (fixtures/doc.go).
	want := map[string]rules.Code{"T5-r1-B": rules.CodeDispositionMissing, "T8-r3-A": rules.CodeJSONSyntax}
	if len(base.Findings) != len(want) {
		t.Fatalf("baseline has %d findings, want %d: %v", len(base.Findings), len(want), base.Findings)
	}
	for _, f := range base.Findings {
		if want[f.Session] != f.Code || f.Severity != rules.Warn {
			t.Errorf("unexpected baseline finding %s [%s]", f.Error(), f.Severity)
		}
	}
}

// TestHarnessCanFail: the assertion helper reports a failure when the
// expectation is wrong, so a passing suite means something.
func TestHarnessCanFail(t *testing.T) {
	base := controlBaseline(t)
	ctl, ok := controls.Find("C09")
	if !ok {
		t.Fatal("no control C09")
	}
	o := runControl(t, ctl)
	wrong := []struct {
		name   string
		expect controls.Expect
	}{
		{"wrong code", withCodes(ctl.Expect, rules.CodeCitationOutsideItem)},
		{"no code expected", withCodes(ctl.Expect)},
		{"wrong admissibility", func(e controls.Expect) controls.Expect { e.Admissible = false; return e }(ctl.Expect)},
		{"wrong classification", func(e controls.Expect) controls.Expect {
			e.Checks = []controls.Check{controls.SessionClass("T8-r1-B", "valid")}
			return e
		}(ctl.Expect)},
		{"rejects everything", controls.Expect{Codes: nil, Admissible: false, Loaded: false}},
	}
	for _, w := range wrong {
		t.Run(w.name, func(t *testing.T) {
			if problems := w.expect.Verify(base.Findings, o); len(problems) == 0 {
				t.Error("a wrong expectation passed")
			}
		})
	}
	t.Run("verifier that rejects everything", func(t *testing.T) {
		// A verifier that rejected everything would reject the accepted
		// campaign; the accepted control's expectation catches it.
		rejecting := *base
		rejecting.ValidateExit = 1
		rejecting.Findings = append(rules.Findings{{Code: rules.CodeHashMismatch, Severity: rules.Reject, File: "manifest.json"}}, base.Findings...)
		if problems := controls.Accepted().Expect.Verify(base.Findings, &rejecting); len(problems) == 0 {
			t.Error("the accepted control passed a verifier that rejects everything")
		}
	})
}

func withCodes(e controls.Expect, codes ...rules.Code) controls.Expect {
	e.Codes = codes
	return e
}
