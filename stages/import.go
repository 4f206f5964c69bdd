package stages

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/evalgate/evalgate/importers"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/tables"
)

// ImportSource is one source file of `evalgate import`: an Inspect log, a
// Codex rollout or a Harbor result.json, with, for Harbor, the answer
// file the mapping's output_file named in its trial directory (nil none)
// and the input file its input_file named.
type ImportSource struct {
	Name   string
	Data   []byte
	Output []byte
	// Input is, for Harbor, the file the mapping's input_file named in the
	// trial directory: the input the agent received (nil none).
	Input []byte
	// HiddenOutput is, for Inspect, the user's declaration (`import
	// inspect --hidden-tokens output`) that an inclusive meter's tokens
	// beyond input + output are hidden reasoning billed as output
	// (importers.DeclareHiddenOutput).
	HiddenOutput bool
}

// ImportCampaign is what an import reads of the campaign it appends to.
type ImportCampaign struct {
	Manifest *tables.Manifest
	Receipts []byte // receipts.jsonl as it is (may be empty)
	Ledger   []byte // imports.jsonl as it is (may be empty)
	// TaskChecksums are a reviewer benchmark's case IDs and the task
	// checksums of their inventory files (nil for every other kind, or
	// when the inventory cannot be read: validate then reports it).
	TaskChecksums map[string]string
}

// Import reads every source with its reader, maps each record to its
// session by the mapping, checks every meter with the account stage's
// decoder and plans what the import appends to the campaign. It writes
// nothing; the plan is empty and the findings reject when any source,
// record, meter or the mapping does.
func Import(source string, c ImportCampaign, m *tables.ImportMap, mapFile string, sources []ImportSource) (importers.ImportPlan, rules.Findings) {
	var recs []importers.SourceRecord
	var found rules.FindingCap // every reader caps its own; ten thousand sources are capped here
	sorted := func() rules.Findings {
		out := found.Findings()
		out.Sort()
		return out
	}
	for _, s := range sources {
		rs, fs := CheckSource(source, s)
		recs = append(recs, rs...)
		found.Add(fs...)
	}
	if out := sorted(); out.Rejected() {
		return importers.ImportPlan{}, out
	}
	sessions, fs := importers.BuildImport(m, mapFile, c.Manifest, c.TaskChecksums, recs)
	found.Add(fs...)
	found.Add(meterless(c.Manifest.Kind, sessions)...)
	if out := sorted(); out.Rejected() {
		return importers.ImportPlan{}, out
	}
	plan, fs := importers.PlanImport(c.Receipts, c.Ledger, sessions)
	found.Add(fs...)
	return plan, sorted()
}

// CheckSource reads one source file with every check an import makes of
// it before its mapping: the format (import_wrong_format), its reader's,
// and every meter decoded by the account stage. `import SOURCE FILE`
// without --into previews files through it, so a preview and an import
// give one verdict per file: a file it refuses the import refuses with
// the same findings. The records are nil when it refuses the file.
func CheckSource(source string, s ImportSource) ([]importers.SourceRecord, rules.Findings) {
	digest := sha256.Sum256(s.Data)
	sum := hex.EncodeToString(digest[:])
	switch source {
	case tables.SourceInspect:
		_, recs, fs := CheckInspectLog(s.Name, bytes.NewReader(s.Data), int64(len(s.Data)), sum, s.HiddenOutput)
		return recs, fs
	case tables.SourceCodex:
		rec, fs := importers.ReadCodexRollout(s.Name, s.Data)
		if rec == nil {
			if wrong := wrongFormat(source, s.Name, s.Data); wrong != nil {
				return nil, wrong
			}
			return nil, fs
		}
		return []importers.SourceRecord{*rec}, append(fs, meterFindings(*rec)...)
	case tables.SourceHarbor:
		// A Harbor trial is a JSON document of few required members, which
		// other documents also satisfy: the format is checked first.
		if wrong := wrongFormat(source, s.Name, s.Data); wrong != nil {
			return nil, wrong
		}
		rec, fs := importers.ReadHarborTrial(s.Name, s.Data, s.Output)
		if rec == nil {
			return nil, fs
		}
		rec.Input = s.Input
		return []importers.SourceRecord{*rec}, append(fs, meterFindings(*rec)...)
	}
	return nil, rules.Findings{{Code: rules.CodeImportMapInvalid, Severity: rules.Reject, File: s.Name,
		Message: fmt.Sprintf("%q is not an import source", source)}}
}

