package cli

import (
	"fmt"
	"io"

	"github.com/evalgate/evalgate/rules"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// printFindings writes one finding per line, in the order given.
func printFindings(w io.Writer, fs []rules.Finding) {
	for _, f := range fs {
		fmt.Fprintf(w, "%s [%s]\n", f.Error(), f.Severity)
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
