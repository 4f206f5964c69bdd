package cli

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/evalgate/evalgate/fixtures"
)

// campaignSource resolves the campaign a command reads: the directory given
// as the only argument, or else the embedded example named by --example.
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
		return os.DirFS(args[0]), filepath.Base(filepath.Clean(args[0])), nil
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
