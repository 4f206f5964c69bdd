package cli

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/tables"
)

// campaignSource resolves the campaign a command reads: the directory given
// as the only argument, opened confined (tables.CampaignDir: no symlink
// leaves it, only regular files are read), or else the embedded example
// named by --example.
func campaignSource(args []string, example string) (fs.FS, string, error) {
	if len(args) == 1 {
		if example != "" {
			return nil, "", usagef("give a campaign directory or --example, not both")
		}
		info, err := os.Stat(args[0])
		if err != nil {
			return nil, "", usagef("campaign directory: %v", err)
		}
		if !info.IsDir() {
			return nil, "", usagef("campaign %s is not a directory", args[0])
		}
		dir, err := tables.OpenCampaignDir(args[0])
		if err != nil {
			return nil, "", usagef("campaign directory: %v", err)
		}
		return dir, tables.EscapeName(filepath.Base(filepath.Clean(args[0]))), nil
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
