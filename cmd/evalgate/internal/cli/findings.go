package cli

import (
	"fmt"
	"io"

	"github.com/evalgate/evalgate/rules"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// printFindings writes the findings in the order given, one line per
// distinct finding: repeats that differ only in position collapse into one
// line with their count and first positions (rules.Collapse). The list is
// capped first (rules.CapInOrder; a capped list is printed as it is), so no
// producer's list can print unbounded.
func printFindings(w io.Writer, fs []rules.Finding) {
	for _, g := range rules.Collapse(rules.CapInOrder(fs)) {
		fmt.Fprintf(w, "%s [%s]\n", g.Error(), g.First.Severity)
	}
}

// writeJSON writes v as deterministic, indented JSON with a final newline.
func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v, json.Deterministic(true), jsontext.WithIndent("  "))
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
