package tables

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/spool"
)

// SchemaVersion identifies the layout of every output table. It is written
// into each Parquet file's key-value metadata and into scorecard.json's
// neighbours; it must change whenever a column is renamed, retyped or
// removed. The value must not change otherwise.
const SchemaVersion = "evalgate.tables/v3"

// MaxRowsPerRowGroup bounds the rows of one Parquet row group, so a large
// table is never held as a single row group and the layout (hence the bytes)
// does not depend on library defaults.
const MaxRowsPerRowGroup = 65536

// Parquet key-value metadata keys written into every output table.
const (
	MetaSchemaVersion  = "evalgate.schema_version"
	MetaManifestSHA256 = "evalgate.manifest_sha256"
	MetaToolVersion    = "evalgate.tool_version"
	MetaSynthetic      = "evalgate.synthetic"
	MetaTable          = "evalgate.table"
)

// Metadata is what every output file records about where it came from.
type Metadata struct {
	ManifestSHA256 string // the campaign identity
	ToolVersion    string // e.g. "0.1.0" or "devel"; also pins created_by
	Synthetic      bool   // the manifest's synthetic flag
	Table          string // registry name of the table, e.g. "runs"
}

// KeyValues returns the key-value metadata pairs of m in key order.
func (m Metadata) KeyValues() [][2]string {
	return [][2]string{
		{MetaManifestSHA256, m.ManifestSHA256},
		{MetaSchemaVersion, SchemaVersion},
		{MetaSynthetic, strconv.FormatBool(m.Synthetic)},
		{MetaTable, m.Table},
		{MetaToolVersion, m.ToolVersion},
	}
}

// CreatedBy is the Parquet created_by string for a tool version. It is
// pinned so that file bytes never depend on the parquet-go version.
func CreatedBy(toolVersion string) string {
	return "evalgate " + toolVersion
}

// WriteParquet writes rows to path as one Parquet file: Zstd compressed, at
// most [MaxRowsPerRowGroup] rows per row group, with meta as key-value
// metadata. The file is first written to a temporary file in the same
// directory and renamed over path only when complete, so a reader never
// sees a half-written table under the real name; on any error the
// temporary file is removed. The same rows and meta give byte-identical
// files. The caller sorts rows.
func WriteParquet[T any](path string, rows []T, meta Metadata) error {
	return confined.WriteAtomic(path, 0o644, func(w io.Writer) error { return encodeParquet(w, rows, meta) })
}

// WriteSpool writes the rows of s, in order, to path exactly as
// [WriteParquet] writes the sorted slice of them: the same bytes. An
// error of the spool (a chunk that could not be read back) is returned.
func WriteSpool[T any](path string, s *spool.Spool[T], meta Metadata) error {
	return confined.WriteAtomic(path, 0o644, func(w io.Writer) error {
		if err := encodeParquetSeq(w, s.All(), meta); err != nil {
			return err
		}
		return s.Err()
	})
}

// ErrParquetSchema reports a row type parquet-go refuses; it is a
// programming error in a row type's tags, returned rather than panicking.
var ErrParquetSchema = errors.New("tables: invalid parquet schema")

// encodeParquet streams rows into f with the pinned writer configuration.
func encodeParquet[T any](f io.Writer, rows []T, meta Metadata) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrParquetSchema, r)
		}
	}()
	w := newParquetWriter[T](f, meta)
	for start := 0; start < len(rows); start += MaxRowsPerRowGroup {
		end := min(start+MaxRowsPerRowGroup, len(rows))
		if _, err := w.Write(rows[start:end]); err != nil {
			return err
		}
	}
	return w.Close()
}

// seqBatchRows is how many rows encodeParquetSeq hands the writer at a
// time. The writer cuts each Write into pieces of 64 rows from its start
// and may end a page only between pieces, so a batch that divides
// [MaxRowsPerRowGroup] and is a multiple of 64 gives the pages, hence the
// bytes, of one Write per row group.
const seqBatchRows = 1024

// encodeParquetSeq is encodeParquet of the rows rows yields, holding at
// most seqBatchRows of them (plus the writer's row group buffers).
func encodeParquetSeq[T any](f io.Writer, rows iter.Seq[T], meta Metadata) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrParquetSchema, r)
		}
	}()
	w := newParquetWriter[T](f, meta)
	batch := make([]T, 0, seqBatchRows)
	for r := range rows {
		batch = append(batch, r)
		if len(batch) == seqBatchRows {
			if _, err := w.Write(batch); err != nil {
				return err
			}
			clear(batch)
			batch = batch[:0]
		}
	}
	if len(batch) > 0 {
		if _, err := w.Write(batch); err != nil {
			return err
		}
	}
	return w.Close()
}

// newParquetWriter is the pinned writer configuration of every output
// table.
func newParquetWriter[T any](f io.Writer, meta Metadata) *parquet.GenericWriter[T] {
	opts := []parquet.WriterOption{
		&parquet.WriterConfig{CreatedBy: CreatedBy(meta.ToolVersion)},
		parquet.Compression(outputZstd),
		parquet.MaxRowsPerRowGroup(MaxRowsPerRowGroup),
	}
	for _, kv := range meta.KeyValues() {
		opts = append(opts, parquet.KeyValueMetadata(kv[0], kv[1]))
	}
	return parquet.NewGenericWriter[T](f, opts...)
}
