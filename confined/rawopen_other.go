//go:build !linux

package confined

import "io/fs"

// openRaw is Linux's only (rawopen_linux.go): elsewhere every file takes
// the os.Root path.
func openRaw(dirfd int, file string) (fs.File, fs.FileInfo, bool) { return nil, nil, false }

// openRawBeneath is Linux's only, as openRaw is.
func openRawBeneath(rootfd int, dir, file string) (fs.File, fs.FileInfo, bool) {
	return nil, nil, false
}
