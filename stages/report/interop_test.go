package report

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/interop"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// TestDuckDBInterop proves rule T3: DuckDB (npm @duckdb/node-api, pinned in
// interop/package.json) reads every table Write produces with the intended
// logical types, nullability, values and key-value metadata.
//
// It needs node and interop/node_modules (npm ci --prefix interop). Without
// them it skips, unless CI is set, where it fails.
func TestDuckDBInterop(t *testing.T) {
	script := requireInterop(t)
	dir := t.TempDir()
	s := reflectSet()
	c := fixtureCampaign()
	if err := Write(dir, c, s, figuresOf(c, s), Meta{ToolVersion: "interop"}); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, tb := range tables.Registry() {
		files = append(files, filepath.Join(dir, tb.Name+".parquet"))
	}
	var got []duckFile
	interop.Node(t, "", nil, &got, script, files...)
	if len(got) != len(files) {
		t.Fatalf("check.mjs returned %d files, want %d", len(got), len(files))
	}
	for i, tb := range tables.Registry() {
		t.Run(tb.Name, func(t *testing.T) { checkTable(t, tb, got[i], c) })
	}
}

// duckFile is what interop/check.mjs prints for one file.
type duckFile struct {
	File     string `json:"file"`
	Describe []struct {
		Name string `json:"column_name"`
		Type string `json:"column_type"`
	} `json:"describe"`
	Schema []struct {
		Name       string `json:"name"`
		Repetition string `json:"repetition_type"`
	} `json:"schema"`
	KV []struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	} `json:"kv_metadata"`
	CreatedBy string               `json:"created_by"`
	RowCount  int64                `json:"row_count"`
	Sample    []map[string]*string `json:"sample"`
}

func checkTable(t *testing.T, tb tables.Table, f duckFile, c *tables.Campaign) {
	if f.RowCount != 2 || len(f.Sample) != 2 {
		t.Fatalf("DuckDB sees %d rows (%d sampled), want 2", f.RowCount, len(f.Sample))
	}
	if len(f.Describe) != tb.RowType.NumField() {
		t.Errorf("DuckDB sees %d columns, Go row has %d fields", len(f.Describe), tb.RowType.NumField())
	}
	for i := range min(len(f.Describe), tb.RowType.NumField()) {
		fld := tb.RowType.Field(i)
		col := f.Describe[i]
		t.Run(col.Name, func(t *testing.T) {
			if want := strings.Split(fld.Tag.Get("parquet"), ",")[0]; col.Name != want {
				t.Fatalf("column %d is %q, want %q", i, col.Name, want)
			}
			want := expectedDuckType(fld)
			if col.Type != want && !(want == "TIMESTAMP" && strings.HasPrefix(col.Type, "TIMESTAMP")) {
				t.Errorf("DuckDB type %s, want %s", col.Type, want)
			}
			checkNullability(t, fld, col.Name, f)
		})
	}
	t.Run("kv_metadata", func(t *testing.T) {
		want := map[string]string{
			"evalgate.schema_version":  tables.SchemaVersion,
			"evalgate.manifest_sha256": c.ManifestSHA256,
			"evalgate.tool_version":    "interop",
			"evalgate.synthetic":       "true",
			"evalgate.table":           tb.Name,
		}
		got := map[string]string{}
		for _, kv := range f.KV {
			got[kv.Key] = kv.Value
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("kv metadata %v, want %v", got, want)
		}
		if f.CreatedBy != "evalgate interop" {
			t.Errorf("created_by %q", f.CreatedBy)
		}
	})
}

