package confined

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteAtomic writes a file through fill into a temporary file in path's
// directory and renames it over path only when fill, Sync and Close all
// succeeded, so a reader never sees a half-written file under its real
// name; on any error the temporary file is removed. Every output evalgate
// writes goes through it.
func WriteAtomic(path string, perm os.FileMode, fill func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("tables: write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			err = fmt.Errorf("tables: write %s: %w", path, err)
		}
	}()
	if err = fill(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp.Name(), perm); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// WriteFileAtomic is WriteAtomic for bytes already in memory.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return WriteAtomic(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFileIn writes data to name inside root as [WriteFileAtomic] does —
// a temporary file beside it, renamed over it once synced — creating its
// parent directories, all through root: no symlink or ".." in name can
// make it write or create a directory outside root.
func WriteFileIn(root *os.Root, name string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(name)
	if err := root.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var tmp *os.File
	var tmpName string
	for i := 0; ; i++ {
		tmpName = filepath.Join(dir, fmt.Sprintf(".%s.tmp-%d-%d", filepath.Base(name), os.Getpid(), i))
		tmp, err = root.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) || i > 100 {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			root.Remove(tmpName)
			err = fmt.Errorf("write %s: %w", name, err)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = root.Chmod(tmpName, perm); err != nil {
		return err
	}
	return root.Rename(tmpName, name)
}
