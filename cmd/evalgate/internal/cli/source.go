package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
)

// campaignSource resolves the campaign a command reads: the directory given
// as the only argument, opened confined (confined.CampaignDir: no symlink
// leaves it, only regular files are read), or a manifest file given by
// name (its directory is the campaign, the file stands for manifest.json),
// or else the embedded example named by --example.
func campaignSource(args []string, example string) (fs.FS, string, error) {
	if len(args) == 1 {
		if example != "" {
			return nil, "", usagef("give a campaign directory or --example, not both")
		}
		info, err := os.Stat(args[0])
		if err != nil {
			return nil, "", usagef("campaign directory: %v", err)
		}
		if info.Mode().IsRegular() {
			return manifestFileSource(args[0])
		}
		if !info.IsDir() {
			return nil, "", usagef("campaign %s is neither a directory nor a manifest file", args[0])
		}
		dir, err := confined.OpenCampaignDir(args[0])
		if err != nil {
			return nil, "", usagef("campaign directory: %v", err)
		}
		return dir, confined.EscapeName(filepath.Base(filepath.Clean(args[0]))), nil
	}
	if example == "" {
		example = fixtures.DefaultExample
	}
	fsys, ok := fixtures.Example(example)
	if !ok {
		return nil, "", usagef("no embedded example %q (see 'evalgate examples')", example)
	}
	return fsys, "example:" + example, nil
}

// manifestFileSource opens the directory of the manifest file path as the
// campaign, with path's file read as its manifest.json (and a manifest.json
// beside it hidden), so that a proposed manifest such as
// fixtures/live/proposed-manifest.json is checked without renaming it.
func manifestFileSource(path string) (fs.FS, string, error) {
	clean := filepath.Clean(path)
	dir, err := confined.OpenCampaignDir(filepath.Dir(clean))
	if err != nil {
		return nil, "", usagef("campaign directory: %v", err)
	}
	base := filepath.Base(clean)
	name := confined.EscapeName(filepath.Base(filepath.Dir(clean)) + "/" + base)
	return &manifestAlias{dir: dir, file: base}, name, nil
}

// manifestAlias is a campaign directory whose manifest.json is another
// file of the directory.
type manifestAlias struct {
	dir  *confined.CampaignDir
	file string // the manifest's real name in dir
}

const manifestName = "manifest.json"

func (a *manifestAlias) Open(name string) (fs.File, error) {
	if name == manifestName {
		return a.dir.Open(a.file)
	}
	return a.dir.Open(name)
}

// relabelManifest names the manifest file a finding is in as the user gave
// it when the campaign was given by its manifest file.
func relabelManifest(fsys fs.FS, fs rules.Findings) rules.Findings {
	a, ok := fsys.(*manifestAlias)
	if !ok {
		return fs
	}
	out := slices.Clone(fs)
	for i := range out {
		if out[i].File == manifestName {
			out[i].File = manifestLabel(a)
		}
	}
	return out
}

// manifestLabel is the manifest's file name as the user gave it.
func manifestLabel(fsys fs.FS) string {
	if a, ok := fsys.(*manifestAlias); ok {
		return confined.EscapeName(a.file)
	}
	return manifestName
}
