package tables_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/evalgate/evalgate/internal/golden"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

func TestRegistryOrder(t *testing.T) {
	want := []string{"sessions", "tokens", "obligations", "dispositions", "citations", "runs",
		"tasks", "repositories", "gates", "decision", "intervals", "campaign_findings", "ledger", "ceilings", "prompt_versions",
		"cases", "reviews", "criteria", "review_findings", "review_finding_adjudications", "review_metrics", "label_queue"}
	var got []string
	for _, tb := range tables.Registry() {
		got = append(got, tb.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("registry order %q, want %q", got, want)
	}
}

// TestRegistryCoversSet checks every field of tables.Set is registered
// exactly once, by comparing each table's rows with the Set field of the
// same row type.
func TestRegistryCoversSet(t *testing.T) {
	setType := reflect.TypeFor[tables.Set]()
	byType := map[reflect.Type]string{}
	for _, tb := range tables.Registry() {
		if prev, dup := byType[tb.RowType]; dup {
			t.Errorf("row type %v registered by %s and %s", tb.RowType, prev, tb.Name)
		}
		byType[tb.RowType] = tb.Name
	}
	for i := range setType.NumField() {
		f := setType.Field(i)
		rowType := f.Type.Elem()
		if m, ok := f.Type.MethodByName("Collect"); ok { // a *Spool[T]: Collect returns []T
			rowType = m.Type.Out(0).Elem()
		}
		if _, ok := byType[rowType]; !ok {
			t.Errorf("Set.%s (%v) has no registered table", f.Name, f.Type)
		}
	}
	if setType.NumField() != len(byType) {
		t.Errorf("Set has %d fields, registry %d tables", setType.NumField(), len(byType))
	}
}

func TestRegistryRowsAndLen(t *testing.T) {
	s := &tables.Set{
		Runs:       spool.Of(sampleRows[tables.Run]()...),
		Rejections: []rules.Finding{{Code: "b", File: "z"}, {Code: "a", File: "a"}},
	}
	for _, tb := range tables.Registry() {
		t.Run(tb.Name, func(t *testing.T) {
			rows := reflect.ValueOf(tb.Rows(s))
			if rows.Type().Elem() != tb.RowType {
				t.Errorf("Rows gives %v, want []%v", rows.Type(), tb.RowType)
			}
			want := map[string]int{"runs": 2, "campaign_findings": 2}[tb.Name]
			if rows.Len() != want || tb.Len(s) != want {
				t.Errorf("Rows has %d, Len %d, want %d", rows.Len(), tb.Len(s), want)
			}
		})
	}
	t.Run("rejections_sorted_copy", func(t *testing.T) {
		rej := tables.Registry()[11].Rows(s).([]rules.Finding)
		if rej[0].File != "a" || s.Rejections[0].File != "z" {
			t.Errorf("rejections = %v (set %v): want a sorted copy", rej, s.Rejections)
		}
	})
}

// TestSchemaGolden compares every table's Parquet schema with
// testdata/<table>.schema. Refresh with go test ./tables -run TestSchemaGolden -update.
func TestSchemaGolden(t *testing.T) {
	for _, tb := range tables.Registry() {
		t.Run(tb.Name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", tb.Name+".schema"), []byte(tb.Schema.String()+"\n"))
		})
	}
}

// TestSchemaLogicalTypes pins the Parquet types the Go kinds must produce:
// a wrong tag (e.g. decimal(18:12) instead of decimal(12:18)) fails here.
func TestSchemaLogicalTypes(t *testing.T) {
	for _, tb := range tables.Registry() {
		for i := range tb.RowType.NumField() {
			f := tb.RowType.Field(i)
			name := columnName(f)
			t.Run(tb.Name+"/"+name, func(t *testing.T) {
				col := lookupColumn(tb.Schema, name)
				if col == nil {
					t.Fatalf("no column %q", name)
				}
				want := expectedParquetType(f)
				if got := parquetType(col); got != want {
					t.Errorf("type %s, want %s", got, want)
				}
				if isPtr := f.Type.Kind() == reflect.Pointer; col.Optional() != isPtr {
					t.Errorf("optional=%v, want %v (pointer field)", col.Optional(), isPtr)
				}
			})
		}
	}
}

