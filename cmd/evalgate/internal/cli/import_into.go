package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

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
	// hiddenOutput is Inspect's --hidden-tokens output declaration.
	hiddenOutput bool
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
	plan, fs, err := ii.apply(stderr, paths)
	fs = rules.CapFindings(fs) // every producer caps its own; the whole import is capped once more
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
		_, err = fmt.Fprintf(stdout, "imported %d %s session(s) into %s; filled %d; %d already imported\n", plan.Added, ii.source, text(ii.into), plan.Filled, plan.Skipped)
	}
	return err
}

// apply checks the import and, when no finding rejects it, writes it;
// errRejected when a finding rejects it (nothing is written). Every file
// it reads goes through the confined layer: the campaign's files through
// the campaign directory (no symlink leaves it), the mapping and the
// sources as the user named them; a FIFO, device or socket is refused at
// once, never opened blocking, and every read is capped. It holds the
// campaign's lock from before it reads the campaign until it has written.
func (ii importInto) apply(stderr io.Writer, paths []string) (importers.ImportPlan, rules.Findings, error) {
	var plan importers.ImportPlan
	if ii.mapFile == "" {
		return plan, nil, usagef("give --map FILE: the mapping that names the session of every record (docs/import.md); nothing is guessed from names")
	}
	camp, err := confined.OpenCampaignDir(ii.into)
	if err != nil {
		return plan, nil, usagef("campaign directory: %v", err)
	}
	defer camp.Close()
	root, err := os.OpenRoot(ii.into)
	if err != nil {
		return plan, nil, usagef("campaign directory: %v", err)
	}
	defer root.Close()
	lock, err := lockCampaign(stderr, ii.into, root)
	if err != nil {
		return plan, nil, err
	}
	defer lock.Unlock()
	mapData, err := confined.ReadFile(ii.mapFile, load.MaxImportMap)
	if refused := fileRefused(ii.mapFile, err); refused != nil {
		return plan, refused, errRejected
	}
	if err != nil {
		return plan, nil, usagef("mapping: %v", err)
	}
	m, fs := load.ImportMap(ii.mapFile, ii.source, mapData)
	if m == nil {
		return plan, fs, errRejected
	}
	c, cfs := readImportCampaign(camp)
	fs = append(fs, cfs...)
	if c.Manifest == nil {
		return plan, fs, errRejected
	}
	sources, sfs, err := readImportSources(ii.source, m, paths)
	if err != nil {
		return plan, fs, err
	}
	if fs = append(fs, sfs...); fs.Rejected() {
		fs.Sort()
		return plan, fs, errRejected
	}
	for i := range sources {
		sources[i].HiddenOutput = ii.hiddenOutput
	}
	plan, more := stages.Import(ii.source, c, m, ii.mapFile, sources)
	fs = append(fs, more...)
	if !fs.Rejected() {
		fs = append(fs, answerConflicts(camp, plan)...)
		fs = append(fs, unwritable(root, plan)...)
	}
	fs.Sort()
	if fs.Rejected() {
		return plan, fs, errRejected
	}
	return plan, fs, writeImport(root, plan)
}

// fileRefused is the finding of a file the confined layer refused — a
// FIFO, device, socket or directory where a file should be
// (file_not_regular), a path leaving its directory (path_escapes), a file
// over its cap (too_large) — or nil for any other error (none, missing,
// unreadable), which the caller reports.
func fileRefused(name string, err error) rules.Findings {
	code := confined.FileErrorCode(err, "")
	if code == "" && errors.Is(err, confined.ErrTooLarge) {
		code = rules.CodeTooLarge
	}
	if err == nil || code == "" {
		return nil
	}
	return rules.Findings{{Code: code, Severity: rules.Reject, File: confined.EscapeName(name), Message: confined.FileErrorMessage(err)}}
}

