package tables_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// sampleRows returns two rows of type T filled by reflection: in row 0
// every pointer (nullable column) is nil, in row 1 every pointer is set.
// Every other field gets a value derived from its index and the row, so a
// column swap or a dropped column changes the data.
func sampleRows[T any]() []T {
	rows := make([]T, 2)
	for r := range rows {
		v := reflect.ValueOf(&rows[r]).Elem()
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() == reflect.Pointer {
				if r == 0 {
					continue
				}
				f.Set(reflect.New(f.Type().Elem()))
				f = f.Elem()
			}
			fill(f, i, r)
		}
	}
	return rows
}

// fill sets a scalar field to a value that depends on field index i and row
// r; a list gets r items (row 0 an empty list, as a reader returns it).
func fill(f reflect.Value, i, r int) {
	switch f.Kind() {
	case reflect.Slice:
		f.Set(reflect.MakeSlice(f.Type(), r, r))
		for k := range r {
			fill(f.Index(k), i*10+k, r)
		}
	case reflect.String:
		f.SetString(fmt.Sprintf("v%d-%d", i, r))
	case reflect.Int64, reflect.Int32, reflect.Int:
		f.SetInt(int64(1_000_000*(i+1) + r))
	case reflect.Uint64, reflect.Uint32:
		f.SetUint(uint64(1_000_000*(i+1) + r))
	case reflect.Bool:
		f.SetBool(r%2 == 1)
	case reflect.Float64:
		f.SetFloat(0.25 + float64(i) + float64(r))
	default:
		panic("sampleRows: unsupported kind " + f.Kind().String())
	}
}

var testMeta = tables.Metadata{
	ManifestSHA256: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	ToolVersion:    "test",
	Synthetic:      true,
	Table:          "runs",
}

func TestWriteParquetRoundTrip(t *testing.T) {
	dir := t.TempDir()
	t.Run("sessions", func(t *testing.T) { roundTrip[tables.Session](t, dir) })
	t.Run("tokens", func(t *testing.T) { roundTrip[tables.Token](t, dir) })
	t.Run("obligations", func(t *testing.T) { roundTrip[tables.ObligationOutcome](t, dir) })
	t.Run("dispositions", func(t *testing.T) { roundTrip[tables.DispositionRow](t, dir) })
	t.Run("citations", func(t *testing.T) { roundTrip[tables.CitationRow](t, dir) })
	t.Run("runs", func(t *testing.T) { roundTrip[tables.Run](t, dir) })
	t.Run("tasks", func(t *testing.T) { roundTrip[tables.Task](t, dir) })
	t.Run("repositories", func(t *testing.T) { roundTrip[tables.Repository](t, dir) })
	t.Run("gates", func(t *testing.T) { roundTrip[tables.Gate](t, dir) })
	t.Run("decision", func(t *testing.T) { roundTrip[tables.Decision](t, dir) })
	t.Run("intervals", func(t *testing.T) { roundTrip[tables.Interval](t, dir) })
	t.Run("campaign_findings", func(t *testing.T) { roundTrip[rules.Finding](t, dir) })
	t.Run("ledger", func(t *testing.T) { roundTrip[tables.LedgerEntry](t, dir) })
}

func roundTrip[T any](t *testing.T, dir string) {
	rows := sampleRows[T]()
	path := filepath.Join(dir, t.Name()[len("TestWriteParquetRoundTrip/"):]+".parquet")
	if err := tables.WriteParquet(path, rows, testMeta); err != nil {
		t.Fatal(err)
	}
	got, err := parquet.ReadFile[T](path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, rows)
	}
}

func TestWriteParquetDeterministic(t *testing.T) {
	dir := t.TempDir()
	rows := sampleRows[tables.Run]()
	a, b := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
	for _, p := range []string{a, b} {
		if err := tables.WriteParquet(p, rows, testMeta); err != nil {
			t.Fatal(err)
		}
	}
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if len(ba) == 0 || !bytes.Equal(ba, bb) {
		t.Errorf("two writes of the same rows differ (%d and %d bytes)", len(ba), len(bb))
	}
}

