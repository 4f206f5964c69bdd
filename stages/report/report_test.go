package report

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// outputNames is every file Write must produce, sorted.
func outputNames() []string {
	names := []string{ScorecardFile, ReportFile, HTMLFile}
	for _, tb := range tables.Registry() {
		names = append(names, tb.Name+".parquet")
	}
	slices.Sort(names)
	return names
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), Meta{ToolVersion: "t"}); err != nil {
		t.Fatal(err)
	}
	t.Run("files_and_no_temporaries", func(t *testing.T) {
		if got := dirNames(t, dir); !slices.Equal(got, outputNames()) {
			t.Errorf("output dir holds %q, want %q", got, outputNames())
		}
	})
	t.Run("runs_read_back", func(t *testing.T) {
		rows, err := parquet.ReadFile[tables.Run](filepath.Join(dir, "runs.parquet"))
		if err != nil || len(rows) != 8 || rows[7].WorkflowCost == nil || rows[7].WorkflowCost.String() != "2.000000000001" {
			t.Errorf("runs.parquet: %d rows, err %v", len(rows), err)
		}
	})
	t.Run("rejections_sorted", func(t *testing.T) {
		rows, err := parquet.ReadFile[rules.Finding](filepath.Join(dir, tables.CampaignFindingsTable+".parquet"))
		if err != nil || len(rows) != 3 || rows[0].File != "manifest.json" || rows[1].Line != 1 {
			t.Errorf("campaign_findings.parquet %+v, err %v", rows, err)
		}
	})
	t.Run("byte_identical_rerun", func(t *testing.T) {
		dir2 := filepath.Join(t.TempDir(), "out")
		if err := Write(dir2, fixtureCampaign(), fixtureSet(t), figuresOf(fixtureCampaign(), fixtureSet(t)), Meta{ToolVersion: "t"}); err != nil {
			t.Fatal(err)
		}
		for _, name := range outputNames() {
			a, _ := os.ReadFile(filepath.Join(dir, name))
			b, _ := os.ReadFile(filepath.Join(dir2, name))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("%s differs between two writes", name)
			}
		}
	})
	t.Run("overwrite", func(t *testing.T) {
		s := fixtureSet(t)
		s.Runs = spool.Of(s.Runs.Collect()[0])
		if err := Write(dir, fixtureCampaign(), s, figuresOf(fixtureCampaign(), s), Meta{ToolVersion: "t"}); err != nil {
			t.Fatal(err)
		}
		rows, _ := parquet.ReadFile[tables.Run](filepath.Join(dir, "runs.parquet"))
		if len(rows) != 1 || !slices.Equal(dirNames(t, dir), outputNames()) {
			t.Errorf("after overwrite: %d runs, files %q", len(rows), dirNames(t, dir))
		}
	})
}

func TestWriteErrors(t *testing.T) {
	t.Run("dir_is_a_file", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Write(f, nil, &tables.Set{}, figuresOf(nil, &tables.Set{}), Meta{}); err == nil {
			t.Error("Write into a regular file succeeded")
		}
	})
	t.Run("nil_set_and_campaign", func(t *testing.T) {
		dir := t.TempDir()
		if err := Write(dir, nil, nil, figuresOf(nil, nil), Meta{}); err != nil {
			t.Fatal(err)
		}
		if got := dirNames(t, dir); !slices.Equal(got, outputNames()) {
			t.Errorf("files %q", got)
		}
	})
}
