// Package report is the last stage: it writes every registered table as
// <name>.parquet, scorecard.json, report.md and report.html into an output
// directory (rules T1, T2, R1). Each output has its package:
// stages/report/scorecard (scorecard.json, and the plain-text forms of its
// values), stages/report/markdown (report.md), stages/report/html
// (report.html); stages/report/compare reads two output directories back
// (rule R2). This package only writes them.
//
// Invariants:
//   - Every file is written to a temporary file in the output directory and
//     renamed into place when complete, so a reader never sees a half-written
//     file under its real name.
//   - Same tables and Meta → byte-identical files: no map iteration reaches
//     the output, the scorecard's JSON fields have a fixed order, and no
//     clock is read.
//   - The report computes no median, mean, sum of medians or ratio: every
//     such number is the aggregate stage's ([tables.Figures]), the same
//     exact values the gates compare, printed exactly; unavailable values
//     are null, never zero. Only row counts are tallied here.
//   - Exploratory intervals are written after the gates, labelled
//     EXPLORATORY, and never carry a pass or fail mark.
//   - Any text that came from the campaign's inputs is escaped before it
//     reaches report.md: answers, receipts and ratings are untrusted.
package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/stages/report/html"
	"github.com/evalgate/evalgate/stages/report/markdown"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// Meta is written into every output file's metadata.
type Meta struct {
	ToolVersion string // e.g. "0.1.0"; pins Parquet created_by as "evalgate <ToolVersion>"
}

// Output file names besides the tables.
const (
	ScorecardFile = scorecard.File
	ReportFile    = markdown.File
	HTMLFile      = html.File
)

// Write writes the tables of s, scorecard.json, report.md and report.html
// into dir, creating dir if needed; f are the aggregate stage's figures,
// which the reports format. c may be nil when the campaign could not be
// loaded; s then typically holds only rejections and f is empty.
func Write(dir string, c *tables.Campaign, s *tables.Set, f tables.Figures, meta Meta) error {
	if s == nil {
		s = &tables.Set{}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	md := tables.Metadata{ToolVersion: meta.ToolVersion}
	if c != nil {
		md.ManifestSHA256 = c.ManifestSHA256
		md.Synthetic = c.Manifest.Synthetic
	}
	for _, t := range tables.Registry() {
		if err := t.Write(filepath.Join(dir, t.Name+".parquet"), s, md); err != nil {
			return fmt.Errorf("report: table %s: %w", t.Name, err)
		}
	}
	sc := scorecard.Build(c, s, f, meta.ToolVersion)
	js, err := scorecard.Marshal(sc)
	if err != nil {
		return fmt.Errorf("report: %s: %w", ScorecardFile, err)
	}
	if err := writeFileAtomic(filepath.Join(dir, ScorecardFile), js); err != nil {
		return err
	}
	// report.md and report.html are written as they are built, never held
	// whole (at a million sessions report.html is over 100 MB).
	if err := confined.WriteAtomic(filepath.Join(dir, ReportFile), 0o644, func(w io.Writer) error { return markdown.Write(w, sc, s) }); err != nil {
		return err
	}
	if err := confined.WriteAtomic(filepath.Join(dir, HTMLFile), 0o644, func(w io.Writer) error { return html.Write(w, sc, s) }); err != nil {
		return err
	}
	if err := s.Err(); err != nil { // a spool that failed while the scorecard or a page read it: those files lack rows
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// writeFileAtomic writes one report file atomically (see
// [confined.WriteFileAtomic]).
func writeFileAtomic(path string, data []byte) error {
	return confined.WriteFileAtomic(path, data, 0o644)
}