// meterless says once, for the whole import, which sessions have no
// meter: their charge is unknown, so the campaign's cost gate cannot pass
// while they are in it (account's meter_missing, contract #741 A8). A
// reviewer benchmark's probe or remote execution has no token meter by
// design: it is charged by its bill, or held at its reservation.
func meterless(kind string, sessions []importers.ImportedSession) rules.Findings {
	var ids []string
	for _, s := range sessions {
		remote := kind == rules.KindReviewerBenchmark && tables.RemoteRole(s.Receipt.Role)
		if s.Receipt.Meter == nil && !remote {
			ids = append(ids, s.Receipt.SessionID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	shown := ids[:min(len(ids), 3)]
	more := ""
	if n := len(ids) - len(shown); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return rules.Findings{{Code: rules.CodeImportNoMeter, Severity: rules.Warn, File: sessions[0].Record.File,
		Message: fmt.Sprintf("%d of the %d sessions imported (%s%s) have no meter, because their records hold no token usage whose semantics are known: "+
			"their cost is unknown, so the campaign's cost gate cannot pass while they are in it; a meter comes only from the record's own usage",
			len(ids), len(sessions), strings.Join(shown, ", "), more)}}
}

// CheckInspectLog reads one Inspect log (size bytes of r; fileSHA256 its
// digest, for the import ledger) with every check an import makes of a log
// before its mapping: the reader's, the log's totals against its samples
// (import_usage_unattributed) and every meter decoded by the account
// stage. `import inspect` without --into previews a log through it, so a
// preview and an import give one verdict per log. hiddenOutput is the
// user's declaration that an inclusive meter's hidden tokens are reasoning
// billed as output (importers.DeclareHiddenOutput). The log is nil when the
// reader rejects it.
func CheckInspectLog(name string, r io.ReaderAt, size int64, fileSHA256 string, hiddenOutput bool) (*importers.InspectLog, []importers.SourceRecord, rules.Findings) {
	log, fs := importers.ReadInspectLog(name, r, size)
	if log == nil {
		data := make([]byte, max(0, min(size, maxDetectDocument))) // read once, at its measured size
		if _, err := io.ReadFull(io.NewSectionReader(r, 0, int64(len(data))), data); err == nil {
			if wrong := wrongFormat(tables.SourceInspect, name, data); wrong != nil {
				return nil, nil, wrong
			}
		}
		return nil, nil, fs
	}
	if hiddenOutput {
		importers.DeclareHiddenOutput(log)
	}
	recs, more := importers.InspectRecords(log, fileSHA256)
	var found rules.FindingCap
	found.Add(fs...)
	found.Add(more...)
	checkMeters(recs, &found)
	fs = found.Findings()
	fs.Sort()
	return log, recs, fs
}

// meterFindings is checkMeters of one record.
func meterFindings(r importers.SourceRecord) rules.Findings {
	var found rules.FindingCap
	checkMeters([]importers.SourceRecord{r}, &found)
	return found.Findings()
}

// checkMeters decodes every record's meter as the account stage will: an
// invalid meter refuses the import here rather than the campaign later.
// Its findings go to out, under the caps.
func checkMeters(recs []importers.SourceRecord, out *rules.FindingCap) {
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
			ptr := r.Pointer
			if r.Source == tables.SourceInspect {
				ptr += "/model_usage/" + rules.PointerToken(r.Match.Model)
			}
			out.Add(rules.Finding{Code: p.Code, Severity: sev, File: r.File, Line: r.Line, Pointer: ptr + p.Pointer,
				Message: fmt.Sprintf("%s (shape %s).", strings.TrimSuffix(p.Message, "."), r.MeterShape)})
		}
	}
}
