package load

import (
	"bufio"
	"bytes"
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
	f, err := tables.OpenCampaignFile(l.fsys, name)
	if err != nil {
		l.fileFinding(name, err)
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxJSONLFile {
		l.fileFinding(name, &tables.TooLargeError{Path: name, Size: st.Size(), Limit: maxJSONLFile})
		return nil
	}
	return decodeLines(l, bufio.NewReader(io.LimitReader(f, maxJSONLFile+1)), name, schema, session)
}

func decodeLines[T any](l *loader, r *bufio.Reader, name, schema string, session func(*T) string) []tables.Line[T] {
	var records []tables.Line[T]
	var total int64
	for n := int64(1); ; n++ {
		line, size, more, err := readLine(r, maxJSONLLine)
		total += size
		at := position{file: name, line: n}
		switch {
		case total > maxJSONLFile:
			l.add(position{file: name}.finding(tables.CodeTooLarge, "", fmt.Sprintf("file has more than %d bytes, its cap", int64(maxJSONLFile))))
			return records
		case err != nil:
			l.add(at.finding(tables.CodeFileUnreadable, "", "file cannot be read: "+err.Error()))
			return records
		case size == 0 && !more:
			return records // end of file, after a final newline or none
		case line == nil:
			l.add(at.finding(tables.CodeLineTooLong, "", fmt.Sprintf("line has %d bytes; the cap is %d", size, maxJSONLLine)))
		case len(bytes.TrimSpace(line)) == 0:
			l.add(at.finding(tables.CodeBlankLine, "", "blank line; JSONL holds one JSON object per line"))
		default:
			var rec T
			ok, findings := decodeDocInto(line, schema, at, &rec, &l.out)
			if ok {
				records = append(records, tables.Line[T]{Line: n, Record: rec})
				for i := range findings {
					findings[i].Session = session(&rec)
				}
			}
			l.add(findings...)
		}
		if !more {
			return records
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
