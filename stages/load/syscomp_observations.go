package load

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The neutral packetizer's rules (rule G5: "frozen investigation and
// packet procedure"), checked from the recorded observation log of one
// investigation:
//
//   - every tool call the receipt records is one record of the log, in
//     completion order: E1..EN numbered by array position, completion
//     times non-decreasing, and the (kind, name) sequence of setup and
//     observation records merged by completion time equal to the
//     receipt's tool_calls. Filtering, deduplication, reordering or an
//     invented observation breaks the one-to-one correspondence
//     (observations_unaccounted); errors, truncation notices, empty and
//     unsupported results keep their E ID;
//   - the only setup-overhead record is the declared initial_instructions
//     call; it is never numbered as evidence (setup_overhead_misplaced);
//   - declared source coordinates are real lines of a content-addressed
//     source and their exact bytes appear in the response, so what a
//     citation relies on was visible (observation_source_unseen);
//     coordinates are never invented for plain output, so an error,
//     empty or unsupported result has none (observation_status_inconsistent);
//   - the token count is under the manifest's tokenizer and, for a
//     byte-level BPE tokenizer, at most one token per byte
//     (observation_tokens_implausible). The tool cannot tokenize; the
//     count itself is the recorder's.

// byteLevelBPE are tokenizers that never produce more tokens than bytes.
var byteLevelBPE = []string{"o200k_base", "o200k_harmony", "cl100k_base", "p50k_base", "p50k_edit", "r50k_base", "gpt2"}

// checkObservations applies the packetizer rules to one log.
func (l *loader) checkObservations(log *tables.ObservationLog, r *tables.Receipt, size int64, at position) {
	if want := l.c.Manifest.Identities.Tokenizer; log.Tokenizer != want {
		l.add(at.finding(rules.CodeObservationTokens, "/tokenizer",
			fmt.Sprintf("the token count is under tokenizer %q but the frozen tokenizer is %q", Clip(log.Tokenizer), Clip(want))))
	} else if slices.Contains(byteLevelBPE, want) && log.PacketTokens > size {
		l.add(at.finding(rules.CodeObservationTokens, "/packet_tokens",
			fmt.Sprintf("%d tokens for %d bytes: tokenizer %s never yields more tokens than bytes", log.PacketTokens, size, want)))
	}
	for i, s := range log.Setup {
		if s.Name != tables.SetupOverheadTool || s.Kind != "mcp" {
			l.add(at.finding(rules.CodeSetupOverheadMisplaced, indexPointer("/setup", i)+"/name",
				fmt.Sprintf("%s %q is recorded as setup overhead; only the declared mcp %s call is", s.Kind, Clip(s.Name), tables.SetupOverheadTool)))
		}
	}
	prev := int64(-1)
	index := lineIndex{}
	for i, o := range log.Observations {
		ptr := indexPointer("/observations", i)
		if want := fmt.Sprintf("E%d", i+1); o.ID != want {
			l.add(at.finding(rules.CodeObservationOrder, ptr+"/id",
				fmt.Sprintf("observation %d is %q; observations are numbered E1..EN in completion order, so it must be %s", i+1, o.ID, want)))
		}
		if o.CompletedNS < prev {
			l.add(at.finding(rules.CodeObservationOrder, ptr+"/completed_ns",
				fmt.Sprintf("%s completed at %d ns, before the previous observation (%d ns): observations are in completion order", o.ID, o.CompletedNS, prev)))
		}
		prev = max(prev, o.CompletedNS)
		if o.Name == tables.SetupOverheadTool && o.Kind == "mcp" {
			l.add(at.finding(rules.CodeSetupOverheadMisplaced, ptr+"/name",
				fmt.Sprintf("%s is the declared %s setup overhead; it is recorded in setup, never numbered as evidence", o.ID, tables.SetupOverheadTool)))
		}
		l.checkObservationSource(o, ptr, at, index)
	}
	l.checkAccounted(log, r, at)
}

// checkObservationSource checks one observation's status against its
// record and its declared coordinates against the sources.
func (l *loader) checkObservationSource(o tables.RawObservation, ptr string, at position, index lineIndex) {
	if o.Status == tables.ObservationEmpty && o.Response != "" {
		l.add(at.finding(rules.CodeObservationStatus, ptr+"/status",
			fmt.Sprintf("%s is declared empty but its response has %d bytes", o.ID, len(o.Response))))
	}
	if o.Source == nil {
		return
	}
	if o.Status != tables.ObservationOK && o.Status != tables.ObservationTruncated {
		l.add(at.finding(rules.CodeObservationStatus, ptr+"/source",
			fmt.Sprintf("%s is a %s result but declares source coordinates; coordinates are never invented for plain output", o.ID, o.Status)))
		return
	}
	text, ok := l.sourceLines(*o.Source, ptr+"/source", at, index)
	if ok && !strings.Contains(o.Response, text) {
		l.add(at.finding(rules.CodeObservationSourceUnseen, ptr+"/source",
			fmt.Sprintf("the exact bytes of %s lines %d-%d do not appear in %s's response", o.Source.Path, o.Source.StartLine, o.Source.EndLine, o.ID)))
	}
}

