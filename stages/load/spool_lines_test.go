package load

import (
	"bytes"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/tables"
)

// independentLines decodes each line of a JSONL file on its own, into a
// fresh record and without the interner: the records the loader's spool
// must hold. A line that does not decode is left out, as the loader does.
func independentLines[T any](t *testing.T, data []byte, schema string) []tables.Line[T] {
	t.Helper()
	var out []tables.Line[T]
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		var rec T
		if ok, found := decodeDoc(line, schema, position{file: schema, line: int64(i + 1)}, &rec); ok && !found.Rejected() {
			out = append(out, tables.Line[T]{Line: int64(i + 1), Record: rec})
		}
	}
	return out
}

// TestSpooledRecordsAsDecoded: every example's receipts and ratings, which
// the loader decodes in place into one reused slot and adds to a spool,
// come back equal to each line decoded on its own, so no record shares a
// value the next line was decoded into.
func TestSpooledRecordsAsDecoded(t *testing.T) {
	for _, name := range fixtures.Examples() {
		fsys, _ := fixtures.Example(name)
		c, _ := Campaign(fsys, name)
		receipts, _ := fs.ReadFile(fsys, "receipts.jsonl")
		if want := independentLines[tables.Receipt](t, receipts, "receipt"); !reflect.DeepEqual(slices.Collect(c.Receipts.All()), want) || len(want) == 0 {
			t.Errorf("%s: the spooled receipts differ from the lines decoded one by one", name)
		}
		ratings, err := fs.ReadFile(fsys, "adjudications.jsonl")
		if err != nil {
			continue // the reviewer benchmark has none
		}
		if want := independentLines[tables.Adjudication](t, ratings, "adjudication"); !reflect.DeepEqual(slices.Collect(c.Adjudications.All()), want) {
			t.Errorf("%s: the spooled ratings differ from the lines decoded one by one", name)
		}
	}
}

// TestSpooledRecordAfterRefusedLine: a line refused after part of it was
// decoded into the slot (observations, which the next line lacks, then an
// unknown member) leaves nothing in the record of the next line, and is
// not spooled.
func TestSpooledRecordAfterRefusedLine(t *testing.T) {
	fsys, _ := fixtures.Example("paired-review")
	data, _ := fs.ReadFile(fsys, "receipts.jsonl")
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if len(lines) < 3 {
		t.Fatal("the example has too few receipts")
	}
	lines[1] = append(bytes.TrimSuffix(bytes.Clone(lines[1]), []byte("}")), []byte(`,"observations":{"path":"observations/x.json","sha256":"`+strings.Repeat("a", 64)+`","bytes":1},"zz_unknown":1}`)...)
	edited := append(bytes.Join(lines, []byte("\n")), '\n')
	l := &loader{fsys: fstest.MapFS{"receipts.jsonl": {Data: edited}}}
	got := spoolJSONL(l, "receipts.jsonl", "receipt", func(r *tables.Receipt) string { return r.SessionID }, nil)
	want := independentLines[tables.Receipt](t, edited, "receipt")
	if len(want) != len(lines)-1 || got.Len() != len(want) || !reflect.DeepEqual(got.Collect(), want) {
		t.Fatalf("%d receipts spooled, %d decoded one by one; or their values differ", got.Len(), len(want))
	}
	if !l.findings().Rejected() {
		t.Error("the edited line was not refused")
	}
}
