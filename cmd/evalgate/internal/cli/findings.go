package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/confined"
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
		fmt.Fprintf(w, "%s [%s]\n", text(g.Error()), g.First.Severity)
	}
}

// text is a value as a text output prints it (confined.EscapeText): file
// names, sample IDs, models and messages come from files nobody audited,
// so a control character or a bidirectional override in one is written
// escaped, never raw, and a newline cannot split a line.
func text(s string) string { return confined.EscapeText(s) }

// textLines is text of each line of a message built of lines.
func textLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = text(l)
	}
	return strings.Join(lines, "\n")
}

// writeJSON writes v as deterministic, indented JSON with a final newline.
// The encoder escapes C0 control characters; a C1 control or a
// bidirectional override, which it leaves raw, is written as its \uXXXX
// escape too (the same string to a JSON reader, inert on a terminal).
func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v, json.Deterministic(true), jsontext.WithIndent("  "))
	if err != nil {
		return err
	}
	_, err = w.Write(append(escapeJSONText(b), '\n'))
	return err
}

// escapeJSONText replaces every C1 control and bidirectional formatting
// character of encoded JSON (they occur only inside its strings) by its
// \uXXXX escape.
func escapeJSONText(b []byte) []byte {
	if !bytes.ContainsFunc(b, func(r rune) bool { return r >= 0x80 && confined.EscapeText(string(r)) != string(r) }) {
		return b
	}
	var out bytes.Buffer
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r >= 0x80 && r != utf8.RuneError && confined.EscapeText(string(r)) != string(r) {
			fmt.Fprintf(&out, `\u%04x`, r)
		} else {
			out.Write(b[:size])
		}
		b = b[size:]
	}
	return out.Bytes()
}
