package confined

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// An output set is every file one `evalgate run` writes into its output
// directory. Each file is atomic (WriteAtomic), and so is the set: it is
// built in a fresh temporary directory beside the output directory and
// swapped into place only when complete, so a reader (or `compare`) never
// sees new tables beside an old report, whenever the run is killed. The
// set's last file is its manifest (output_manifest.go). The caller holds
// the lock of dir's parent (LockDir), so that no other writer builds,
// swaps or removes a set of dir meanwhile: the leftovers removed first
// are then truly those of killed runs.

// Name parts of the temporary siblings of an output directory DIR:
// ".DIR.evalgate-new-*" while a set is built, ".DIR.evalgate-old-*" while an
// old set is removed.
const (
	setNewInfix = ".evalgate-new-"
	setOldInfix = ".evalgate-old-"
)

// setHook, when set by a test, is called at each step of WriteOutputSet
// and RemoveOutputSet, when the disk holds what a kill at that instant
// would leave.
var setHook func(step string)

func hook(step string) {
	if setHook != nil {
		setHook(step)
	}
}

// WriteOutputSet builds an output set with fill, which writes every file
// into the temporary directory it is given, and moves the set into dir
// only when fill succeeded: on Linux by exchanging the two directories
// atomically (renameat2 RENAME_EXCHANGE), so at every instant dir holds
// either the complete old set or the complete new set; where that is not
// supported, by renaming the old set aside first (a kill between the two
// renames leaves dir missing, and the next run restores the old set). The
// leftovers of interrupted runs are removed first. On error dir is
// untouched.
func WriteOutputSet(dir string, fill func(tmp string) error) (err error) {
	dir = filepath.Clean(dir)
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("tables: output %s: %w", dir, err)
	}
	if err := RemoveLeftovers(dir); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+base+setNewInfix+"*")
	if err != nil {
		return fmt.Errorf("tables: output %s: %w", dir, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
			err = fmt.Errorf("tables: output %s: %w", dir, err)
		}
	}()
	if err = os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err = fill(tmp); err != nil {
		return err
	}
	if err = writeSetManifest(tmp); err != nil {
		return err
	}
	if err = syncDir(tmp); err != nil {
		return err
	}
	hook("filled")
	if _, serr := os.Lstat(dir); errors.Is(serr, os.ErrNotExist) {
		if err = os.Rename(tmp, dir); err != nil {
			return err
		}
		hook("moved")
		return syncDir(parent)
	}
	switch xerr := exchange(tmp, dir); {
	case xerr == nil:
		hook("exchanged") // tmp now holds the old set
		if err = syncDir(parent); err != nil {
			return err
		}
		return os.RemoveAll(tmp)
	case !errors.Is(xerr, errNoExchange):
		return xerr
	}
	old, err := os.MkdirTemp(parent, "."+base+setOldInfix+"*")
	if err != nil {
		return err
	}
	if err = os.Remove(old); err != nil {
		return err
	}
	if err = os.Rename(dir, old); err != nil {
		return err
	}
	hook("set aside")
	if err = os.Rename(tmp, dir); err != nil {
		os.Rename(old, dir)
		return err
	}
	hook("moved")
	return os.RemoveAll(old)
}

// RemoveOutputSet removes the output set in dir (for a campaign that is
// rejected before anything is written, so that an older set does not look
// current): renamed aside in one step, then deleted. A missing dir is not
// an error.
func RemoveOutputSet(dir string) error {
	dir = filepath.Clean(dir)
	if err := RemoveLeftovers(dir); err != nil {
		return err
	}
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	old, err := os.MkdirTemp(parent, "."+base+setOldInfix+"*")
	if err != nil {
		return fmt.Errorf("tables: output %s: %w", dir, err)
	}
	if err := os.Remove(old); err != nil {
		return fmt.Errorf("tables: output %s: %w", dir, err)
	}
	if err := os.Rename(dir, old); err != nil {
		return fmt.Errorf("tables: output %s: %w", dir, err)
	}
	hook("removed")
	return os.RemoveAll(old)
}

// RemoveLeftovers removes the temporary siblings interrupted runs left
// beside dir. When dir itself is missing and one old set was left aside
// (a run killed between the two renames of the fallback), that set is
// restored instead: it is complete.
func RemoveLeftovers(dir string) error {
	dir = filepath.Clean(dir)
	parent, base := filepath.Split(dir)
	news, err := filepath.Glob(filepath.Join(parent, globQuote("."+base+setNewInfix)+"*"))
	if err != nil {
		return err
	}
	olds, err := filepath.Glob(filepath.Join(parent, globQuote("."+base+setOldInfix)+"*"))
	if err != nil {
		return err
	}
	if _, serr := os.Lstat(dir); errors.Is(serr, os.ErrNotExist) && len(olds) == 1 {
		if err := os.Rename(olds[0], dir); err != nil {
			return fmt.Errorf("tables: restore %s: %w", dir, err)
		}
		olds = nil
	}
	for _, p := range append(news, olds...) {
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("tables: remove leftover %s: %w", p, err)
		}
	}
	return nil
}

// globQuote escapes the metacharacters of filepath.Match in a literal.
func globQuote(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '\\':
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// syncDir flushes a directory's entries to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// exchange is exchangeDirs; a test replaces it to take the fallback.
var exchange = exchangeDirs

// errNoExchange says the platform or filesystem cannot exchange two
// directories atomically.
var errNoExchange = errors.New("atomic directory exchange not supported")
