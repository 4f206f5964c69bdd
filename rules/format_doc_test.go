package rules

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/golden"
)

// Markers around the generated system-comparison gate table in
// docs/format.md.
const (
	formatGatesBegin = "<!-- BEGIN system-comparison gates: generated from rules.Gates and rules.Presets by \"go test ./rules -run TestFormatGateTable -update\". Do not edit. -->\n"
	formatGatesEnd   = "<!-- END system-comparison gates -->\n"
)

// TestFormatGateTable keeps the system-comparison gate table of
// docs/format.md in step with the gate registry: the lines between the
// markers are generated, like docs/rules.md's preset tables.
func TestFormatGateTable(t *testing.T) {
	const path = "../docs/format.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	before, rest, ok := strings.Cut(doc, formatGatesBegin)
	_, after, ok2 := strings.Cut(rest, formatGatesEnd)
	if !ok || !ok2 {
		t.Fatalf("%s lacks the markers %q and %q", path, formatGatesBegin, formatGatesEnd)
	}
	golden.Check(t, path, []byte(before+formatGatesBegin+systemComparisonGateTable()+formatGatesEnd+after))
}

// systemComparisonGateTable is the preset's gates in order with their
// default thresholds and what each observes.
func systemComparisonGateTable() string {
	p, ok := FindPreset(PresetSystemComparison)
	if !ok {
		return "preset " + string(PresetSystemComparison) + " is missing\n"
	}
	var b strings.Builder
	b.WriteString("\n| gate | passes when observed | default threshold | observed |\n|---|---|---|---|\n")
	for _, pg := range p.Gates {
		g, _ := FindGate(pg.Gate)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", pg.Gate, g.Compare, pg.Threshold, mdCell(g.Observed))
	}
	b.WriteString("\n")
	return b.String()
}
