package confined

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// exchangeDirs swaps two directories atomically (renameat2 with
// RENAME_EXCHANGE, Linux 3.15 and later).
func exchangeDirs(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) {
		return errNoExchange
	}
	return err
}

// haveSyncFS: Linux flushes one file system at once (syncfs(2)).
const haveSyncFS = true

// syncFS flushes the file system holding dir.
func syncFS(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	for {
		err = unix.Syncfs(int(f.Fd()))
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
