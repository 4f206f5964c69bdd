package load

import (
	"errors"
	"fmt"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/tables"
)

// shapeCodes are the findings after which a tree cannot be unmarshalled
// into its Go type without inventing or dropping a value. Other schema
// findings (grammar of IDs, hashes, text) leave the shape intact, so the
// document is still decoded and cross-checked, and every problem is
// reported at once.
var shapeCodes = map[tables.Code]bool{
	tables.CodeWrongType:        true,
	tables.CodeNullHole:         true,
	tables.CodeMissingKey:       true,
	tables.CodeUnknownKey:       true,
	tables.CodeNumberNotInteger: true,
	tables.CodeNumberOutOfRange: true,
	tables.CodeLineInvalid:      true,
	tables.CodeTimestampInvalid: true,
}

// decodeDoc parses data, checks it against the named published schema and,
// when its shape is intact, unmarshals it into out strictly. It reports
// whether out holds the decoded document; the findings say every problem.
func decodeDoc(data []byte, schema string, at position, out any) (bool, tables.Findings) {
	return decodeDocInto(data, schema, at, out, nil)
}

// decodeDocInto is decodeDoc for a document whose findings go on into
// sink (the loader's capped findings): a violation sink has no room for is
// counted without its message being formatted, so a million malformed
// lines cost little more than reading them.
func decodeDocInto(data []byte, schema string, at position, out any, sink *tables.FindingCap) (bool, tables.Findings) {
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
		return false, append(found, at.finding(tables.CodeWrongType, ptr, fmt.Sprintf("document does not fit its Go type: %v", err)))
	}
	return true, found
}
