package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/stages/report"
	"github.com/evalgate/evalgate/tables"
)

// outDir is what an output directory holds before a run writes into it.
type outDir struct {
	path     string
	exists   bool   // a directory is there
	empty    bool   // and it has no entries
	set      bool   // it holds an evalgate output set
	campaign string // the set's campaign_id
	foreign  string // the first entry evalgate did not write, "" when none
}

// outputNames are the files of an output set, and the tables earlier
// versions wrote under other names (tables.RenamedTables), so that a run
// replaces an output set of before the renaming.
func outputNames() map[string]bool {
	names := map[string]bool{report.ScorecardFile: true, report.ReportFile: true, report.HTMLFile: true}
	for _, t := range tables.Registry() {
		names[t.Name+".parquet"] = true
	}
	for old := range tables.RenamedTables {
		names[old+".parquet"] = true
	}
	return names
}

// inspectOut reads what dir holds: every entry must be a file of an output
// set (or a temporary file of one), else the directory is not evalgate's
// to replace.
func inspectOut(dir string) (outDir, error) {
	o := outDir{path: dir}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return o, nil
	case err != nil:
		return o, usagef("--out %s: %v", confined.EscapeName(dir), err)
	}
	o.exists, o.empty = true, len(entries) == 0
	names := outputNames()
	for _, e := range entries {
		n := e.Name()
		if names[n] && e.Type().IsRegular() || strings.HasPrefix(n, ".") && strings.Contains(n, ".tmp-") {
			continue
		}
		if o.foreign == "" {
			o.foreign = n
		}
	}
	data, err := readCappedFile(filepath.Join(dir, report.ScorecardFile), 16<<20)
	if err == nil {
		var sc struct {
			CampaignID string `json:"campaign_id"`
		}
		if json.Unmarshal(data, &sc) == nil {
			o.set, o.campaign = true, sc.CampaignID
		}
	}
	return o, nil
}

// checkOutInside refuses an output directory inside the campaign
// directory: the next run would read its own outputs as campaign files.
// A campaign given by its manifest file is the manifest's directory.
func checkOutInside(out string, args []string) error {
	if len(args) != 1 {
		return nil
	}
	campDir := args[0]
	if info, err := os.Stat(campDir); err == nil && !info.IsDir() {
		campDir = filepath.Dir(campDir)
	}
	camp, err := realPath(campDir)
	if err != nil {
		return nil // reported when the campaign is opened
	}
	o, err := realPath(out)
	if err != nil {
		return usagef("--out %s: %v", confined.EscapeName(out), err)
	}
	if rel, err := filepath.Rel(camp, o); err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
		return usagef("--out %s is inside the campaign directory %s; write the outputs elsewhere", confined.EscapeName(out), confined.EscapeName(campDir))
	}
	return nil
}

// realPath is path made absolute with every symlink of its existing part
// resolved, so that two names of one directory compare equal.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	var rest []string
	for {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return abs, nil
		}
		rest = append([]string{filepath.Base(abs)}, rest...)
		abs = parent
	}
}

// replaceable reports why the output directory may not receive the outputs
// of campaign id: it holds files evalgate did not write (never replaced),
// or another campaign's outputs (replaced only with --force).
func (o outDir) replaceable(id string, force bool) error {
	shown := confined.EscapeName(o.path)
	switch {
	case !o.exists:
		return nil
	case o.foreign != "":
		return usagef("--out %s holds %s, which evalgate did not write; choose a new or empty directory", shown, confined.EscapeName(o.foreign))
	case o.set && o.campaign != id && !force:
		return usagef("--out %s holds the outputs of campaign %q, not of %q; pass --force to replace them, or choose another directory", shown, o.campaign, id)
	}
	return nil
}
