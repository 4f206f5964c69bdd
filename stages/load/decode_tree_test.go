package load

import (
	"errors"
	"fmt"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
)

// decodeTree is the two-pass decoder decodeStream replaced, kept as the
// oracle of FuzzDecodeStreamOracle: parse a tree, walk it against the
// schema, and Unmarshal the bytes when the shape is intact.
func decodeTree(data []byte, schema string, at position, out any, sink *rules.FindingCap) (bool, rules.Findings) {
	root, findings := parseTree(data, at)
	if root == nil {
		return false, findings
	}
	w := &walker{s: schemaFor(schema), at: at, sink: sink}
	w.walk(w.s.root, root, "")
	found := w.out.Findings()
	if w.shapeBroken {
		return false, found
	}
	if err := json.Unmarshal(data, out, json.RejectUnknownMembers(true)); err != nil {
		// Unreachable when the schema and the Go type agree; a test pins
		// that they do. Still a finding, never a panic.
		ptr := ""
		var se *json.SemanticError
		if errors.As(err, &se) {
			ptr = string(se.JSONPointer)
		}
		return false, append(found, at.finding(rules.CodeWrongType, ptr, fmt.Sprintf("document does not fit its Go type: %v", err)))
	}
	return true, found
}
