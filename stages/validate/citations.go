package validate

import (
	"bytes"
	"fmt"
	"math"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// citationRows checks every citation of a against the packet and the
// source bytes (V3), appends one row per citation and returns the number of
// failing citations. A citation also fails when an answer rule already
// flagged it (unknown evidence, inverted range, unresolved supports).
func (v *runner) citationRows(sr *sessionResult, file string, a *tables.Answer, task *tables.LoadedTask, found rules.Findings) int64 {
	session := sr.id
	pk := v.packetOf(task)
	var failures int64
	sr.cites = int32(min(len(a.Final.Citations), math.MaxInt32))
	for i := range a.Final.Citations {
		cit := &a.Final.Citations[i]
		var code rules.Code
		if len(found) > 0 { // the pointer is built only to be looked up
			code = firstCode(found, at("/final/citations").index(i))
		}
		if code == "" {
			if it := pk.items[cit.EvidenceID]; it != nil {
				var msg string
				if code, msg = v.checkCitation(cit, it, pk.sources); code != "" {
					v.findings = append(v.findings, rules.Finding{
						Code: code, Severity: rules.Warn, File: file, Pointer: at("/final/citations").index(i).String(), Session: session, Message: msg,
					})
				}
			}
		}
		if code != "" {
			failures++
		}
		v.cites.Add(tables.CitationRow{
			SessionID:  session,
			Index:      int64(i),
			EvidenceID: cit.EvidenceID,
			Path:       cit.Path,
			StartLine:  cit.StartLine,
			EndLine:    cit.EndLine,
			Supports:   cit.Supports, // the answer is never modified
			Valid:      code == "",
			Code:       string(code),
		})
	}
	return failures
}

// checkCitation applies V3 to one citation of a packet item: same path,
// inside the source file's physical lines (C09), inside the item's range,
// and the item's bytes at those lines equal the source's. sources caches
// each item's source file and the line starts of it and of the item's
// text, so that an item's source is looked up once per packet and its
// text split once, not once per answer or citation.
func (v *runner) checkCitation(cit *tables.Citation, it *tables.PacketItem, sources map[*tables.PacketItem]*itemSource) (rules.Code, string) {
	if cit.Path != it.Path {
		return rules.CodeCitationPathMismatch, fmt.Sprintf("The citation's path %q is not evidence %s's path %q.", cit.Path, it.ID, it.Path)
	}
	s := sources[it]
	if s == nil {
		s = v.itemSource(it)
		sources[it] = s
	}
	if !s.loaded {
		return rules.CodeCitationBytesMismatch, fmt.Sprintf("The source file %s of evidence %s is not loaded, so the cited bytes cannot be checked.", it.FileSHA256, it.ID)
	}
	srcBytes, ok := tables.LineRange(s.src, s.starts, cit.StartLine, cit.EndLine)
	if !ok {
		return rules.CodeCitationBeyondSource, fmt.Sprintf("Lines %d-%d go past the %d physical lines of %s (a final newline adds no line).", cit.StartLine, cit.EndLine, len(s.starts)-1, cit.Path)
	}
	if cit.StartLine < it.StartLine || cit.EndLine > it.EndLine {
		return rules.CodeCitationOutsideItem, fmt.Sprintf("Lines %d-%d are not inside evidence %s's lines %d-%d.", cit.StartLine, cit.EndLine, it.ID, it.StartLine, it.EndLine)
	}
	text := &s.text
	if !s.split {
		text.data = []byte(it.Text)
		text.starts = tables.LineStarts(text.data)
		s.split = true
	}
	itemBytes, ok := tables.LineRange(text.data, text.starts, cit.StartLine-it.StartLine+1, cit.EndLine-it.StartLine+1)
	if !ok || !bytes.Equal(itemBytes, srcBytes) {
		return rules.CodeCitationBytesMismatch, fmt.Sprintf("Evidence %s's text at lines %d-%d differs from the source bytes.", it.ID, cit.StartLine, cit.EndLine)
	}
	return "", ""
}

// splitText is a text with its line starts (see lineStarts).
type splitText struct {
	data   []byte
	starts []int
}

// itemSource is what checkCitation reads of one cited packet item: its
// source file and line starts (shared with every item of that file:
// runner.lines) when the campaign loaded the file, and its text split
// into lines once a citation inside its range needs it (split).
type itemSource struct {
	loaded bool
	src    []byte
	starts []int
	split  bool
	text   splitText
}

// itemSource looks up the source file of it and its line starts, splitting the
// file on first use.
func (v *runner) itemSource(it *tables.PacketItem) *itemSource {
	src, ok := v.c.Sources[it.FileSHA256]
	if !ok {
		return &itemSource{}
	}
	starts, ok := v.lines[it.FileSHA256]
	if !ok {
		starts = tables.LineStarts(src)
		v.lines[it.FileSHA256] = starts
	}
	return &itemSource{loaded: true, src: src, starts: starts}
}

// packetIndex is what the checks of every answer to one packet look up in
// it, built once per packet.
type packetIndex struct {
	items   map[string]*tables.PacketItem      // by ID; of a repeated ID, the last
	sources map[*tables.PacketItem]*itemSource // each cited item's source and text, looked up once
}

// packetKey names a packet by its items, which the campaign holds (a task's
// packet, or an investigation's observations, which a system comparison's
// review receives in a copy of its task).
type packetKey struct {
	first *tables.PacketItem
	n     int
}

// packetOf returns the index of task's packet, building it on first use.
func (v *runner) packetOf(task *tables.LoadedTask) *packetIndex {
	items := task.Packet.Items
	if len(items) == 0 {
		return &packetIndex{items: map[string]*tables.PacketItem{}, sources: map[*tables.PacketItem]*itemSource{}}
	}
	k := packetKey{&items[0], len(items)}
	if pk := v.packets[k]; pk != nil {
		return pk
	}
	pk := &packetIndex{items: packetItems(&task.Packet), sources: map[*tables.PacketItem]*itemSource{}}
	v.packets[k] = pk
	return pk
}

// packetItems indexes pk's items by ID; of a repeated ID, the last.
func packetItems(pk *tables.Packet) map[string]*tables.PacketItem {
	items := make(map[string]*tables.PacketItem, len(pk.Items))
	for i := range pk.Items {
		items[pk.Items[i].ID] = &pk.Items[i]
	}
	return items
}

// dispositionRows appends one row per disposition of a reconciliation
// answer and one per packet evidence ID without a disposition.
func (v *runner) dispositionRows(session string, task *tables.LoadedTask, a *tables.Answer, found rules.Findings) {
	rec := a.Reconciliation
	if rec == nil {
		return
	}
	disposed := map[string]bool{}
	for i, d := range rec.EvidenceDispositions {
		disposed[d.EvidenceID] = true
		var code rules.Code
		if len(found) > 0 { // the pointer is built only to be looked up
			code = firstCode(found, at("/reconciliation/evidence_dispositions").index(i))
		}
		v.disps.Add(tables.DispositionRow{
			SessionID:  session,
			TaskID:     task.Spec.ID,
			EvidenceID: d.EvidenceID,
			Status:     d.Status,
			FinalIDs:   d.FinalIDs, // the answer is never modified
			Valid:      code == "",
			Code:       string(code),
		})
	}
	for _, it := range task.Packet.Items {
		if !disposed[it.ID] {
			disposed[it.ID] = true
			v.disps.Add(tables.DispositionRow{
				SessionID:  session,
				TaskID:     task.Spec.ID,
				EvidenceID: it.ID,
				Status:     tables.StatusMissing,
				Code:       string(rules.CodeDispositionMissing),
			})
		}
	}
}
