package confined

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
)

// A commit writes several files of one directory at once, so that however
// the writer ends — an error, a full disk, SIGKILL at any instant — the
// files hold either all their old contents or all their new ones once the
// next writer has recovered (RecoverCommit, called under the directory's
// lock before it reads anything). An import commits its answer files,
// receipts.jsonl and the imports ledger this way: a receipt never lands
// without its ledger line, nor an answer without its receipt.
//
// The protocol: every new file is written and synced under a pending name
// beside its real one (".NAME.evalgate-pending"); then the journal
// (".evalgate-commit.json", the list of the names) is written, synced and
// renamed into place, which is the instant of the commit; then each
// pending file is renamed over its real name and the journal removed.
// Recovery finishes a commit whose journal exists (renaming the pending
// files still there) and otherwise removes every pending file, since
// nothing had been committed.

// CommitJournal is the journal of a commit under way.
const CommitJournal = ".evalgate-commit.json"

const pendingSuffix = ".evalgate-pending"

// CommitFile is one file of a commit: its slash-separated name under the
// root, and fill, which writes its whole new content.
type CommitFile struct {
	Name string
	Fill func(io.Writer) error
}

// commitHook, when set by a test, is called at each step of Commit, when
// the disk holds what a kill at that instant would leave.
var commitHook func(step string)

func commitStep(step string) {
	if commitHook != nil {
		commitHook(step)
	}
}

// PendingName is the name under which a commit writes name's new content.
func PendingName(name string) string {
	dir, base := path.Split(name)
	return dir + "." + base + pendingSuffix
}

type journal struct {
	Files []string `json:"files"`
}

// Commit writes files under root as one commit (see above). The caller
// holds the directory's lock and has recovered any earlier commit. On an
// error before the journal is in place nothing is committed and the
// pending files are removed; after it, RecoverCommit finishes the commit.
func Commit(root *os.Root, files []CommitFile) (err error) {
	var names []string
	dirs := map[string]bool{".": true}
	committed := false
	defer func() {
		if err != nil && !committed {
			for _, n := range names {
				root.Remove(PendingName(n))
			}
			root.Remove(PendingName(CommitJournal))
		}
		if err != nil {
			err = fmt.Errorf("commit: %w", err)
		}
	}()
	for _, f := range files {
		names = append(names, f.Name)
		dirs[path.Dir(f.Name)] = true
		if err := writePending(root, PendingName(f.Name), f.Fill); err != nil {
			return err
		}
		commitStep("pending " + f.Name)
	}
	for d := range dirs {
		if err := syncRootDir(root, d); err != nil {
			return err
		}
	}
	commitStep("pending")
	data, err := json.Marshal(journal{Files: names})
	if err != nil {
		return err
	}
	if err := writePending(root, PendingName(CommitJournal), func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}); err != nil {
		return err
	}
	if err := root.Rename(PendingName(CommitJournal), CommitJournal); err != nil {
		return err
	}
	committed = true
	if err := syncRootDir(root, "."); err != nil {
		return err
	}
	commitStep("journal")
	return finish(root, names)
}

// finish renames every pending file of a committed journal into place,
// then removes the journal.
func finish(root *os.Root, names []string) error {
	dirs := map[string]bool{".": true}
	for i, n := range names {
		dirs[path.Dir(n)] = true
		err := root.Rename(PendingName(n), n)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if i == 0 {
			commitStep("renaming")
		}
	}
	for d := range dirs {
		if err := syncRootDir(root, d); err != nil {
			return err
		}
	}
	if err := root.Remove(CommitJournal); err != nil {
		return err
	}
	return syncRootDir(root, ".")
}

// RecoverCommit completes or undoes a commit a killed writer left under
// root: with its journal in place, every pending file is renamed into
// place (the commit had happened); otherwise every pending file in root
// and in dirs is removed (it had not). It reports what it did, "" when
// there was nothing to recover. The caller holds the directory's lock.
func RecoverCommit(root *os.Root, dirs ...string) (string, error) {
	data, err := readRootFile(root, CommitJournal, 1<<20)
	switch {
	case err == nil:
		var j journal
		if err := json.Unmarshal(data, &j); err != nil {
			return "", fmt.Errorf("recover %s: %w", CommitJournal, err)
		}
		for _, n := range j.Files {
			if !fs.ValidPath(n) || strings.HasPrefix(path.Base(n), ".") {
				return "", fmt.Errorf("recover %s: %q is not a file a commit writes", CommitJournal, n)
			}
		}
		if err := finish(root, j.Files); err != nil {
			return "", fmt.Errorf("recover %s: %w", CommitJournal, err)
		}
		return fmt.Sprintf("completed an interrupted write of %d file(s)", len(j.Files)), nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("recover %s: %w", CommitJournal, err)
	}
	n := 0
	for _, d := range append([]string{"."}, dirs...) {
		removed, err := RemoveLeftoverFiles(root, d, func(name string) bool {
			return strings.HasPrefix(name, ".") && strings.HasSuffix(name, pendingSuffix)
		})
		if err != nil {
			return "", err
		}
		n += removed
	}
	if n > 0 {
		return fmt.Sprintf("removed %d file(s) of an interrupted write that had not been committed", n), nil
	}
	return "", nil
}

// atomicTemp matches the temporary file WriteAtomic writes for a file
// NAME: ".NAME.tmp-" and CreateTemp's decimal suffix.
var atomicTemp = regexp.MustCompile(`^\.(.+)\.tmp-[0-9]+$`)

// AtomicTempOf returns the NAME of a temporary file WriteAtomic leaves for
// NAME when it is killed, and whether name is one.
func AtomicTempOf(name string) (string, bool) {
	m := atomicTemp.FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// RemoveLeftoverFiles removes the regular files of directory dir under
// root whose name match accepts, and reports how many it removed; a
// missing dir holds none. The caller holds the lock under which those
// files are written, so none is being written now.
func RemoveLeftoverFiles(root *os.Root, dir string, match func(name string) bool) (int, error) {
	d, err := OpenDir(root, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if !e.Type().IsRegular() || !match(e.Name()) {
			continue
		}
		if err := root.Remove(path.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, err
		}
		n++
	}
	return n, nil
}

// OpenDir opens the directory name under root for reading its entries,
// never blocking: a FIFO or device there is opened non-blocking and
// refused, as is anything else that is not a directory.
func OpenDir(root *os.Root, name string) (*os.File, error) {
	d, err := root.OpenFile(name, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	st, err := d.Stat()
	if err == nil && !st.IsDir() {
		err = fmt.Errorf("%s: not a directory", EscapeName(name))
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// writePending writes a pending file: created or truncated, filled,
// synced and closed.
func writePending(root *os.Root, name string, fill func(io.Writer) error) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s: %w", EscapeName(name), ErrNotRegular)
		}
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncRootDir(root *os.Root, dir string) error {
	d, err := root.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// readRootFile reads a regular file under root of at most limit bytes,
// never blocking on a FIFO.
func readRootFile(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", EscapeName(name), ErrNotRegular)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w", EscapeName(name), ErrTooLarge)
	}
	return data, nil
}
