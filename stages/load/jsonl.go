package load

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/evalgate/evalgate/tables"
)

// readJSONL streams a JSONL file of the campaign (rule X1): one object per line, "\n"
// separated, a final newline allowed, blank lines refused. Each line is
// decoded against the named schema; memory is bounded by the line cap and
// the decoded records. session names a record's session for its findings.
func readJSONL[T any](l *loader, name, schema string, session func(*T) string) []tables.Line[T] {
	records, _, _ := readJSONLHashed(l, name, schema, session)
	return records
}

// readJSONLHashed is readJSONL that also returns the sha256 of every byte
// read ("" when the file could not be opened or was not read to its end)
// and whether every line decoded into a record.
func readJSONLHashed[T any](l *loader, name, schema string, session func(*T) string) ([]tables.Line[T], string, bool) {
	f, err := tables.OpenCampaignFile(l.fsys, name)
	if err != nil {
		l.fileFinding(name, err)
		return nil, "", false
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxJSONLFile {
		l.fileFinding(name, &tables.TooLargeError{Path: name, Size: st.Size(), Limit: maxJSONLFile})
		return nil, "", false
	}
	h := sha256.New()
	records, whole := decodeLines(l, bufio.NewReader(io.TeeReader(io.LimitReader(f, maxJSONLFile+1), h)), name, schema, session)
	if !whole {
		return records, "", false
	}
	return records, hex.EncodeToString(h.Sum(nil)), l.linesLost == 0
}

// decodeLines decodes every line of r; it reports whether r was read to
// its end, and counts each line that yields no record in l.linesLost.
func decodeLines[T any](l *loader, r *bufio.Reader, name, schema string, session func(*T) string) ([]tables.Line[T], bool) {
	l.linesLost = 0
	var records []tables.Line[T]
	var total int64
	for n := int64(1); ; n++ {
		line, size, more, err := readLine(r, maxJSONLLine)
		total += size
		at := position{file: name, line: n}
		switch {
		case total > maxJSONLFile:
			l.add(position{file: name}.finding(tables.CodeTooLarge, "", fmt.Sprintf("file has more than %d bytes, its cap", int64(maxJSONLFile))))
			return records, false
		case err != nil:
			l.add(at.finding(tables.CodeFileUnreadable, "", "file cannot be read: "+err.Error()))
			return records, false
		case size == 0 && !more:
			return records, true // end of file, after a final newline or none
		case line == nil:
			l.linesLost++
			l.add(at.finding(tables.CodeLineTooLong, "", fmt.Sprintf("line has %d bytes; the cap is %d", size, maxJSONLLine)))
		case len(bytes.TrimSpace(line)) == 0:
			l.linesLost++
			l.add(at.finding(tables.CodeBlankLine, "", "blank line; JSONL holds one JSON object per line"))
		default:
			var rec T
			ok, findings := decodeDocInto(line, schema, at, &rec, &l.out)
			if ok {
				records = append(records, tables.Line[T]{Line: n, Record: rec})
				for i := range findings {
					findings[i].Session = session(&rec)
				}
			} else {
				l.linesLost++
			}
			l.add(findings...)
		}
		if !more {
			return records, true
		}
	}
}

// readLine reads one line without its "\n". It returns the line (nil when
// longer than limit, whose bytes are then skipped), the bytes consumed,
// whether a "\n" ended it (so another line may follow), and any read error
// other than io.EOF.
func readLine(r *bufio.Reader, limit int) (line []byte, size int64, more bool, err error) {
	var buf []byte
	tooLong := false
	for {
		chunk, rerr := r.ReadSlice('\n')
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
