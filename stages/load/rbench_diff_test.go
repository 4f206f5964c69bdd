package load

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// TestVariantDiff: a variant may differ from its clean case only in the
// defect's file and only within the planted lines; each case's expected
// verdict is worked out by hand from the line numbers.
func TestVariantDiff(t *testing.T) {
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	clean := "a\nb\nc\nd\n"
	l := &loader{c: &tables.Campaign{Sources: map[string][]byte{}}}
	file := func(path, text string) tables.InventoryFile {
		l.c.Sources[sum(text)] = []byte(text)
		return tables.InventoryFile{Path: path, SHA256: sum(text), Bytes: int64(len(text))}
	}
	other := file("task.toml", "x\n")
	base := []tables.InventoryFile{other, file("t.sh", clean)}
	loc := func(a, b int64) tables.Location { return tables.Location{Path: "t.sh", StartLine: a, EndLine: b} }
	for _, tc := range []struct {
		name    string
		variant []tables.InventoryFile
		loc     tables.Location
		ok      bool
	}{
		{"line 2 replaced, planted 2-2", []tables.InventoryFile{other, file("t.sh", "a\nB\nc\nd\n")}, loc(2, 2), true},
		{"line 2 replaced, planted 3-3", []tables.InventoryFile{other, file("t.sh", "a\nB\nc\nd\n")}, loc(3, 3), false},
		{"two lines inserted after 2, planted 3-4", []tables.InventoryFile{other, file("t.sh", "a\nb\nX\nY\nc\nd\n")}, loc(3, 4), true},
		{"two lines inserted after 2, planted 3-3", []tables.InventoryFile{other, file("t.sh", "a\nb\nX\nY\nc\nd\n")}, loc(3, 3), false},
		{"line 3 deleted, planted 3-3", []tables.InventoryFile{other, file("t.sh", "a\nb\nd\n")}, loc(3, 3), true},
		{"line 3 deleted, planted 1-1", []tables.InventoryFile{other, file("t.sh", "a\nb\nd\n")}, loc(1, 1), false},
		{"defect file unchanged", base, loc(2, 2), false},
		{"another file changed", []tables.InventoryFile{file("task.toml", "y\n"), file("t.sh", "a\nB\nc\nd\n")}, loc(2, 2), false},
		{"another file missing", []tables.InventoryFile{file("t.sh", "a\nB\nc\nd\n")}, loc(2, 2), false},
		{"another file added", []tables.InventoryFile{other, file("t.sh", "a\nB\nc\nd\n"), file("z.txt", "z\n")}, loc(2, 2), false},
		{"the defect is a new file", []tables.InventoryFile{other, file("t.sh", clean), file("leak.txt", "answer\n")},
			tables.Location{Path: "leak.txt", StartLine: 1, EndLine: 1}, true},
	} {
		if msg := l.variantDiff(base, tc.variant, tc.loc); (msg == "") != tc.ok {
			t.Errorf("%s: %q, want ok %v", tc.name, msg, tc.ok)
		}
	}
}
