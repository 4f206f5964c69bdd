package tables

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
)

// FileMeta is what a written table file says about itself: its table and
// schema version (key-value metadata), its row count, and whether its
// Parquet schema is the registry's for that table.
type FileMeta struct {
	Table, SchemaVersion, ManifestSHA256 string
	Rows                                 int64
	SchemaMatches                        bool
}

// ReadFileMeta reads the footer of one Parquet table file (not its pages)
// and compares its schema with the registry table t.
func ReadFileMeta(r io.ReaderAt, size int64, t Table) (m FileMeta, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("tables: unreadable Parquet footer: %v", p)
		}
	}()
	f, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return m, err
	}
	m.Table, _ = f.Lookup(MetaTable)
	m.SchemaVersion, _ = f.Lookup(MetaSchemaVersion)
	m.ManifestSHA256, _ = f.Lookup(MetaManifestSHA256)
	m.Rows = f.NumRows()
	m.SchemaMatches = parquet.EqualNodes(f.Schema(), t.Schema)
	return m, nil
}
