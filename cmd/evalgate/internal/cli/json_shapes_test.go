package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/fixtures"
)

// TestJSONShapes runs every command's --json on every embedded example
// (and on a campaign the loader rejects, and a usage error) and checks one shape per concept:
// stdout is exactly one JSON document in every outcome; booleans and nulls
// are JSON literals, never the strings "true", "false" or "null"; a
// position that does not apply is omitted, never line 0; lists are arrays,
// never comma-joined strings; a command's findings are the one finding
// shape (rules.Finding).
func TestJSONShapes(t *testing.T) {
	type call struct {
		name string
		args []string
	}
	calls := []call{
		{"examples", []string{"examples", "--json"}},
		{"schema list", []string{"schema", "--json"}},
		{"schema answer", []string{"schema", "answer", "--json"}},
		{"controls", []string{"controls", "--json"}},
	}
	outs := map[string]string{}
	for _, ex := range fixtures.Examples() {
		out := filepath.Join(t.TempDir(), "out")
		outs[ex] = out
		calls = append(calls,
			call{"run " + ex, []string{"run", "--example", ex, "--out", out, "--json"}},
			call{"validate " + ex, []string{"validate", "--example", ex, "--json"}},
			call{"show " + ex, []string{"show", out, "--json"}},
			call{"compare " + ex, []string{"compare", out, out, "--json"}},
			call{"prompts " + ex, []string{"prompts", "render", "--example", ex, "--all", "--json"}},
		)
	}
	calls = append(calls,
		call{"compare paired-review", []string{"compare", outs["paired-review"], outs["paired-review-green"], "--json"}},
		call{"compare system-comparison", []string{"compare", outs["system-comparison"], outs["system-comparison-green"], "--json"}},
	)
	broken := brokenCampaign(t)
	calls = append(calls,
		call{"run rejected", []string{"run", broken, "--out", filepath.Join(t.TempDir(), "out"), "--json"}},
		call{"run usage error", []string{"run", broken, "--json"}},
		call{"validate rejected", []string{"validate", broken, "--json"}},
		call{"admit rejected", []string{"admit", broken, "--request", filepath.Join(broken, "manifest.json"), "--json"}},
	)
	logs := filepath.Join("..", "..", "..", "..", "importers", "testdata", "inspect")
	badMap := filepath.Join(t.TempDir(), "map.json")
	if err := os.WriteFile(badMap, []byte("{\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	calls = append(calls,
		call{"import inspect", []string{"import", "inspect", filepath.Join(logs, "2025-05-12T20-28-13-04-00_popularity.json"), filepath.Join(logs, "log_formats.json"), "--json"}},
		call{"import inspect usage error", []string{"import", "inspect", filepath.Join(logs, "missing.json"), "--json"}},
		call{"import refused", []string{"import", "inspect", filepath.Join(logs, "log_formats.json"), "--into", broken, "--map", badMap, "--json"}},
		call{"import usage error", []string{"import", "harbor", filepath.Join(logs, "log_formats.json"), "--into", broken, "--json"}},
	)
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := mainCmd(c.args...)
			var doc any
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("exit %d: stdout is not one JSON document (%v):\n%.400s\nstderr: %.400s", code, err, stdout, stderr)
			}
			if c.name == "schema answer" {
				return // a JSON Schema document: "type": "null" is its vocabulary
			}
			for _, p := range shapeProblems("", doc) {
				t.Error(p)
			}
		})
	}
}

// listKeys are fields that hold lists in every output.
var listKeys = []string{"failing", "failing_gates", "final_ids", "supports", "finding_ids", "limits_exceeded", "rejecting_codes"}

// shapeProblems walks v and names every value that breaks a shape rule.
func shapeProblems(path string, v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		if field, _ := x["field"].(string); slices.Contains(listKeys, field) {
			// a compared list's old and new values (compare --json)
			for _, side := range []string{"old", "new"} {
				if _, ok := x[side].([]any); !ok && x[side] != nil {
					out = append(out, fmt.Sprintf("%s/%s of field %s is %T %v, want an array", path, side, field, x[side], x[side]))
				}
			}
		}
		for k, e := range x {
			p := path + "/" + k
			if (k == "line" || k == "column") && e == float64(0) {
				out = append(out, p+" is 0: omit a position that does not apply")
			}
			if p == "/findings" { // a command's own findings, not a count within a document
				out = append(out, findingShapeProblems(p, e)...)
			}
			if slices.Contains(listKeys, k) {
				if _, ok := e.([]any); !ok && e != nil {
					out = append(out, fmt.Sprintf("%s is %T %v, want an array", p, e, e))
				}
			}
			out = append(out, shapeProblems(p, e)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, shapeProblems(fmt.Sprintf("%s/%d", path, i), e)...)
		}
	case string:
		if x == "true" || x == "false" || x == "null" {
			out = append(out, fmt.Sprintf("%s is the string %q, want the JSON literal", path, x))
		}
	}
	return out
}

// findingShapeProblems names what makes v other than a list of findings
// in the one shape every command prints (rules.Finding): an array of
// objects, each with its code, severity and message.
func findingShapeProblems(path string, v any) []string {
	list, ok := v.([]any)
	if !ok {
		return []string{fmt.Sprintf("%s is %T, want an array of findings", path, v)}
	}
	var out []string
	for i, e := range list {
		f, ok := e.(map[string]any)
		if !ok {
			out = append(out, fmt.Sprintf("%s/%d is %T, want a finding object", path, i, e))
			continue
		}
		for _, key := range []string{"code", "severity", "message"} {
			if s, ok := f[key].(string); !ok || s == "" {
				out = append(out, fmt.Sprintf("%s/%d has no %s: not the finding shape", path, i, key))
			}
		}
	}
	return out
}

// brokenCampaign is the default example with a manifest the loader rejects.
func brokenCampaign(t *testing.T) string {
	t.Helper()
	src, ok := fixtures.Example(fixtures.DefaultExample)
	if !ok {
		t.Fatal("no default example")
	}
	dir := filepath.Join(t.TempDir(), "broken")
	if err := os.CopyFS(dir, src); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte("{\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
