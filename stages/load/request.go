package load

import (
	"fmt"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// MaxRequest is the size cap of an admission request file, in bytes. A
// caller reading REQ.json need read no more than MaxRequest+1 bytes for
// Request to tell an oversized file.
const MaxRequest = 64 << 10

// Request strictly decodes the admission request of `evalgate admit`
// (schema "request", [tables.FormatRequest]); file is used in findings.
// It never panics. Oversized data is one too_large finding; otherwise
// every schema violation is reported at once with its JSON pointer, the
// findings are sorted, and the request is nil whenever one rejects.
func Request(file string, data []byte) (*tables.AdmitRequest, rules.Findings) {
	at := position{file: file}
	if len(data) > MaxRequest {
		return nil, rules.Findings{at.finding(rules.CodeTooLarge, "",
			fmt.Sprintf("file has more than %d bytes, its cap", MaxRequest))} // admit reads one byte past the cap: len(data) is not the size
	}
	var r tables.AdmitRequest
	ok, findings := decodeDoc(data, "request", at, &r)
	findings.Sort()
	if !ok || findings.Rejected() {
		return nil, findings
	}
	return &r, findings
}