// readCampaignFile reads a campaign file through the confined campaign
// directory; a missing file is empty.
func readCampaignFile(camp *confined.CampaignDir, name string, limit int64) ([]byte, error) {
	data, err := confined.ReadCampaignFile(camp, name, limit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// readImportCampaign reads the manifest, receipts and ledger of the
// campaign an import appends to.
func readImportCampaign(camp *confined.CampaignDir) (stages.ImportCampaign, rules.Findings) {
	var c stages.ImportCampaign
	unreadable := func(name string, err error) rules.Findings {
		return rules.Findings{{Code: confined.FileErrorCode(err, rules.CodeImportCampaignUnreadable), Severity: rules.Reject, File: name,
			Message: confined.FileErrorMessage(err)}}
	}
	data, err := readCampaignFile(camp, "manifest.json", 1<<20)
	switch {
	case err != nil:
		return c, unreadable("manifest.json", err)
	case data == nil:
		return c, rules.Findings{{Code: rules.CodeImportCampaignUnreadable, Severity: rules.Reject, File: "manifest.json",
			Message: "the directory has no manifest.json; create the campaign with `evalgate init` first"}}
	}
	var man tables.Manifest
	if err := json.Unmarshal(data, &man); err != nil {
		return c, rules.Findings{{Code: rules.CodeImportCampaignUnreadable, Severity: rules.Reject, File: "manifest.json",
			Message: "the manifest cannot be read: " + err.Error()}}
	}
	for _, f := range []struct {
		name string
		to   *[]byte
	}{{importers.ReceiptsFile, &c.Receipts}, {importers.ImportsFile, &c.Ledger}} {
		b, err := readCampaignFile(camp, f.name, maxReadCampaignFile)
		if err != nil {
			return c, unreadable(f.name, err)
		}
		*f.to = b
	}
	c.Manifest = &man
	c.TaskChecksums = benchChecksums(camp, &man)
	return c, nil
}

// benchChecksums reads a reviewer benchmark's inventory (the manifest's
// benchmark.inventory_path) and returns each case's task checksum, which
// its imported review attempts were delivered. nil for another kind, or
// when the inventory cannot be read or decoded: the receipts then name no
// task checksum and validate reports the inventory.
func benchChecksums(camp *confined.CampaignDir, man *tables.Manifest) map[string]string {
	if man.Kind != rules.KindReviewerBenchmark || man.Benchmark == nil {
		return nil
	}
	data, err := readCampaignFile(camp, man.Benchmark.InventoryPath, maxReadCampaignFile)
	var inv tables.Inventory
	if err != nil || data == nil || json.Unmarshal(data, &inv) != nil {
		return nil
	}
	out := make(map[string]string, len(inv.Cases))
	for _, c := range inv.Cases {
		out[c.CaseID] = tables.TaskChecksum(c.Files)
	}
	return out
}

// Caps of the source files an import reads.
const (
	maxImportSource = 256 << 20
	maxTrialOutput  = 4 << 20
)

// sourceFile is one file a source path stands for.
type sourceFile struct {
	shown string                // the name its findings give: the path as given, joined
	dir   *confined.CampaignDir // the tree it is read from; nil for a file named on the command line
	name  string                // its name in dir (slash-separated), or its path when dir is nil
}

func (f sourceFile) read(limit int64) ([]byte, error) {
	if f.dir == nil {
		return confined.ReadFile(f.name, limit)
	}
	return confined.ReadCampaignFile(f.dir, f.name, limit)
}

// readImportSources reads every source path. A Codex path may be a
// directory: every *.jsonl file under it, in name order (a sessions tree).
// A Harbor path may be a trial directory (its result.json, and the
// mapping's output_file when it names one), a job directory (every
// subdirectory holding a result.json, in name order) or a result.json.
// A directory is read confined ([confined.CampaignDir]): a symlink
// leaving it, a FIFO, device or socket where a rollout, a result.json or
// an output file should be is refused with a finding (path_escapes,
// file_not_regular), never skipped; a file over its cap is too_large.
// Other errors (a missing path) are usage errors.
func readImportSources(source string, m *tables.ImportMap, paths []string) ([]stages.ImportSource, rules.Findings, error) {
	var out []stages.ImportSource
	var findings rules.Findings
	for _, p := range paths {
		files, fs, closeDir, err := expandSource(source, p)
		if err != nil {
			return nil, nil, usagef("%s source: %v", source, err)
		}
		findings = append(findings, fs...)
		for _, f := range files {
			s := stages.ImportSource{Name: f.shown}
			s.Data, err = f.read(maxImportSource)
			if refused := fileRefused(f.shown, err); refused != nil {
				findings = append(findings, refused...)
				continue
			}
			if err != nil {
				closeDir()
				return nil, nil, usagef("%s source: %v", source, err)
			}
			trial := source == tables.SourceHarbor && path.Base(filepath.ToSlash(f.name)) == "result.json"
			refused := false
			for _, tf := range []struct {
				what, name string
				to         *[]byte
			}{{"output file", m.OutputFile, &s.Output}, {"input file", m.InputFile, &s.Input}} {
				if !trial || tf.name == "" || refused {
					continue
				}
				var shown string
				*tf.to, shown, err = readOutputFile(f, tf.name)
				if errors.Is(err, os.ErrNotExist) {
					// A trial that wrote no such file has none (a timed-out
					// agent's answer): its receipt records no output, or no
					// input, and validate names what that costs.
					*tf.to, err = nil, nil
				}
				if fs := fileRefused(shown, err); fs != nil {
					findings = append(findings, fs...)
					refused = true
					continue
				}
				if err != nil {
					closeDir()
					return nil, nil, usagef("harbor trial %s: %s: %v", confined.EscapeName(filepath.Dir(f.shown)), tf.what, err)
				}
			}
			if !refused {
				out = append(out, s)
			}
		}
		closeDir()
	}
	return out, findings, nil
}

// readOutputFile reads the mapping's output (or input) file of the trial
// whose result.json is f, confined to the trial's directory tree; shown is the
// name its findings give.
func readOutputFile(f sourceFile, name string) (data []byte, shown string, err error) {
	shown = filepath.Join(filepath.Dir(f.shown), filepath.FromSlash(name))
	if f.dir != nil {
		data, err = confined.ReadCampaignFile(f.dir, path.Join(path.Dir(f.name), name), maxTrialOutput)
		return data, shown, err
	}
	trial, err := confined.OpenCampaignDir(filepath.Dir(f.name)) // a result.json named on the command line
	if err != nil {
		return nil, shown, err
	}
	defer trial.Close()
	data, err = confined.ReadCampaignFile(trial, name, maxTrialOutput)
	return data, shown, err
}

// expandSource lists the files one source path stands for, the findings
// of what a directory holds that cannot be read (a symlink leaving it),
// and a function closing the directory it opened.
func expandSource(source, p string) ([]sourceFile, rules.Findings, func(), error) {
	nothing := func() {}
	st, err := os.Stat(p)
	if err != nil {
		return nil, nil, nothing, err
	}
	if !st.IsDir() {
		return []sourceFile{{shown: p, name: p}}, nil, nothing, nil
	}
	if source != tables.SourceCodex && source != tables.SourceHarbor {
		return nil, nil, nothing, fmt.Errorf("%s is a directory; give log files", confined.EscapeName(p))
	}
	dir, err := confined.OpenCampaignDir(p)
	if err != nil {
		return nil, nil, nothing, err
	}
	closeDir := func() { dir.Close() }
	in := func(name string) sourceFile {
		return sourceFile{shown: filepath.Join(p, filepath.FromSlash(name)), dir: dir, name: name}
	}
	var files []sourceFile
	var findings rules.Findings
	escapes := func(name string) {
		if _, err := dir.Stat(name); errors.Is(err, confined.ErrEscapes) {
			findings = append(findings, fileRefused(in(name).shown, err)...)
		}
	}
	switch source {
	case tables.SourceCodex:
		err = fs.WalkDir(dir, ".", func(name string, d fs.DirEntry, err error) error {
			switch {
			case err != nil || d.IsDir():
				return err
			case strings.HasSuffix(d.Name(), ".jsonl"):
				files = append(files, in(name)) // read confined: a FIFO or an escaping link is refused
			case d.Type()&fs.ModeSymlink != 0:
				escapes(name) // a link out of the tree is refused, never skipped
			}
			return nil
		})
	case tables.SourceHarbor:
		if _, err := dir.Stat("result.json"); !errors.Is(err, fs.ErrNotExist) {
			return []sourceFile{in("result.json")}, nil, closeDir, nil // a trial directory
		}
		var entries []fs.DirEntry
		if entries, err = dir.ReadDir("."); err != nil {
			break
		}
		for _, e := range entries {
			if !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
				continue
			}
			name := e.Name() + "/result.json"
			switch _, err := dir.Stat(name); {
			case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
				continue // not a trial directory
			}
			files = append(files, in(name)) // read confined: a FIFO, or a trial linked out, is refused
		}
		if len(files) == 0 {
			err = fmt.Errorf("%s holds no result.json and no trial directory", confined.EscapeName(p))
		}
	}
	if err != nil {
		dir.Close()
		return nil, nil, nothing, err
	}
	return files, findings, closeDir, nil
}

// answerConflicts refuses an answer file that exists with other bytes,
// or that the campaign holds as anything but a regular file of its own.
func answerConflicts(camp *confined.CampaignDir, plan importers.ImportPlan) rules.Findings {
	var out rules.Findings
	for _, a := range plan.Answers {
		old, err := readCampaignFile(camp, a.Path, maxTrialOutput)
		if refused := fileRefused(a.Path, err); refused != nil {
			out = append(out, refused...)
			continue
		}
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

// lockCampaign takes the campaign's lock for one import, waiting for an
// import under way, and then recovers what a killed import left: it
// finishes or undoes its commit, and removes the temporary files earlier
// versions wrote beside receipts.jsonl, the ledger and the answers. An
// import reads the receipts and the ledger only under the lock, so two
// imports at once are serialised and neither loses the other's receipts.
func lockCampaign(stderr io.Writer, dir string, root *os.Root) (*confined.Lock, error) {
	shown := confined.EscapeName(dir)
	lock, err := confined.LockRoot(root, confined.LockName, func() {
		fmt.Fprintf(stderr, "evalgate: %s: waiting for another import into this campaign to finish\n", text(shown))
	})
	if err != nil {
		return nil, fmt.Errorf("campaign %s: %w", shown, err)
	}
	dirs, err := commitDirs(root)
	var note string
	if err == nil {
		note, err = confined.RecoverCommit(root, dirs...)
	}
	if err == nil {
		temps := func(names ...string) func(string) bool {
			return func(n string) bool {
				of, ok := confined.AtomicTempOf(n)
				return ok && (len(names) == 0 && strings.HasSuffix(of, ".json") || slices.Contains(names, of))
			}
		}
		var n, m int
		if n, err = confined.RemoveLeftoverFiles(root, ".", temps(importers.ReceiptsFile, importers.ImportsFile)); err == nil {
			m, err = confined.RemoveLeftoverFiles(root, "answers", temps())
		}
		if n+m > 0 && err == nil {
			note = strings.TrimPrefix(note+"; ", "; ") + fmt.Sprintf("removed %d temporary file(s) a killed import left", n+m)
		}
	}
	if err != nil {
		lock.Unlock()
		return nil, fmt.Errorf("campaign %s: recovering an interrupted import: %w", shown, err)
	}
	if note != "" {
		fmt.Fprintf(stderr, "evalgate: %s: %s\n", text(shown), text(note))
	}
	return lock, nil
}

// commitDirs are the directories an import's commit writes into besides
// the campaign's own: answers/, and each review's and trial's directory
// (reviews/SESSION/input.json, trials/TRIAL/result.json). A killed
// import's pending files may be left in any of them, so recovery looks in
// every one.
func commitDirs(root *os.Root) ([]string, error) {
	dirs := []string{"answers"}
	for _, parent := range []string{"reviews", "trials"} {
		d, err := confined.OpenDir(root, parent)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		entries, err := d.ReadDir(-1)
		d.Close()
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() {
				dirs = append(dirs, path.Join(parent, e.Name()))
			}
		}
	}
	return dirs, nil
}

// writeImport writes the answers, receipts.jsonl and the ledger as one
// commit (confined.Commit): however the import ends, the campaign holds
// all of them or none, once the next import has recovered.
func writeImport(root *os.Root, plan importers.ImportPlan) error {
	if !plan.Changed() {
		return nil
	}
	for _, a := range plan.Answers {
		// answers/, or a reviewer benchmark's reviews/<session>/.
		if err := root.MkdirAll(path.Dir(a.Path), 0o755); err != nil {
			return err
		}
	}
	var files []confined.CommitFile
	add := func(name string, data []byte) {
		files = append(files, confined.CommitFile{Name: name, Fill: func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		}})
	}
	for _, a := range plan.Answers {
		add(a.Path, a.Data)
	}
	add(importers.ReceiptsFile, plan.Receipts)
	add(importers.ImportsFile, plan.Ledger)
	return confined.Commit(root, files)
}