func TestWriteParquetFileMetadata(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.parquet")
	if err := tables.WriteParquet(path, sampleRows[tables.Run](), testMeta); err != nil {
		t.Fatal(err)
	}
	f := openParquet(t, path)
	want := map[string]string{
		"evalgate.schema_version":  tables.SchemaVersion,
		"evalgate.manifest_sha256": testMeta.ManifestSHA256,
		"evalgate.tool_version":    "test",
		"evalgate.synthetic":       "true",
		"evalgate.table":           "runs",
	}
	for k, v := range want {
		t.Run(k, func(t *testing.T) {
			if got, ok := f.Lookup(k); !ok || got != v {
				t.Errorf("metadata %s = %q, %v; want %q", k, got, ok, v)
			}
		})
	}
	t.Run("created_by", func(t *testing.T) {
		if got := f.Metadata().CreatedBy; got != "evalgate test" {
			t.Errorf("created_by = %q, want %q", got, "evalgate test")
		}
	})
	t.Run("zstd", func(t *testing.T) {
		for _, rg := range f.Metadata().RowGroups {
			for _, c := range rg.Columns {
				if c.MetaData.Codec.String() != "ZSTD" {
					t.Errorf("column %v codec %v, want ZSTD", c.MetaData.PathInSchema, c.MetaData.Codec)
				}
			}
		}
	})
}

func openParquet(t *testing.T, path string) *parquet.File {
	t.Helper()
	osf, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { osf.Close() })
	st, _ := osf.Stat()
	f, err := parquet.OpenFile(osf, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// small is a one-column row type for row-group tests.
type small struct {
	N int64 `parquet:"n"`
}

func TestWriteParquetRowGroups(t *testing.T) {
	// MaxRowsPerRowGroup+1 rows must give exactly two row groups: one full,
	// one with a single row.
	rows := make([]small, tables.MaxRowsPerRowGroup+1)
	for i := range rows {
		rows[i].N = int64(i)
	}
	path := filepath.Join(t.TempDir(), "small.parquet")
	if err := tables.WriteParquet(path, rows, testMeta); err != nil {
		t.Fatal(err)
	}
	rgs := openParquet(t, path).Metadata().RowGroups
	if len(rgs) != 2 || rgs[0].NumRows != tables.MaxRowsPerRowGroup || rgs[1].NumRows != 1 {
		t.Errorf("row groups: %d, want 2 of %d and 1 rows", len(rgs), tables.MaxRowsPerRowGroup)
	}
	got, err := parquet.ReadFile[small](path)
	if err != nil || !reflect.DeepEqual(got, rows) {
		t.Errorf("read back %d rows, err %v", len(got), err)
	}
}

func TestWriteParquetEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.parquet")
	if err := tables.WriteParquet(path, []tables.Gate(nil), testMeta); err != nil {
		t.Fatal(err)
	}
	got, err := parquet.ReadFile[tables.Gate](path)
	if err != nil || len(got) != 0 {
		t.Errorf("empty table read back %d rows, err %v", len(got), err)
	}
}

// badTag has a decimal tag on a string field, which parquet-go refuses.
type badTag struct {
	S string `parquet:"s,decimal(12:18)"`
}

func TestWriteParquetAtomic(t *testing.T) {
	t.Run("error_leaves_old_file_and_no_temp", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "t.parquet")
		if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		err := tables.WriteParquet(path, []badTag{{S: "x"}}, testMeta)
		if !errors.Is(err, tables.ErrParquetSchema) {
			t.Fatalf("err = %v, want ErrParquetSchema", err)
		}
		assertDir(t, dir, "t.parquet")
		if b, _ := os.ReadFile(path); string(b) != "old" {
			t.Errorf("old file changed to %q", b)
		}
	})
	t.Run("missing_dir", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "no", "t.parquet")
		if err := tables.WriteParquet(path, sampleRows[tables.Gate](), testMeta); err == nil {
			t.Error("write into a missing directory succeeded")
		}
	})
	t.Run("success_leaves_only_the_table", func(t *testing.T) {
		dir := t.TempDir()
		if err := tables.WriteParquet(filepath.Join(dir, "g.parquet"), sampleRows[tables.Gate](), testMeta); err != nil {
			t.Fatal(err)
		}
		assertDir(t, dir, "g.parquet")
	})
}

// assertDir checks dir holds exactly the named entries.
func assertDir(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if !reflect.DeepEqual(got, names) {
		t.Errorf("dir holds %q, want %q", got, names)
	}
}
