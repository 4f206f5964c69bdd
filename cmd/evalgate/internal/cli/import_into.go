package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/importers"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// importInto is one `evalgate import SOURCE FILE... --into DIR --map MAP`.
type importInto struct {
	source, into, mapFile string
	asJSON                bool
}

// importSummary is the --json output of an import into a campaign, one
// document in every outcome.
type importSummary struct {
	Campaign string `json:"campaign"`
	Source   string `json:"source"`
	// Imported is false when the import was refused or stopped: then
	// nothing was written and the counts are 0.
	Imported bool     `json:"imported"`
	Added    int      `json:"added"`
	Filled   int      `json:"filled"`
	Skipped  int      `json:"skipped"`
	Sessions []string `json:"sessions"` // sessions added or filled, in order
	// Findings is every finding, rejecting and warning; [] when none.
	Findings rules.Findings `json:"findings"`
	// Error says why the import stopped before checking the records (a
	// usage or I/O error); omitted otherwise.
	Error string `json:"error,omitempty"`
}

// maxReadCampaignFile caps what an import reads of receipts.jsonl and
// imports.jsonl (the receipts cap of docs/format.md).
const maxReadCampaignFile = 256 << 20

func (ii importInto) run(stdout, stderr io.Writer, paths []string) error {
	plan, fs, err := ii.apply(paths)
	imported := err == nil
	if ii.asJSON {
		sum := importSummary{Campaign: ii.into, Source: ii.source, Imported: imported, Sessions: []string{}, Findings: rules.Findings{}}
		if imported {
			sum.Added, sum.Filled, sum.Skipped = plan.Added, plan.Filled, plan.Skipped
			sum.Sessions = append(sum.Sessions, plan.Sessions...)
		}
		sum.Findings = append(sum.Findings, fs...)
		if err != nil && !errors.Is(err, errRejected) {
			sum.Error = err.Error()
		}
		if jerr := writeJSON(stdout, sum); jerr != nil {
			return jerr
		}
	} else {
		printFindings(stderr, fs)
	}
	if err == nil && !ii.asJSON {
		_, err = fmt.Fprintf(stdout, "imported %d %s session(s) into %s; filled %d; %d already imported\n", plan.Added, ii.source, ii.into, plan.Filled, plan.Skipped)
	}
	return err
}

// apply checks the import and, when no finding rejects it, writes it;
// errRejected when a finding rejects it (nothing is written).
func (ii importInto) apply(paths []string) (importers.ImportPlan, rules.Findings, error) {
	var plan importers.ImportPlan
	if ii.mapFile == "" {
		return plan, nil, usagef("give --map FILE: the mapping that names the session of every record (docs/import.md); nothing is guessed from names")
	}
	root, err := os.OpenRoot(ii.into)
	if err != nil {
		return plan, nil, usagef("campaign directory: %v", err)
	}
	defer root.Close()
	mapData, err := readRegular(ii.mapFile, load.MaxImportMap)
	if err != nil {
		return plan, nil, usagef("mapping: %v", err)
	}
	m, fs := load.ImportMap(ii.mapFile, ii.source, mapData)
	if m == nil {
		return plan, fs, errRejected
	}
	camp, cfs := readImportCampaign(root)
	fs = append(fs, cfs...)
	if camp.Manifest == nil {
		return plan, fs, errRejected
	}
	sources, err := readImportSources(ii.source, m, paths)
	if err != nil {
		return plan, fs, err
	}
	plan, more := stages.Import(ii.source, camp, m, ii.mapFile, sources)
	fs = append(fs, more...)
	if !fs.Rejected() {
		fs = append(fs, answerConflicts(root, plan)...)
		fs = append(fs, unwritable(root, plan)...)
	}
	fs.Sort()
	if fs.Rejected() {
		return plan, fs, errRejected
	}
	return plan, fs, writeImport(ii.into, root, plan)
}

// readRegular reads a regular file of at most limit bytes.
func readRegular(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return stages.ReadBounded(f, path, limit)
}

// readCampaignFile reads a campaign file through root; a missing file is
// empty.
func readCampaignFile(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := root.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return stages.ReadBounded(f, name, limit)
}

// readImportCampaign reads the manifest, receipts and ledger of the
// campaign an import appends to.
func readImportCampaign(root *os.Root) (stages.ImportCampaign, rules.Findings) {
	var c stages.ImportCampaign
	unreadable := func(name, msg string) rules.Findings {
		return rules.Findings{{Code: rules.CodeImportCampaignUnreadable, Severity: rules.Reject, File: name, Message: msg}}
	}
	data, err := readCampaignFile(root, "manifest.json", 1<<20)
	switch {
	case err != nil:
		return c, unreadable("manifest.json", err.Error())
	case data == nil:
		return c, unreadable("manifest.json", "the directory has no manifest.json; create the campaign with `evalgate init` first")
	}
	var man tables.Manifest
	if err := json.Unmarshal(data, &man); err != nil {
		return c, unreadable("manifest.json", "the manifest cannot be read: "+err.Error())
	}
	for _, f := range []struct {
		name string
		to   *[]byte
	}{{importers.ReceiptsFile, &c.Receipts}, {importers.ImportsFile, &c.Ledger}} {
		b, err := readCampaignFile(root, f.name, maxReadCampaignFile)
		if err != nil {
			return c, unreadable(f.name, err.Error())
		}
		*f.to = b
	}
	c.Manifest = &man
	return c, nil
}

