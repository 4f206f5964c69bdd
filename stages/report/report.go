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
	"runtime"
	"sync"
	"sync/atomic"

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
	// Every table and the three reports are independent files, each
	// written to its own temporary file and renamed: they are written by
	// up to GOMAXPROCS goroutines at once (the reports, the longest job,
	// first), each reading the table set only (a spool may be iterated by
	// several goroutines at once), and the first error in the order below
	// is returned (a table's before the reports'), whichever job failed
	// first. The bytes of every file are the same as written one after the
	// other.
	jobs := []func() error{func() error { return writeReports(dir, c, s, f, meta) }}
	for _, t := range tables.Registry() {
		jobs = append(jobs, func() error {
			if err := t.Write(filepath.Join(dir, t.Name+".parquet"), s, md); err != nil {
				return fmt.Errorf("report: table %s: %w", t.Name, err)
			}
			return nil
		})
	}
	errs := runJobs(jobs, runtime.GOMAXPROCS(0))
	if err := firstErr(append(errs[1:], errs[0])); err != nil { // the tables', in registry order, then the reports'
		return err
	}
	if err := s.Err(); err != nil { // a spool that failed while the scorecard or a page read it: those files lack rows
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// writeReports writes scorecard.json, report.md and report.html.
func writeReports(dir string, c *tables.Campaign, s *tables.Set, f tables.Figures, meta Meta) error {
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
	return confined.WriteAtomic(filepath.Join(dir, HTMLFile), 0o644, func(w io.Writer) error { return html.Write(w, sc, s) })
}

// runJobs runs jobs on at most workers goroutines, taking them in order,
// and returns each job's error at the job's index: which error a caller
// reports never depends on timing. Every job runs, whatever the others
// return.
func runJobs(jobs []func() error, workers int) []error {
	errs := make([]error, len(jobs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(workers, len(jobs))) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(jobs) {
					return
				}
				errs[i] = jobs[i]()
			}
		})
	}
	wg.Wait()
	return errs
}

// firstErr is the first error that is not nil.
func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// writeFileAtomic writes one report file atomically (see
// [confined.WriteFileAtomic]).
func writeFileAtomic(path string, data []byte) error {
	return confined.WriteFileAtomic(path, data, 0o644)
}
