package confined

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Two evalgate processes writing one place at once — two imports into one
// campaign, two runs into one output directory, two collects into one
// dataset — would each read the old state and write their own new one,
// and the last writer would silently drop the other's work. Every writer
// therefore holds an exclusive lock for the whole of its read, check and
// write: a second writer waits until the first has finished and then
// reads what the first wrote. The lock is an advisory lock (flock) on a
// small lock file (LockFileEx on Windows), which the kernel releases
// however its process ends, so a killed writer never leaves a stale lock
// behind; the lock file itself stays (it is empty). Where the platform
// has neither (not unix, not Windows), taking a lock fails, so a writer
// refuses to write rather than write unserialised.

// LockName is the lock file of a campaign (held by import) and of a
// collected dataset (held by collect).
const LockName = ".evalgate-lock"

// Lock is a held exclusive lock; Unlock releases it.
type Lock struct{ f *os.File }

// Unlock releases the lock. Closing the file releases it too (and the
// kernel does when the process ends).
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// LockRoot takes the exclusive lock of the directory root stands for, on
// the file name in it (created when absent, never followed out of root,
// never a FIFO or device). When another process holds it, waiting is
// called once and LockRoot waits for it to be released.
func LockRoot(root *os.Root, name string, waiting func()) (*Lock, error) {
	f, err := root.OpenFile(name, os.O_RDWR|os.O_CREATE|nonblock, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", EscapeName(name), err)
	}
	return lockFile(f, name, waiting)
}

// LockDir takes the exclusive lock of directory dir itself, leaving no
// file behind where the platform can lock a directory (flock on the
// directory, on unix): a run holds the lock of its output directory's
// parent while it replaces the output set, since the output directory
// itself is swapped out from under any lock inside it. Where a directory
// cannot be locked (Windows: LockFileEx takes a file), the lock is that of
// the file LockName in dir, which stays (empty).
func LockDir(dir string, waiting func()) (*Lock, error) {
	f, err := openDirLock(dir)
	if err == nil {
		err = flock(f, waiting)
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", EscapeName(dir), err)
	}
	return &Lock{f: f}, nil
}

func lockFile(f *os.File, name string, waiting func()) (*Lock, error) {
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = ErrNotRegular
	}
	if err == nil {
		err = flock(f, waiting)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", EscapeName(name), err)
	}
	return &Lock{f: f}, nil
}

// errLocked is what tryLock returns when another process holds the lock.
var errLocked = errors.New("locked by another process")

func flock(f *os.File, waiting func()) error {
	err := tryLock(f)
	if !errors.Is(err, errLocked) {
		return err
	}
	if waiting != nil {
		waiting()
	}
	return waitLock(f)
}

// nonblock opens without blocking on a FIFO or device.
const nonblock = syscall.O_NONBLOCK
