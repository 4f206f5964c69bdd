package load

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// readJSONL streams a JSONL file of the campaign (rule X1): one object per line, "\n"
// separated, a final newline allowed, blank lines refused. Each line is
// decoded against the named schema; memory is bounded by the line cap and
// the decoded records. session names a record's session for its findings.
func readJSONL[T any](l *loader, name, schema string, session func(*T) string) []tables.Line[T] {
	var records lineChunks[T]
	readJSONLInto(l, name, schema, session, &records, false)
	return records.all()
}

// spoolJSONL is readJSONL into a spool in file order: each record is added
// to the spool as its line is decoded, so that the file's records are held
// encoded (spool.Spool), not as Go values. each, when not nil, sees every
// record kept, in file order, before it is added.
func spoolJSONL[T any](l *loader, name, schema string, session func(*T) string, each func(*tables.Line[T])) *spool.Spool[tables.Line[T]] {
	records := &spoolLines[T]{spool: spool.New[tables.Line[T]](nil), each: each}
	readJSONLInto(l, name, schema, session, records, false)
	records.spool.Compact() // complete: its last rows encoded too
	return records.spool
}

// readJSONLHashed is readJSONL that also returns the sha256 of every byte
// read ("" when the file could not be opened or was not read to its end)
// and whether every line decoded into a record.
func readJSONLHashed[T any](l *loader, name, schema string, session func(*T) string) ([]tables.Line[T], string, bool) {
	var records lineChunks[T]
	sum, whole := readJSONLInto(l, name, schema, session, &records, true)
	return records.all(), sum, whole
}

