package stages

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/evalgate/evalgate/importers"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/tables"
)

// ImportSource is one source file of `evalgate import`: an Inspect log, a
// Codex rollout or a Harbor result.json, with, for Harbor, the answer
// file the mapping's output_file named in its trial directory (nil none).
type ImportSource struct {
	Name   string
	Data   []byte
	Output []byte
}

// ImportCampaign is what an import reads of the campaign it appends to.
type ImportCampaign struct {
	Manifest *tables.Manifest
	Receipts []byte // receipts.jsonl as it is (may be empty)
	Ledger   []byte // imports.jsonl as it is (may be empty)
}

// Import reads every source with its reader, maps each record to its
// session by the mapping, checks every meter with the account stage's
// decoder and plans what the import appends to the campaign. It writes
// nothing; the plan is empty and the findings reject when any source,
// record, meter or the mapping does.
func Import(source string, c ImportCampaign, m *tables.ImportMap, mapFile string, sources []ImportSource) (importers.ImportPlan, rules.Findings) {
	var recs []importers.SourceRecord
	var out rules.Findings
	for _, s := range sources {
		rs, fs := readSource(source, s)
		recs = append(recs, rs...)
		out = append(out, fs...)
	}
	out = append(out, checkMeters(recs)...)
	if out.Rejected() {
		out.Sort()
		return importers.ImportPlan{}, out
	}
	sessions, fs := importers.BuildImport(m, mapFile, c.Manifest, recs)
	out = append(out, fs...)
	if out.Rejected() {
		out.Sort()
		return importers.ImportPlan{}, out
	}
	plan, fs := importers.PlanImport(c.Receipts, c.Ledger, sessions)
	out = append(out, fs...)
	out.Sort()
	return plan, out
}

func readSource(source string, s ImportSource) ([]importers.SourceRecord, rules.Findings) {
	digest := sha256.Sum256(s.Data)
	sum := hex.EncodeToString(digest[:])
	switch source {
	case tables.SourceInspect:
		log, fs := importers.ReadInspectLog(s.Name, bytes.NewReader(s.Data), int64(len(s.Data)))
		if log == nil {
			return nil, fs
		}
		recs, more := importers.InspectRecords(log, sum)
		return recs, append(fs, more...)
	case tables.SourceCodex:
		rec, fs := importers.ReadCodexRollout(s.Name, s.Data)
		if rec == nil {
			return nil, fs
		}
		return []importers.SourceRecord{*rec}, fs
	case tables.SourceHarbor:
		rec, fs := importers.ReadHarborTrial(s.Name, s.Data, s.Output)
		if rec == nil {
			return nil, fs
		}
		return []importers.SourceRecord{*rec}, fs
	}
	return nil, rules.Findings{{Code: rules.CodeImportMapInvalid, Severity: rules.Reject, File: s.Name,
		Message: fmt.Sprintf("%q is not an import source", source)}}
}

// checkMeters decodes every record's meter as the account stage will: an
// invalid meter refuses the import here rather than the campaign later.
func checkMeters(recs []importers.SourceRecord) rules.Findings {
	var out rules.Findings
	for _, r := range recs {
		if r.MeterShape == "" {
			continue
		}
		_, problems := account.DecodeMeter(r.MeterShape, r.Usage)
		for _, p := range problems {
			sev := rules.Reject
			if !p.Invalid() {
				sev = rules.Warn
			}
			out = append(out, rules.Finding{Code: p.Code, Severity: sev, File: r.File, Line: r.Line, Pointer: r.Pointer + p.Pointer,
				Message: fmt.Sprintf("%s (shape %s)", p.Message, r.MeterShape)})
		}
	}
	return out
}
