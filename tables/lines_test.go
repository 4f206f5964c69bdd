package tables

import (
	"strings"
	"testing"
)

// naiveLines splits s the way the format defines physical lines, written
// independently of LineStarts: strings.SplitAfter, dropping the empty
// element a final newline (or an empty file) leaves.
func naiveLines(s string) []string {
	parts := strings.SplitAfter(s, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

func naiveRange(s string, start, end int64) (string, bool) {
	lines := naiveLines(s)
	if start < 1 || end < start || end > int64(len(lines)) {
		return "", false
	}
	return strings.Join(lines[start-1:end], ""), true
}

func TestLineRange(t *testing.T) {
	tests := []struct {
		name       string
		src        string
		start, end int64
		want       string
		ok         bool
	}{
		{"empty file has no line 1", "", 1, 1, "", false},
		{"final newline adds no line (C09)", "a\nb\n", 3, 3, "", false},
		{"last line of a file ending in newline", "a\nb\n", 2, 2, "b\n", true},
		{"last line without newline", "a\nb", 2, 2, "b", true},
		{"whole file", "a\nb", 1, 2, "a\nb", true},
		{"line zero", "a\n", 0, 1, "", false},
		{"inverted", "a\nb\n", 2, 1, "", false},
		{"blank lines count", "\n\n\n", 2, 3, "\n\n", true},
		{"crlf stays in the line", "a\r\nb\r\n", 1, 1, "a\r\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.src)
			got, ok := LineRange(data, LineStarts(data), tc.start, tc.end)
			if ok != tc.ok || string(got) != tc.want {
				t.Errorf("LineRange(%q, %d, %d) = %q, %v; want %q, %v", tc.src, tc.start, tc.end, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func FuzzLineRange(f *testing.F) {
	f.Add([]byte("a\nb\n"), int64(1), int64(2))
	f.Add([]byte("a\nb"), int64(2), int64(3))
	f.Add([]byte(""), int64(0), int64(0))
	f.Add([]byte("\n\n"), int64(-5), int64(1<<62))
	f.Fuzz(func(t *testing.T, src []byte, start, end int64) {
		got, ok := LineRange(src, LineStarts(src), start, end)
		want, wantOK := naiveRange(string(src), start, end)
		if ok != wantOK || string(got) != want {
			t.Fatalf("LineRange(%q, %d, %d) = %q, %v; naive %q, %v", src, start, end, got, ok, want, wantOK)
		}
	})
}
