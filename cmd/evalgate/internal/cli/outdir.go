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
	why      string // why foreign is not evalgate's
}

// outputNames are the files of an output set, and the tables earlier
// versions wrote under other names (tables.RenamedTables).
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

// inspectOut reads what dir holds. A directory is evalgate's to replace
// only when every entry in it is a file its output manifest lists, with
// the bytes the manifest gives (confined.CheckOutputSet): a file the user
// put there or edited — their own report.md, a hidden notes file — is
// never replaced or removed.
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
	if o.empty {
		return o, nil
	}
	m, problems, err := confined.CheckOutputSet(dir)
	switch {
	case errors.Is(err, confined.ErrNoSetManifest):
		o.foreign = entries[0].Name()
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".") {
				o.foreign = e.Name()
				break
			}
		}
		o.why = "and no output manifest of evalgate (" + confined.SetManifestName + ") lists it"
		return o, nil
	case err != nil:
		o.foreign, o.why = confined.SetManifestName, "which cannot be read as evalgate's output manifest ("+err.Error()+")"
		return o, nil
	}
	for _, p := range problems {
		switch p.Why {
		case "not listed":
			o.foreign, o.why = p.Name, "which evalgate did not write (its output manifest does not list it)"
		case "changed":
			o.foreign, o.why = p.Name, "which is not the file evalgate wrote there (its bytes differ from the output manifest's)"
		default:
			continue // a file of the set that is gone loses nothing
		}
		break
	}
	if !m.Lists(report.ScorecardFile) {
		return o, nil
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

// refuseOutEarly refuses, before the campaign is read, an output
// directory the run could not write into in the end (outDir.replaceable):
// one holding a file evalgate did not write, or, without --force, another
// campaign's outputs (the campaign's ID read from its manifest.json
// alone). A run into such a directory fails at once instead of after
// judging the whole campaign, and prints no findings: validate reads a
// campaign without writing. What it cannot tell (a manifest it cannot
// read, a directory changed meanwhile) is left to the check writeOutputs
// makes under the output lock, which stays the one that decides.
func refuseOutEarly(out string, force bool, fsys fs.FS) error {
	o, err := inspectOut(out)
	switch {
	case err != nil:
		return err
	case o.foreign != "":
		return o.replaceable("", force)
	case !o.set || force:
		return nil
	}
	if id, ok := manifestCampaignID(fsys); ok {
		return o.replaceable(id, false)
	}
	return nil
}

// manifestCampaignID is the campaign_id of fsys's manifest.json, when the
// file can be read (at most 1 MiB, the loader's cap) as a JSON object
// whose campaign_id is a string; the loader decides whether it is valid.
func manifestCampaignID(fsys fs.FS) (string, bool) {
	data, err := confined.ReadCampaignFile(fsys, manifestName, 1<<20)
	if err != nil {
		return "", false
	}
	var m struct {
		CampaignID *string `json:"campaign_id"`
	}
	if json.Unmarshal(data, &m) != nil || m.CampaignID == nil {
		return "", false
	}
	return *m.CampaignID, true
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
		return usagef("--out %s holds %s, %s; nothing was written and the directory is left as it is: choose a new or empty directory, or move that file away", shown, confined.EscapeName(o.foreign), o.why)
	case o.set && o.campaign != id && !force:
		return usagef("--out %s holds the outputs of campaign %q, not of %q; pass --force to replace them, or choose another directory", shown, o.campaign, id)
	}
	return nil
}
