package validate

import (
	"bytes"
	"io/fs"
	"runtime"
	"testing"
	"testing/fstest"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// countingFS counts the bytes read from each file.
type countingFS struct {
	fs.FS
	read map[string]int64
}

type countingFile struct {
	fs.File
	name string
	read map[string]int64
}

func (c countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return countingFile{f, name, c.read}, nil
}

func (f countingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.read[f.name] += int64(n)
	return n, err
}

// TestIssueOversizedAnswerMemory: a 5 MiB answer (over the 4 MiB cap) was
// kept in a buffer grown by doubling, allocating about 16 MiB per answer.
// It must cost little more than the 4 MiB it keeps, and still be reported
// as too large by the decoder, whose input must be exactly cap+1 bytes.
func TestIssueOversizedAnswerMemory(t *testing.T) {
	f := newFixture(t)
	big := append([]byte(`{"final":"`), bytes.Repeat([]byte("a"), 5<<20)...)
	f.answers["T1-r1-A"] = string(big)
	var got int
	decode := func(file string, data []byte) (*tables.Answer, rules.Findings) {
		if file == "answers/T1-r1-A.json" {
			got = len(data)
		}
		return testDecode(file, data)
	}
	f.run() // writes the files and fixes the receipts' hashes
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	Run(f.campaign(), testAnswers(f.c, decode))
	runtime.ReadMemStats(&after)
	if got != load.MaxAnswerBytes+1 {
		t.Errorf("decoder got %d bytes of the oversized answer; want the cap + 1 = %d", got, load.MaxAnswerBytes+1)
	}
	// 4 MiB kept + 32 KiB copy buffer + the small answers; doubling cost 16 MiB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 7<<20 {
		t.Errorf("Run allocated %d bytes for one 5 MiB answer; want under 7 MiB", alloc)
	}
}

// TestIssueOutputReadPastReceipt: an output file far longer than its
// receipt's byte count was read to the end to hash it. One byte past the
// count is enough to know it does not match.
func TestIssueOutputReadPastReceipt(t *testing.T) {
	f := newFixture(t)
	f.run()
	fsys := f.c.FS.(fstest.MapFS)
	r := f.find("T1-r1-A")
	fsys[r.Output.Path] = &fstest.MapFile{Data: append([]byte(f.answers["T1-r1-A"]), bytes.Repeat([]byte(" "), 8<<20)...)}
	cfs := countingFS{fsys, map[string]int64{}}
	f.c.FS = cfs
	s := Run(f.campaign(), testAnswers(f.c, testDecode))
	if n, want := cfs.read[r.Output.Path], r.Output.Bytes+1; n > want {
		t.Errorf("read %d bytes of %s; want at most the receipt's %d bytes + 1", n, r.Output.Path, r.Output.Bytes)
	}
	if row := sessionRow(s, "T1-r1-A"); row.Classification != tables.ClassInvalid {
		t.Errorf("classification = %q, want %q for an output that does not match its receipt", row.Classification, tables.ClassInvalid)
	}
	if !hasCode(s.Findings, rules.CodeOutputMismatch) {
		t.Errorf("no %s finding: %v", rules.CodeOutputMismatch, s.Findings)
	}
}

func hasCode(fs rules.Findings, code rules.Code) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}

// TestIssueCitationsSplitItemOnce: each citation copied its evidence
// item's whole text and split it into lines again, so an answer citing a
// large item many times cost citations × item size. The item must be split
// once per answer.
func TestIssueCitationsSplitItemOnce(t *testing.T) {
	const lines, citations = 100_000, 128
	src := []byte(numbered("big", lines))
	it := tables.PacketItem{ID: "E1", Path: "src/big.ts", StartLine: 1, EndLine: lines, FileSHA256: sum(src), Text: string(src)}
	task := &tables.LoadedTask{Spec: tables.TaskSpec{ID: "T1"}, Packet: tables.Packet{Items: []tables.PacketItem{it}}}
	v := newRunner(&tables.Campaign{Sources: map[string][]byte{it.FileSHA256: src}}, nil)
	a := &tables.Answer{}
	for i := range citations {
		line := int64(lines - i)
		a.Final.Citations = append(a.Final.Citations, tables.Citation{EvidenceID: "E1", Path: "src/big.ts", StartLine: line, EndLine: line})
	}
	a.Final.Citations[0].EndLine = lines + 1 // one failure, so the check still runs

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	failures := v.citationRows(&sessionResult{id: "T1-r1-A"}, "answers/T1-r1-A.json", a, task, nil)
	runtime.ReadMemStats(&after)

	if failures != 1 {
		t.Errorf("failures = %d, want 1 (the citation past the last line)", failures)
	}
	// One copy (≈1.5 MB) and one split (≈0.8 MB) of the item, one split of
	// the source; per citation it was ≈2.3 MB × 128 ≈ 290 MB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("citationRows allocated %d MiB; want under 16 MiB", alloc>>20)
	}
}