// sourceLines returns the exact bytes of the declared lines, reporting a
// range that is not in the source.
func (l *loader) sourceLines(src tables.ObservationSource, ptr string, at position, index lineIndex) (string, bool) {
	data, ok := l.source(src.FileSHA256)
	if !ok {
		return "", false
	}
	if src.StartLine > src.EndLine {
		l.add(at.finding(rules.CodeLineRangeInvalid, ptr+"/start_line", fmt.Sprintf("start_line %d exceeds end_line %d", src.StartLine, src.EndLine)))
		return "", false
	}
	starts := index.starts(src.FileSHA256, data)
	if n := int64(len(starts) - 1); src.EndLine > n {
		l.add(at.finding(rules.CodeSourceLinesOutOfRange, ptr+"/end_line", fmt.Sprintf("end_line %d is beyond the source file's %d lines", src.EndLine, n)))
		return "", false
	}
	return string(data[starts[src.StartLine-1]:starts[src.EndLine]]), true
}

// checkAccounted requires the log's records, merged by completion time
// (setup first on a tie), to be the receipt's tool calls one to one.
func (l *loader) checkAccounted(log *tables.ObservationLog, r *tables.Receipt, at position) {
	type rec struct {
		kind, name string
		ns         int64
		setup      bool
	}
	var recs []rec
	for _, s := range log.Setup {
		recs = append(recs, rec{s.Kind, s.Name, s.CompletedNS, true})
	}
	for _, o := range log.Observations {
		recs = append(recs, rec{o.Kind, o.Name, o.CompletedNS, false})
	}
	slices.SortStableFunc(recs, func(a, b rec) int {
		if a.setup != b.setup && a.ns == b.ns {
			if a.setup {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.ns, b.ns)
	})
	calls := r.ToolCalls
	if len(recs) != len(calls) {
		l.add(at.finding(rules.CodeObservationsUnaccounted, "/observations",
			fmt.Sprintf("the log has %d records (%d setup, %d observations) but the receipt records %d tool calls", len(recs), len(log.Setup), len(log.Observations), len(calls))))
		return
	}
	for i, c := range calls {
		if recs[i].kind != c.Kind || recs[i].name != c.Name {
			l.add(at.finding(rules.CodeObservationsUnaccounted, "/observations",
				fmt.Sprintf("record %d in completion order is %s %q but the receipt's tool call %d is %s %q", i+1, recs[i].kind, Clip(recs[i].name), i, c.Kind, Clip(c.Name))))
			return
		}
	}
}

// observedPacket is the packet a review received, in the packet shape:
// one item per observation, E IDs kept; an observation with source
// coordinates carries the exact source lines, one without them has no
// path or lines, so no citation can rest on it.
func (l *loader) observedPacket(log *tables.ObservationLog, at position) *tables.Packet {
	p := &tables.Packet{Format: tables.FormatPacket, TaskID: log.TaskID, Repository: log.Repository, Commit: log.Commit, RawObservations: true}
	index := lineIndex{}
	for _, o := range log.Observations {
		it := tables.PacketItem{ID: o.ID}
		if o.Source != nil {
			if text, ok := l.quietLines(*o.Source, index); ok {
				it.Path, it.StartLine, it.EndLine, it.FileSHA256, it.Text = o.Source.Path, o.Source.StartLine, o.Source.EndLine, o.Source.FileSHA256, text
			}
		}
		p.Items = append(p.Items, it)
	}
	return p
}

// quietLines is sourceLines without findings (they were reported once).
func (l *loader) quietLines(src tables.ObservationSource, index lineIndex) (string, bool) {
	data, ok := l.c.Sources[src.FileSHA256]
	if !ok || src.StartLine < 1 || src.StartLine > src.EndLine {
		return "", false
	}
	starts := index.starts(src.FileSHA256, data)
	if src.EndLine > int64(len(starts)-1) {
		return "", false
	}
	return string(data[starts[src.StartLine-1]:starts[src.EndLine]]), true
}
