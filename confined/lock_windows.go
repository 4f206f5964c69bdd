//go:build windows

package confined

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// The lock is LockFileEx's exclusive lock of the lock file's first byte,
// which Windows releases when the handle is closed or its process ends.

func lockFileEx(f *os.File, flags uint32) error {
	var ol windows.Overlapped
	return windows.LockFileEx(windows.Handle(f.Fd()), flags|windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol)
}

func tryLock(f *os.File) error {
	err := lockFileEx(f, windows.LOCKFILE_FAIL_IMMEDIATELY)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return errLocked
	}
	return err
}

func waitLock(f *os.File) error { return lockFileEx(f, 0) }

// openDirLock opens (creating it) the lock file LockName in dir: Windows
// locks files, not directories.
func openDirLock(dir string) (*os.File, error) {
	st, err := os.Stat(dir)
	if err == nil && !st.IsDir() {
		err = errors.New("not a directory")
	}
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, ErrNotRegular
	}
	return f, nil
}