// readJSONLInto is readJSONLHashed giving the records to records; the
// sha256 is computed only when hashed (else it is "").
func readJSONLInto[T any](l *loader, name, schema string, session func(*T) string, records lineSink[T], hashed bool) (string, bool) {
	f, err := confined.OpenCampaignFile(l.fsys, name)
	if err != nil {
		l.fileFinding(name, err)
		return "", false
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxJSONLFile {
		l.fileFinding(name, &confined.TooLargeError{Path: name, Size: st.Size(), Limit: maxJSONLFile})
		return "", false
	} else if err == nil {
		l.internFor(st.Size())
	}
	var in io.Reader = io.LimitReader(f, maxJSONLFile+1)
	h := sha256.New()
	if hashed {
		in = io.TeeReader(in, h)
	}
	l.linesLost = 0
	if !decodeLinesInto(l, bufio.NewReaderSize(in, 64<<10), name, schema, session, records) {
		return "", false
	}
	if !hashed {
		return "", l.linesLost == 0
	}
	return hex.EncodeToString(h.Sum(nil)), l.linesLost == 0
}

// decodeLines decodes every line of r; it reports whether r was read to
// its end, and counts each line that yields no record in l.linesLost.
func decodeLines[T any](l *loader, r *bufio.Reader, name, schema string, session func(*T) string) ([]tables.Line[T], bool) {
	l.linesLost = 0
	var records lineChunks[T]
	whole := decodeLinesInto(l, r, name, schema, session, &records)
	return records.all(), whole
}

// lineSink takes a file's records as its lines are decoded: next gives a
// zero record to decode a line into in place, then keep takes it or drop
// gives it back (zero again) when the line is refused.
type lineSink[T any] interface {
	next() *tables.Line[T]
	keep()
	drop()
}

// lineChunks collects records in chunks, joined once at the end: the
// records of a large file are held at their size, not in a slice grown
// by doubling.
type lineChunks[T any] struct {
	done [][]tables.Line[T]
	last []tables.Line[T]
	n    int
}

const lineChunk = 4096

// next appends a zero record and returns it, to be filled in place.
func (c *lineChunks[T]) next() *tables.Line[T] {
	if len(c.last) == cap(c.last) && c.last != nil {
		c.done = append(c.done, c.last)
		c.last = nil
	}
	if c.last == nil {
		size := lineChunk // small files start small
		if len(c.done) < 8 {
			size = 16 << len(c.done)
		}
		c.last = make([]tables.Line[T], 0, size)
	}
	c.last = append(c.last, tables.Line[T]{})
	c.n++
	return &c.last[len(c.last)-1]
}

// keep leaves the record next returned last in place.
func (c *lineChunks[T]) keep() {}

// drop removes the record next returned last, zero again.
func (c *lineChunks[T]) drop() {
	c.last[len(c.last)-1] = tables.Line[T]{}
	c.last = c.last[:len(c.last)-1]
	c.n--
}

// all returns the records in order.
func (c *lineChunks[T]) all() []tables.Line[T] {
	if len(c.done) == 0 {
		return c.last
	}
	out := make([]tables.Line[T], 0, c.n)
	for _, d := range c.done {
		out = append(out, d...)
	}
	return append(out, c.last...)
}

// spoolLines adds records to a spool. A line is decoded into one slot,
// reused: keep copies the record into the spool and zeroes the slot, so
// that the next line is decoded into fresh values and never into the
// pointers, slices and strings the spool's copy shares until it is
// encoded.
type spoolLines[T any] struct {
	spool *spool.Spool[tables.Line[T]]
	each  func(*tables.Line[T])
	slot  tables.Line[T]
}

func (s *spoolLines[T]) next() *tables.Line[T] { return &s.slot }

func (s *spoolLines[T]) keep() {
	if s.each != nil {
		s.each(&s.slot)
	}
	s.spool.Add(s.slot)
	s.slot = tables.Line[T]{}
}

func (s *spoolLines[T]) drop() { s.slot = tables.Line[T]{} }

// decodeLinesInto is decodeLines adding the records to records.
func decodeLinesInto[T any](l *loader, r *bufio.Reader, name, schema string, session func(*T) string, records lineSink[T]) bool {
	var total int64
	for n := int64(1); ; n++ {
		line, size, more, err := readLine(r, maxJSONLLine)
		total += size
		at := position{file: name, line: n}
		switch {
		case total > maxJSONLFile:
			l.add(position{file: name}.finding(rules.CodeTooLarge, "", fmt.Sprintf("file has more than %d bytes, its cap", int64(maxJSONLFile))))
			return false
		case err != nil:
			l.add(at.finding(rules.CodeFileUnreadable, "", "file cannot be read: "+err.Error()))
			return false
		case size == 0 && !more:
			return true // end of file, after a final newline or none
		case line == nil:
			l.linesLost++
			l.add(at.finding(rules.CodeLineTooLong, "", fmt.Sprintf("line has %d bytes; the cap is %d", size, maxJSONLLine)))
		case len(bytes.TrimSpace(line)) == 0:
			l.linesLost++
			l.add(at.finding(rules.CodeBlankLine, "", "blank line; JSONL holds one JSON object per line"))
		default:
			rec := records.next() // decoded in place, given back when refused
			var ok bool
			var findings rules.Findings
			if ok = fastLine(schema, line, &rec.Record, l.internFor(0)); !ok {
				var zero T
				rec.Record = zero // what the fast path set
				ok, findings = decodeStreamTo(line, schema, at, &rec.Record, &l.out, l.internFor(0), true)
			}
			if ok {
				rec.Line = n
				for i := range findings {
					findings[i].Session = session(&rec.Record)
				}
				records.keep()
			} else {
				records.drop()
				l.linesLost++
			}
			l.add(findings...)
		}
		if !more {
			return true
		}
	}
}

// fastLine decodes a line of a format that has a fast path (a rating:
// adjudicationFast; a receipt: receiptFast) into rec and reports whether
// it did, which it does only for a line the generic pass accepts without
// a finding; false leaves the line to the generic pass.
func fastLine[T any](schema string, line []byte, rec *T, in *interner) bool {
	switch r := any(rec).(type) {
	case *tables.Adjudication:
		return schema == "adjudication" && adjudicationFast(line, r, in)
	case *tables.Receipt:
		return schema == "receipt" && receiptFast(line, r, in)
	}
	return false
}

// readLine reads one line without its "\n". It returns the line (nil when
// longer than limit, whose bytes are then skipped), the bytes consumed,
// whether a "\n" ended it (so another line may follow), and any read error
// other than io.EOF. A line that fits r's buffer is not copied: it is
// valid only until the next read from r.
func readLine(r *bufio.Reader, limit int) (line []byte, size int64, more bool, err error) {
	chunk, rerr := r.ReadSlice('\n')
	if rerr == nil || rerr == io.EOF { // the whole line, in r's buffer
		line = bytes.TrimSuffix(chunk, []byte("\n"))
		switch {
		case len(line) > limit:
			line = nil
		case line == nil:
			line = []byte{}
		}
		return line, int64(len(chunk)), rerr == nil, nil
	}
	return readLongLine(r, limit, chunk, rerr)
}

// readLongLine is readLine of a line longer than r's buffer, whose first
// chunk and its error have been read.
func readLongLine(r *bufio.Reader, limit int, chunk []byte, rerr error) (line []byte, size int64, more bool, err error) {
	var buf []byte
	tooLong := false
	for first := true; ; first = false {
		if !first {
			chunk, rerr = r.ReadSlice('\n')
		}
		size += int64(len(chunk))
		more = rerr == nil
		chunk = bytes.TrimSuffix(chunk, []byte("\n"))
		if !tooLong && len(buf)+len(chunk) <= limit {
			buf = append(buf, chunk...)
		} else {
			tooLong, buf = true, nil
		}
		switch {
		case rerr == nil || rerr == io.EOF:
			if tooLong {
				return nil, size, more, nil
			}
			if buf == nil {
				buf = []byte{}
			}
			return buf, size, more, nil
		case errors.Is(rerr, bufio.ErrBufferFull):
			continue
		default:
			return nil, size, false, rerr
		}
	}
}

// internFor returns the loader's interner, replaced by a larger one when
// a file of size bytes wants more room than it has.
func (l *loader) internFor(size int64) *interner {
	if l.intern == nil || size/internBytesPerSlot > int64(len(l.intern.strs)) && len(l.intern.strs) < maxInternSlots {
		l.intern = newInterner(size)
	}
	return l.intern
}