// expectedParquetType is the Parquet type a row field must have, decided
// from its Go type alone.
func expectedParquetType(f reflect.StructField) string {
	typ := f.Type
	if typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() == reflect.Slice && typ.Elem().Kind() == reflect.String {
		return "LIST<STRING>"
	}
	switch {
	case typ == reflect.TypeFor[tables.Money]():
		return "DECIMAL(18,12)"
	case strings.HasSuffix(columnName(f), "_at"):
		return "TIMESTAMP(isAdjustedToUTC=true,unit=NANOS)"
	}
	switch typ.Kind() {
	case reflect.String:
		return "STRING"
	case reflect.Int64:
		return "INT(64,true)"
	case reflect.Uint64:
		return "INT(64,false)"
	case reflect.Bool:
		return "BOOLEAN"
	case reflect.Float64:
		return "DOUBLE"
	}
	return "unexpected Go kind " + typ.Kind().String()
}

func columnName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
	return name
}

func lookupColumn(s *parquet.Schema, name string) parquet.Field {
	for _, c := range s.Fields() {
		if c.Name() == name {
			return c
		}
	}
	return nil
}

func parquetType(n parquet.Node) string {
	if !n.Leaf() {
		// A LIST group: list.element holds the items.
		if len(n.Fields()) == 1 && len(n.Fields()[0].Fields()) == 1 {
			return "LIST<" + parquetType(n.Fields()[0].Fields()[0]) + ">"
		}
		return "GROUP"
	}
	if lt := n.Type().LogicalType(); lt != nil {
		return lt.String()
	}
	return n.Type().String()
}

// TestDataDictionary checks docs/tables.md equals what the registry and
// the row types' comments generate. Refresh with go test ./tables -update.
func TestDataDictionary(t *testing.T) {
	comments := parseRowComments(t)
	golden.Check(t, filepath.Join("..", "docs", "tables.md"), renderDictionary(comments))
}

// TestEveryColumnDescribed fails on any column of any table whose row
// field has no comment: docs/tables.md would show an empty description.
func TestEveryColumnDescribed(t *testing.T) {
	comments := parseRowComments(t)
	for _, tb := range tables.Registry() {
		tc := comments[tb.RowType.String()]
		for i := range tb.RowType.NumField() {
			f := tb.RowType.Field(i)
			if strings.TrimSpace(tc.fields[f.Name]) == "" {
				t.Errorf("%s.%s (%s.%s) has no description: add a field comment", tb.Name, columnName(f), tb.RowType.String(), f.Name)
			}
		}
	}
}

// typeComments holds a row type's doc comment and its fields' comments.
type typeComments struct {
	doc    string
	fields map[string]string
}

// parseRowComments reads the non-test sources of this package and of
// package rules (the rejections table's row type, rules.Finding) for the
// doc and field comments of every struct type, keyed by package-qualified
// type name ("tables.Run").
func parseRowComments(t *testing.T) map[string]typeComments {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	ruleFiles, err := filepath.Glob(filepath.Join("..", "rules", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, ruleFiles...)
	out := map[string]typeComments{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			collectStructs(f.Name.Name, decl, out)
		}
	}
	return out
}

func collectStructs(pkg string, decl ast.Decl, out map[string]typeComments) {
	gen, ok := decl.(*ast.GenDecl)
	if !ok || gen.Tok != token.TYPE {
		return
	}
	for _, spec := range gen.Specs {
		ts := spec.(*ast.TypeSpec)
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			continue
		}
		tc := typeComments{doc: gen.Doc.Text(), fields: map[string]string{}}
		if ts.Doc != nil {
			tc.doc = ts.Doc.Text()
		}
		for _, fld := range st.Fields.List {
			text := strings.TrimSpace(fld.Doc.Text() + " " + fld.Comment.Text())
			for _, n := range fld.Names {
				tc.fields[n.Name] = strings.Join(strings.Fields(text), " ")
			}
		}
		out[pkg+"."+ts.Name.Name] = tc
	}
}

// duckDBType is how DuckDB 1.5 reads a Parquet type (proved by
// stages/report/interop_test.go).
var duckDBType = map[string]string{
	"STRING":         "VARCHAR",
	"LIST<STRING>":   "VARCHAR[]",
	"INT(64,true)":   "BIGINT",
	"INT(64,false)":  "UBIGINT",
	"BOOLEAN":        "BOOLEAN",
	"DOUBLE":         "DOUBLE",
	"DECIMAL(18,12)": "DECIMAL(18,12)",
	"TIMESTAMP(isAdjustedToUTC=true,unit=NANOS)": "TIMESTAMP WITH TIME ZONE",
}