// readImportSources reads every source path. A Codex path may be a
// directory: every *.jsonl file under it, in name order (a sessions tree).
// A Harbor path may be a trial directory (its result.json, and the
// mapping's output_file when it names one), a job directory (every
// subdirectory holding a result.json, in name order) or a result.json.
func readImportSources(source string, m *tables.ImportMap, paths []string) ([]stages.ImportSource, error) {
	var out []stages.ImportSource
	for _, p := range paths {
		files, err := expandSource(source, p)
		if err != nil {
			return nil, usagef("%s source: %v", source, err)
		}
		for _, f := range files {
			s := stages.ImportSource{Name: f}
			if source == tables.SourceHarbor && filepath.Base(f) == "result.json" && m.OutputFile != "" {
				if s.Output, err = readTrialFile(filepath.Dir(f), m.OutputFile); err != nil {
					return nil, usagef("harbor trial %s: output file: %v", filepath.Dir(f), err)
				}
			}
			if s.Data, err = readRegular(f, 256<<20); err != nil {
				return nil, usagef("%s source: %v", source, err)
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// expandSource lists the files one source path stands for.
func expandSource(source, p string) ([]string, error) {
	st, err := os.Stat(p)
	if err != nil || !st.IsDir() {
		return []string{p}, err
	}
	switch source {
	case tables.SourceCodex:
		var files []string
		err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".jsonl") {
				files = append(files, path)
			}
			return err
		})
		return files, err
	case tables.SourceHarbor:
		if _, err := os.Stat(filepath.Join(p, "result.json")); err == nil {
			return []string{filepath.Join(p, "result.json")}, nil
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var files []string
		for _, e := range entries {
			f := filepath.Join(p, e.Name(), "result.json")
			if st, err := os.Stat(f); e.IsDir() && err == nil && st.Mode().IsRegular() {
				files = append(files, f)
			}
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s holds no result.json and no trial directory", p)
		}
		return files, nil
	}
	return nil, fmt.Errorf("%s is a directory; give log files", p)
}

// readTrialFile reads a file of a trial directory without leaving it.
func readTrialFile(dir, name string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return stages.ReadBounded(f, name, 4<<20)
}

// answerConflicts refuses an answer file that exists with other bytes.
func answerConflicts(root *os.Root, plan importers.ImportPlan) rules.Findings {
	var out rules.Findings
	for _, a := range plan.Answers {
		old, err := readCampaignFile(root, a.Path, 4<<20)
		if err == nil && (old == nil || bytes.Equal(old, a.Data)) {
			continue
		}
		out = append(out, rules.Finding{Code: rules.CodeImportConflict, Severity: rules.Reject, File: a.Path,
			Message: "the campaign already holds this answer file with other bytes (or it cannot be read); a conflicting import is refused"})
	}
	return out
}

// unwritable refuses to write through anything but a regular file or a
// directory of the campaign itself: a symbolic link among the files an
// import writes could point outside the campaign.
func unwritable(root *os.Root, plan importers.ImportPlan) rules.Findings {
	names := []string{importers.ReceiptsFile, importers.ImportsFile}
	if len(plan.Answers) > 0 {
		names = append(names, "answers")
	}
	for _, a := range plan.Answers {
		names = append(names, a.Path)
	}
	var out rules.Findings
	for _, name := range names {
		st, err := root.Lstat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
		case name == "answers" && st.IsDir(), name != "answers" && st.Mode().IsRegular():
			continue
		}
		out = append(out, rules.Finding{Code: rules.CodeImportConflict, Severity: rules.Reject, File: name,
			Message: "the campaign's file is not a regular file (or directory) of the campaign itself, so the import does not write through it"})
	}
	return out
}

// writeImport writes the answers, then receipts.jsonl, then the ledger,
// each atomically: an interrupted import never leaves a half line, and a
// receipt written without its ledger line is refused as a conflict on the
// next import rather than duplicated.
func writeImport(dir string, root *os.Root, plan importers.ImportPlan) error {
	if !plan.Changed() {
		return nil
	}
	if len(plan.Answers) > 0 {
		if err := root.MkdirAll("answers", 0o755); err != nil {
			return err
		}
	}
	for _, a := range plan.Answers {
		if err := confined.WriteFileAtomic(filepath.Join(dir, filepath.FromSlash(a.Path)), a.Data, 0o644); err != nil {
			return err
		}
	}
	if err := confined.WriteFileAtomic(filepath.Join(dir, importers.ReceiptsFile), plan.Receipts, 0o644); err != nil {
		return err
	}
	return confined.WriteFileAtomic(filepath.Join(dir, importers.ImportsFile), plan.Ledger, 0o644)
}
