package load

import (
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
)

// edit is a raw change to a JSON document, applied to its generic form so
// that a test can break exactly one rule, including rules the Go types
// cannot express (unknown or missing keys, wrong types).
type edit func(t *testing.T, doc any) any

// set replaces (or adds) the value at a JSON pointer. The value is given
// as JSON text.
func set(ptr, value string) edit {
	return func(t *testing.T, doc any) any {
		var v any
		if err := json.Unmarshal([]byte(value), &v); err != nil {
			t.Fatalf("set %s: bad JSON %s: %v", ptr, value, err)
		}
		return put(t, doc, tokens(ptr), v, false)
	}
}

// del removes the member or element at a JSON pointer.
func del(ptr string) edit {
	return func(t *testing.T, doc any) any { return put(t, doc, tokens(ptr), nil, true) }
}

func tokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	return strings.Split(ptr[1:], "/")
}

func put(t *testing.T, doc any, toks []string, v any, remove bool) any {
	if len(toks) == 0 {
		return v
	}
	switch d := doc.(type) {
	case map[string]any:
		if len(toks) == 1 && remove {
			delete(d, toks[0])
			return d
		}
		d[toks[0]] = put(t, d[toks[0]], toks[1:], v, remove)
		return d
	case []any:
		i, err := strconv.Atoi(toks[0])
		if err != nil || i < 0 || i > len(d) {
			t.Fatalf("bad index %q", toks[0])
		}
		if len(toks) == 1 && remove {
			return append(d[:i], d[i+1:]...)
		}
		if i == len(d) {
			d = append(d, nil)
		}
		d[i] = put(t, d[i], toks[1:], v, remove)
		return d
	}
	t.Fatalf("cannot descend into %T at %v", doc, toks)
	return nil
}

// applyEdits marshals v, applies edits and returns the bytes.
func applyEdits(t *testing.T, v any, edits ...edit) []byte {
	t.Helper()
	data, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) == 0 {
		return data
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		doc = e(t, doc)
	}
	out, err := json.Marshal(doc, json.Deterministic(true))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// wantOnly fails unless findings are exactly one finding with code and
// pointer (pointer "*" matches any).
func wantOnly(t *testing.T, findings rules.Findings, code rules.Code, ptr string) {
	t.Helper()
	if len(findings) != 1 || findings[0].Code != code || ptr != "*" && findings[0].Pointer != ptr {
		t.Errorf("want exactly one %s at %q; got %d finding(s):", code, ptr, len(findings))
		for _, f := range findings {
			t.Errorf("  %s", f.Error())
		}
	}
	for _, f := range findings {
		if f.Message == "" || f.Severity != rules.Reject {
			t.Errorf("finding %v lacks a message or is not a rejection", f)
		}
	}
}

// emitted collects the codes the rejecting tests see while
// TestEveryCodeEmitted runs them; nil otherwise, so no test depends on
// another having run first.
var emitted map[rules.Code]bool

func note(findings rules.Findings) {
	if emitted == nil {
		return
	}
	for _, f := range findings {
		emitted[f.Code] = true
	}
}

func ptrTo[T any](v T) *T { return &v }
