// Package report is the last stage: it writes every table as Parquet,
// scorecard.json and report.md into an output directory, atomically and
// byte-reproducibly.
package report

import "github.com/evalgate/evalgate/tables"

// Meta is written into every output file's metadata.
type Meta struct {
	ToolVersion string
}

// Write writes the tables of s and the scorecard into dir.
func Write(dir string, c *tables.Campaign, s *tables.Set, meta Meta) error {
	panic("stages/report: Write: being written")
}