// checkNullability checks REQUIRED/OPTIONAL, that row 0 of a pointer
// column is null and row 1 is not, that a list column reads as a list of
// the items written, and that money survives exactly.
func checkNullability(t *testing.T, fld reflect.StructField, name string, f duckFile) {
	isPtr := fld.Type.Kind() == reflect.Pointer
	for _, sc := range f.Schema {
		if sc.Name == name {
			if want := map[bool]string{true: "OPTIONAL", false: "REQUIRED"}[isPtr]; sc.Repetition != want {
				t.Errorf("repetition %s, want %s", sc.Repetition, want)
			}
		}
	}
	v0, v1 := f.Sample[0][name], f.Sample[1][name]
	if isPtr && (v0 != nil || v1 == nil) || !isPtr && (v0 == nil || v1 == nil) {
		t.Errorf("values %v, %v: want null only in row 0 of a nullable column", scorecard.OrUnavailable(v0), scorecard.OrUnavailable(v1))
	}
	if fld.Type.Kind() == reflect.Slice {
		// Row 0 holds an empty list, row 1 two items (fillRow).
		w0, w1 := "[]", fmt.Sprintf("[%s, %s]", fillListItem(fld.Index[0], 1, 0), fillListItem(fld.Index[0], 1, 1))
		if v0 == nil || *v0 != w0 || v1 == nil || *v1 != w1 {
			t.Errorf("list values %v, %v; want %s, %s", scorecard.OrUnavailable(v0), scorecard.OrUnavailable(v1), w0, w1)
		}
	}
	if v1 != nil && baseType(fld.Type) == reflect.TypeFor[tables.Money]() {
		m, err := tables.ParseMoney(*v1)
		if want := tables.Money(fillInt(fld.Index[0], 1)); err != nil || m != want {
			t.Errorf("money %q reads as %v (%v), want %s", *v1, m, err, want)
		}
	}
}

// expectedDuckType is the DuckDB type a row field must have, decided from
// the field's Go type (and its declared timestamp tag) alone.
func expectedDuckType(f reflect.StructField) string {
	typ := baseType(f.Type)
	switch {
	case typ == reflect.TypeFor[tables.Money]():
		return "DECIMAL(18,12)"
	case strings.Contains(f.Tag.Get("parquet"), "timestamp("):
		return "TIMESTAMP"
	}
	switch typ.Kind() {
	case reflect.Slice:
		return "VARCHAR[]" // the only list columns hold strings
	case reflect.String:
		return "VARCHAR"
	case reflect.Int64:
		return "BIGINT"
	case reflect.Uint64:
		return "UBIGINT"
	case reflect.Bool:
		return "BOOLEAN"
	case reflect.Float64:
		return "DOUBLE"
	}
	return "unexpected Go kind " + typ.Kind().String()
}

func baseType(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer {
		return t.Elem()
	}
	return t
}

// reflectSet fills every table of a Set with two rows: row 0 with every
// nullable column null, row 1 with every one set.
func reflectSet() *tables.Set {
	s := &tables.Set{}
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		typ := v.Field(i).Type()
		add, spooled := typ.MethodByName("Add") // a *spool.Spool[T]: Add(...T)
		if spooled {
			typ = add.Type.In(1)
		}
		rows := reflect.MakeSlice(typ, 2, 2)
		for r := range 2 {
			fillRow(rows.Index(r), r)
		}
		if spooled {
			sp := reflect.New(v.Field(i).Type().Elem())
			sp.MethodByName("Add").CallSlice([]reflect.Value{rows})
			rows = sp
		}
		v.Field(i).Set(rows)
	}
	return s
}

func fillRow(row reflect.Value, r int) {
	for i := range row.NumField() {
		f := row.Field(i)
		if f.Kind() == reflect.Pointer {
			if r == 0 {
				continue
			}
			f.Set(reflect.New(f.Type().Elem()))
			f = f.Elem()
		}
		switch f.Kind() {
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 2*r, 2*r))
			for k := range 2 * r {
				f.Index(k).SetString(fillListItem(i, r, k))
			}
		case reflect.String:
			f.SetString(fmt.Sprintf("v%d-%d", i, r))
		case reflect.Int64:
			f.SetInt(fillInt(i, r))
		case reflect.Uint64:
			f.SetUint(uint64(fillInt(i, r)))
		case reflect.Bool:
			f.SetBool(r == 1)
		case reflect.Float64:
			f.SetFloat(0.25 + float64(i+r))
		default:
			panic("reflectSet: unsupported kind " + f.Kind().String())
		}
	}
}

func fillInt(field, r int) int64 { return int64(1_000_000*(field+1) + r) }

func fillListItem(field, r, k int) string { return fmt.Sprintf("l%d-%d-%d", field, r, k) }

// requireInterop returns the path of interop/check.mjs, or skips (fails
// under CI) without node or the interop packages.
func requireInterop(t *testing.T) string { return interop.Script(t, "check.mjs") }
