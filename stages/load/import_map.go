package load

import (
	"fmt"
	"strconv"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// MaxImportMap is the size cap of a mapping file, in bytes.
const MaxImportMap = 16 << 20

// ImportMap strictly decodes the --map FILE of `evalgate import` (schema
// "import-map") for the given source and checks what the schema cannot:
// the mapping is for this source, only a Harbor mapping bills the agent's
// own cost or names an output file, and no record or session is mapped
// twice. It returns nil when a finding rejects; every problem is reported.
func ImportMap(file, source string, data []byte) (*tables.ImportMap, rules.Findings) {
	at := position{file: file}
	if len(data) > MaxImportMap {
		return nil, rules.Findings{at.finding(rules.CodeTooLarge, "",
			fmt.Sprintf("file has %d bytes; the cap is %d", len(data), MaxImportMap))}
	}
	var m tables.ImportMap
	ok, out := decodeDoc(data, "import-map", at, &m)
	if ok {
		out = append(out, checkImportMap(&m, source, at)...)
	}
	out.Sort()
	if !ok || out.Rejected() {
		return nil, out
	}
	return &m, out
}

func checkImportMap(m *tables.ImportMap, source string, at position) rules.Findings {
	var out rules.Findings
	bad := func(ptr, format string, args ...any) {
		out = append(out, at.finding(rules.CodeImportMapInvalid, ptr, fmt.Sprintf(format, args...)))
	}
	if m.Source != source {
		bad("/source", "the mapping is for %s records but this is `evalgate import %s`", m.Source, source)
	}
	harbor := m.Source == tables.SourceHarbor
	if m.Billing == tables.BillingActual && !harbor {
		bad("/billing", "only Harbor records carry an agent-reported cost that can be billed as actual; %s records are charged at the rate card (billing \"reference\")", m.Source)
	}
	switch {
	case m.OutputFile != "" && !harbor:
		bad("/output_file", "only a Harbor mapping names an output file; %s records hold their final output themselves", m.Source)
	case m.OutputFile != "":
		if why := pathProblem(m.OutputFile); why != "" {
			bad("/output_file", "output file %q is not a trial-relative path: %s", Clip(m.OutputFile), why)
		}
	}
	switch {
	case m.InputFile != "" && !harbor:
		bad("/input_file", "only a Harbor mapping names an input file; %s records hold the input they record themselves", m.Source)
	case m.InputFile != "":
		if why := pathProblem(m.InputFile); why != "" {
			bad("/input_file", "input file %q is not a trial-relative path: %s", Clip(m.InputFile), why)
		}
	}
	seenErr := map[string]int{}
	for i, e := range m.ErrorClasses {
		if j, dup := seenErr[e.SourceError]; dup {
			bad("/error_classes/"+strconv.Itoa(i)+"/source_error", "source error %q is already mapped by entry %d", Clip(e.SourceError), j)
		}
		seenErr[e.SourceError] = i
	}
	seenMatch := map[tables.ImportMatch]int{}
	seenSession := map[string]int{}
	for i, s := range m.Sessions {
		ptr := "/sessions/" + strconv.Itoa(i)
		if j, dup := seenMatch[s.Match]; dup {
			bad(ptr+"/match", "this record is already mapped by entry %d", j)
		}
		seenMatch[s.Match] = i
		if j, dup := seenSession[s.SessionID]; dup {
			bad(ptr+"/session_id", "session %q is already mapped by entry %d", s.SessionID, j)
		}
		seenSession[s.SessionID] = i
		if m.Source != tables.SourceInspect && (s.Match.Sample != "" || s.Match.Epoch != 0) {
			bad(ptr+"/match", "only Inspect records have a sample and epoch; leave them \"\" and 0")
		}
		if m.Source == tables.SourceInspect && (s.Match.Sample == "" || s.Match.Epoch < 1) {
			bad(ptr+"/match", "an Inspect record is a sample: give its id and a positive epoch")
		}
	}
	return out
}
