package load

import (
	"fmt"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// loadPrompts reads every prompt file and checks its sha256.
func (l *loader) loadPrompts() {
	for _, p := range l.c.Manifest.Prompts {
		if pathProblem(p.Path) != "" || !isLowerHex(p.SHA256, 64) {
			continue // already reported by the schema walk
		}
		if data := l.readCapped(p.Path, maxPrompt); data != nil && l.checkHash(p.Path, data, p.SHA256, "manifest prompt "+p.ID) {
			l.c.Prompts[p.ID] = data
		}
	}
}

// loadTasks reads each task's text, packet and truth in manifest order.
func (l *loader) loadTasks() {
	for _, spec := range l.c.Manifest.Design.Tasks {
		t := tables.LoadedTask{Spec: spec}
		if data := l.readHashed(spec.TaskPath, maxTaskText, spec.TaskSHA256, "task "+spec.ID); data != nil {
			t.Text = data
		}
		packetOK := l.loadPacket(&t)
		l.loadTruth(&t, packetOK)
		l.c.Tasks = append(l.c.Tasks, t)
	}
}

// readHashed reads a file the manifest names and checks its sha256.
func (l *loader) readHashed(path string, limit int64, sha, what string) []byte {
	if pathProblem(path) != "" || !isLowerHex(sha, 64) {
		return nil // already reported by the schema walk
	}
	data := l.readCapped(path, limit)
	if data == nil || !l.checkHash(path, data, sha, "the manifest entry of "+what) {
		return nil
	}
	return data
}

func (l *loader) loadPacket(t *tables.LoadedTask) bool {
	spec := &t.Spec
	data := l.readHashed(spec.PacketPath, maxPacket, spec.PacketSHA256, "task "+spec.ID)
	if data == nil {
		return false
	}
	t.PacketBytes = data
	at := position{file: spec.PacketPath}
	ok, findings := packetFast(data, &t.Packet), rules.Findings(nil)
	if !ok { // not a clean packet: the generic pass finds and words every problem
		t.Packet = tables.Packet{}
		ok, findings = decodeDoc(data, "packet", at, &t.Packet)
	}
	l.add(findings...)
	if !ok {
		return false
	}
	p := &t.Packet
	if p.TaskID != spec.ID || p.Repository != spec.Repository {
		l.add(at.finding(rules.CodeTaskMismatch, "", fmt.Sprintf("packet is for task %q of repository %q but the manifest entry is task %q of repository %q",
			p.TaskID, p.Repository, spec.ID, spec.Repository)))
	}
	d := &l.c.Manifest.Design
	if n := int64(len(p.Items)); d.PacketItemMin <= d.PacketItemMax && (n < d.PacketItemMin || n > d.PacketItemMax) {
		l.add(at.finding(rules.CodePacketItemCount, "/items",
			fmt.Sprintf("packet has %d items; the design allows %d to %d", n, d.PacketItemMin, d.PacketItemMax)))
	}
	u := uniqueIDs{at: at}
	index := lineIndex{}
	for i, it := range p.Items {
		u.check("evidence", it.ID, "/items", i)
		l.checkItemLines(it, indexPointer("/items", i), at, index)
	}
	l.add(u.out...)
	return true
}

// checkItemLines checks a packet item's text against its source file's
// lines. index holds the line starts of the sources already split, so that
// a packet of many items over a large source splits it once, not once per
// item.
func (l *loader) checkItemLines(it tables.PacketItem, ptr string, at position, index lineIndex) {
	src, ok := l.source(it.FileSHA256)
	if !ok {
		return
	}
	if it.StartLine > it.EndLine {
		l.add(at.finding(rules.CodeLineRangeInvalid, ptr+"/start_line",
			fmt.Sprintf("start_line %d exceeds end_line %d", it.StartLine, it.EndLine)))
		return
	}
	starts := index.starts(it.FileSHA256, src)
	if n := int64(len(starts) - 1); it.EndLine > n || it.StartLine < 1 {
		l.add(at.finding(rules.CodeSourceLinesOutOfRange, ptr+"/end_line",
			fmt.Sprintf("end_line %d is beyond the source file's %d lines", it.EndLine, n)))
		return
	}
	if want := src[starts[it.StartLine-1]:starts[it.EndLine]]; string(want) != it.Text {
		l.add(at.finding(rules.CodePacketTextMismatch, ptr+"/text",
			fmt.Sprintf("text is not the exact bytes of lines %d-%d of sources/%s", it.StartLine, it.EndLine, it.FileSHA256)))
	}
}

// lineIndex maps a source's sha256 to its line starts (see tables.LineStarts).
type lineIndex map[string][]int

func (x lineIndex) starts(sha string, src []byte) []int {
	s, ok := x[sha]
	if !ok {
		s = tables.LineStarts(src)
		x[sha] = s
	}
	return s
}

// source returns the bytes of sources/<sha>, read once and checked against
// its content address.
func (l *loader) source(sha string) ([]byte, bool) {
	if !isLowerHex(sha, 64) {
		return nil, false // already reported by the schema walk
	}
	if data, ok := l.c.Sources[sha]; ok {
		return data, data != nil
	}
	name := sourcesDir + sha
	data := l.readCapped(name, maxSource)
	if data != nil && !l.checkHash(name, data, sha, "its content-addressed file name") {
		data = nil
	}
	l.c.Sources[sha] = data
	return data, data != nil
}

func (l *loader) loadTruth(t *tables.LoadedTask, packetOK bool) {
	spec := &t.Spec
	data := l.readHashed(spec.TruthPath, maxTruth, spec.TruthSHA256, "task "+spec.ID)
	if data == nil {
		return
	}
	at := position{file: spec.TruthPath}
	ok, findings := truthFast(data, &t.Truth), rules.Findings(nil)
	if !ok { // not a clean truth: the generic pass finds and words every problem
		t.Truth = tables.Truth{}
		ok, findings = decodeDoc(data, "truth", at, &t.Truth)
	}
	l.add(findings...)
	if !ok {
		return
	}
	tr := &t.Truth
	if tr.TaskID != spec.ID {
		l.add(at.finding(rules.CodeTaskMismatch, "/task_id", fmt.Sprintf("truth is for task %q but the manifest entry is task %q", tr.TaskID, spec.ID)))
	}
	answerable := 0
	u := uniqueIDs{at: at}
	for i, o := range tr.Obligations {
		ptr := indexPointer("/obligations", i)
		u.check("obligation", o.ID, "/obligations", i)
		if o.Answerable {
			answerable++
		}
		for j, e := range o.EvidenceIDs {
			if packetOK && !hasItem(&t.Packet, e) {
				l.add(at.finding(rules.CodeUnknownEvidenceID, indexPointer(ptr+"/evidence_ids", j),
					fmt.Sprintf("evidence ID %q is not an item of the task's packet", e)))
			}
		}
	}
	l.add(u.out...)
	l.add(checkOracle(tr.Oracle, at)...)
	if answerable < 2 {
		l.add(at.finding(rules.CodeTruthAnswerableTooFew, "/obligations",
			fmt.Sprintf("truth has %d answerable obligations; at least 2 are required", answerable)))
	}
}

func hasItem(p *tables.Packet, id string) bool {
	for _, it := range p.Items {
		if it.ID == id {
			return true
		}
	}
	return false
}
