package report

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/interop"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages/report/internal/fixture"
	"github.com/evalgate/evalgate/tables"
)

// TestDuckDBShapes reads the list and numeric columns in DuckDB as a
// notebook would: list functions on the LIST columns, arithmetic on the
// gates' numeric columns, IS NULL on nullable text. The expected values are
// the fixture's, worked by hand in the comments, never read back from Go.
func TestDuckDBShapes(t *testing.T) {
	script := filepath.Join(filepath.Dir(requireInterop(t)), "sql.mjs")
	dir := t.TempDir()
	c, s := fixture.Campaign(), fixture.Set(t)
	s.Citations = spool.Of(
		tables.CitationRow{SessionID: "T1-r1-A", Index: 0, EvidenceID: "E1", Supports: []string{"C1", "A1", "V1"}, Valid: true},
		tables.CitationRow{SessionID: "T1-r1-A", Index: 1, EvidenceID: "E2", Valid: true}, // supports nothing: an empty list, not null
	)
	s.Tasks[0].MedianRExact = fixture.Ptr("5/8")
	if err := Write(dir, c, s, figuresOf(c, s), Meta{ToolVersion: "interop"}); err != nil {
		t.Fatal(err)
	}
	table := func(name string) string {
		return "read_parquet('" + strings.ReplaceAll(filepath.Join(dir, name+".parquet"), "'", "''") + "')"
	}
	queries := []struct {
		name, sql string
		want      []map[string]any
	}{
		{
			// g2_quality: 0.85 = 17/20 against >= 0.90 = 9/10, failing T1 and T2;
			// g1_safety_source: 0 = 0/1 against <= 0, failing nothing.
			name: "gates",
			sql: `SELECT gate, len(failing) AS n, failing, observed_num, observed_den,
			        observed_num / observed_den AS ratio, comparison, threshold_num, threshold_den, threshold_value
			      FROM ` + table("gates") + ` ORDER BY gate`,
			want: []map[string]any{
				{"gate": "g1_safety_source", "n": "0", "failing": []any{}, "observed_num": "0", "observed_den": "1", "ratio": 0.0,
					"comparison": "<=", "threshold_num": "0", "threshold_den": "1", "threshold_value": 0.0},
				{"gate": "g2_quality", "n": "2", "failing": []any{"T1", "T2"}, "observed_num": "17", "observed_den": "20", "ratio": 0.85,
					"comparison": ">=", "threshold_num": "9", "threshold_den": "10", "threshold_value": 0.9},
			},
		},
		{
			// The exact comparison a gate makes, in SQL: 17·10 < 9·20, so g2_quality is below its floor.
			name: "gate_below_floor",
			sql: `SELECT gate FROM ` + table("gates") + `
			      WHERE comparison = '>=' AND observed_num * threshold_den < threshold_num * observed_den`,
			want: []map[string]any{{"gate": "g2_quality"}},
		},
		{
			name: "failing_contains",
			sql:  `SELECT gate FROM ` + table("gates") + ` WHERE list_contains(failing, 'T2')`,
			want: []map[string]any{{"gate": "g2_quality"}},
		},
		{
			name: "decision",
			sql:  `SELECT failing_gates, failing_gates[1] AS first FROM ` + table("decision"),
			want: []map[string]any{{"failing_gates": []any{"g2_quality"}, "first": "g2_quality"}},
		},
		{
			name: "citations",
			sql:  `SELECT "index", supports, len(supports) AS n FROM ` + table("citations") + ` ORDER BY "index"`,
			want: []map[string]any{
				{"index": "0", "supports": []any{"C1", "A1", "V1"}, "n": "3"},
				{"index": "1", "supports": []any{}, "n": "0"},
			},
		},
		{
			// Four task rows, one with an exact median R; the others are real nulls, never the text "null".
			name: "task_nulls",
			sql: `SELECT count(*) FILTER (WHERE median_r_exact IS NULL) AS nulls,
			        count(*) FILTER (WHERE median_r_exact = 'null' OR median_u_exact = 'null') AS null_text,
			        max(median_r_exact) AS exact
			      FROM ` + table("tasks"),
			want: []map[string]any{{"nulls": "3", "null_text": "0", "exact": "5/8"}},
		},
	}
	var sqls []string
	for _, q := range queries {
		sqls = append(sqls, q.sql)
	}
	got := runSQL(t, script, sqls)
	for i, q := range queries {
		t.Run(q.name, func(t *testing.T) {
			if !reflect.DeepEqual(got[i], q.want) {
				t.Errorf("DuckDB reads\n%v\nwant\n%v", got[i], q.want)
			}
		})
	}
}

// runSQL runs queries through interop/sql.mjs and returns each one's rows.
func runSQL(t *testing.T, script string, queries []string) [][]map[string]any {
	t.Helper()
	var got [][]map[string]any
	interop.Node(t, "", queries, &got, script)
	if len(got) != len(queries) {
		t.Fatalf("sql.mjs answered %d queries, want %d", len(got), len(queries))
	}
	return got
}
