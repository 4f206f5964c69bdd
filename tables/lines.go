package tables

import "bytes"

// Physical lines (rule I3, control C09): a file is split after
// each "\n"; a final newline does not start an extra line and the last line
// may lack its "\n". An empty file has no lines. Packet items, citations
// and every line number in the format count lines this way.

// LineStarts returns the byte offset of the start of every physical line
// of data followed by len(data), so line n (1-based) is
// data[starts[n-1]:starts[n]] and the file has len(starts)-1 lines.
func LineStarts(data []byte) []int {
	starts := make([]int, 1, bytes.Count(data, []byte("\n"))+2)
	for off := 0; off < len(data); {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			off = len(data)
		} else {
			off += i + 1
		}
		starts = append(starts, off)
	}
	return starts
}

// LineRange returns the bytes of lines start..end (1-based, inclusive) of
// data, whose line starts are starts, and false when the range is empty,
// inverted or goes past the last physical line.
func LineRange(data []byte, starts []int, start, end int64) ([]byte, bool) {
	n := int64(len(starts) - 1)
	if start < 1 || end < start || end > n {
		return nil, false
	}
	return data[starts[start-1]:starts[end]], true
}
