package load

import (
	"github.com/evalgate/evalgate/rules"
)

// shapeCodes are the findings after which a document cannot be decoded
// into its Go type without inventing or dropping a value. Other schema
// findings (grammar of IDs, hashes, text) leave the shape intact, so the
// document is still decoded and cross-checked, and every problem is
// reported at once.
var shapeCodes = map[rules.Code]bool{
	rules.CodeWrongType:        true,
	rules.CodeNullHole:         true,
	rules.CodeMissingKey:       true,
	rules.CodeUnknownKey:       true,
	rules.CodeNumberNotInteger: true,
	rules.CodeNumberOutOfRange: true,
	rules.CodeLineInvalid:      true,
	rules.CodeTimestampInvalid: true,
}

// decodeDoc decodes data in one pass (decodeStream), checking it against
// the named published schema, and sets out only when its shape is intact. It reports
// whether out holds the decoded document; the findings say every problem.
func decodeDoc(data []byte, schema string, at position, out any) (bool, rules.Findings) {
	return decodeDocInto(data, schema, at, out, nil, nil)
}

// decodeDocInto is decodeDoc for a document whose findings go on into
// sink (the loader's capped findings): a violation sink has no room for is
// counted without its message being formatted, so a million malformed
// lines cost little more than reading them. The values of fields tagged
// intern are shared through in, when not nil (interner).
func decodeDocInto(data []byte, schema string, at position, out any, sink *rules.FindingCap, in *interner) (bool, rules.Findings) {
	return decodeStream(data, schema, at, out, sink, in)
}