func renderDictionary(comments map[string]typeComments) []byte {
	var b bytes.Buffer
	b.WriteString(dictionaryHeader)
	b.WriteString("\n| table | one row is |\n|---|---|\n")
	for _, tb := range tables.Registry() {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", tb.Name, tb.Name, tb.Doc)
	}
	for _, tb := range tables.Registry() {
		tc := comments[tb.RowType.String()]
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", tb.Name, tb.Doc)
		fmt.Fprintf(&b, "File `%s.parquet`; Go row type `%s`.", tb.Name, tb.RowType.String())
		if doc := strings.Join(strings.Fields(tc.doc), " "); doc != "" {
			fmt.Fprintf(&b, " %s", doc)
		}
		b.WriteString("\n\n| column | Parquet type | DuckDB type | nullable | description |\n|---|---|---|---|---|\n")
		for i := range tb.RowType.NumField() {
			f := tb.RowType.Field(i)
			col := lookupColumn(tb.Schema, columnName(f))
			pt := parquetType(col)
			null := "no"
			if col.Optional() {
				null = "yes"
			}
			desc := strings.ReplaceAll(tc.fields[f.Name], "|", `\|`)
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", col.Name(), pt, duckDBType[pt], null, desc)
		}
	}
	return b.Bytes()
}

const dictionaryHeader = `# Output tables: data dictionary

<!-- Generated by "go test ./tables -run TestDataDictionary -update" from
tables.Registry() and the field comments of the row types. Do not edit. -->

evalgate writes every table below as ` + "`<name>.parquet`" + ` into the output directory
(rule T1), in this order. Conventions:

- One Parquet file per table, Zstd-compressed, at most 65,536 rows per row group,
  ` + "`created_by`" + ` = ` + "`evalgate <tool version>`" + `. Same inputs → byte-identical files (T2).
- Files are written to a temporary name in the same directory and renamed when
  complete: a file under its real name is always whole.
- Nullable columns are Parquet OPTIONAL (Go pointers); every other column is REQUIRED.
  DuckDB's ` + "`DESCRIBE`" + ` shows every column as nullable; use ` + "`parquet_schema()`" + ` for the
  repetition type.
- Money is DECIMAL(18,12) stored as INT64 (exact pico-units of the currency); never a float.
- Timestamps are INT64 nanoseconds since the Unix epoch, UTC (TIMESTAMP, isAdjustedToUTC,
  NANOS). DuckDB reads them as TIMESTAMP WITH TIME ZONE at microsecond precision; the exact
  nanoseconds are available with ` + "`epoch_ns(col)`" + `.
- Durations are INT64 nanoseconds; counts are INT64.
- Rows are sorted by their key columns by the stage that fills them; campaign_findings
  are sorted by file, line, pointer, code, session and message.
- ` + "`campaign_findings`" + ` are evalgate's findings about the campaign's record (what
  ` + "`validate`" + ` prints, with the severity docs/errors.md gives each code);
  ` + "`review_findings`" + ` are what a reviewer under test reported in a reviewer benchmark.
  Before ` + "`evalgate.tables/v3`" + ` they were ` + "`rejections`" + ` and ` + "`findings`" + `
  (and ` + "`review_finding_adjudications`" + ` was ` + "`finding_adjudications`" + `).

The binary prints this dictionary: ` + "`evalgate tables`" + `, or one table's section with
` + "`evalgate tables NAME`" + `.

Every file carries this key-value metadata:

| key | value |
|---|---|
| ` + "`evalgate.schema_version`" + ` | ` + "`" + tables.SchemaVersion + "`" + `: changes whenever a column is renamed, retyped or removed |
| ` + "`evalgate.manifest_sha256`" + ` | sha256 of manifest.json: the campaign identity |
| ` + "`evalgate.tool_version`" + ` | evalgate's version |
| ` + "`evalgate.synthetic`" + ` | ` + "`true`" + ` or ` + "`false`" + `: the manifest's synthetic flag |
| ` + "`evalgate.table`" + ` | the table name below |

Next to the tables, the report stage writes ` + "`scorecard.json`" + ` (the stable machine interface,
` + "`scorecard_version`" + ` = ` + "`evalgate.scorecard/v1`" + `; its fields are the Go type
` + "`scorecard.Scorecard`" + ` in stages/report/scorecard), ` + "`report.md`" + ` and ` + "`report.html`" + ` (for people;
not parsing targets).
`
