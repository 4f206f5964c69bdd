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
func WriteAtomic(path string, perm os.FileMode, fill func(io.Writer) error) error {
	return writeAtomic(path, perm, fill, true)
}

func writeAtomic(path string, perm os.FileMode, fill func(io.Writer) error, sync bool) (err error) {
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
	if sync {
		if err = tmp.Sync(); err != nil {
			return err
		}
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

// A Batch writes many files, each as WriteFileAtomic does (complete under
// its name or not there), and makes them durable together: on Linux no
// file is synced as it is written and Sync flushes the file system they
// are on once (syncfs), since one sync per small file costs a disk flush
// each (a blind export of 6,672 items spent most of its time in them);
// elsewhere each file is synced as it is written and Sync does nothing. A
// caller writes the file that makes the batch count (a blind export's
// key) after Sync, so a crash before it leaves nothing that counts.
type Batch struct {
	dir     string // a directory on the batch's file system
	written bool
}

// WriteFile writes data to path, atomically, within the batch.
func (b *Batch) WriteFile(path string, data []byte, perm os.FileMode) error {
	if b.dir == "" {
		b.dir = filepath.Dir(path)
	}
	b.written = true
	return writeAtomic(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, !haveSyncFS)
}

// Sync makes every file the batch wrote durable.
func (b *Batch) Sync() error {
	if !b.written || !haveSyncFS {
		return nil
	}
	if err := syncFS(b.dir); err != nil {
		return fmt.Errorf("sync %s: %w", EscapeName(b.dir), err)
	}
	return nil
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
