package confined

import (
	"io"
	"io/fs"
	"time"

	"golang.org/x/sys/unix"
)

// openRaw opens file, one plain name (no "/", ".", ".." or empty name:
// see plainFile) of the directory open as dirfd, by the same checks as
// openChecked, with system calls of its own: a regular file is stat'ed
// without following a symlink, opened non-blocking and without following
// one (O_NOFOLLOW), and stat'ed again open. Anything else (a symlink, a
// FIFO, device or directory, a missing file, any error) reports false, and
// the caller takes the os.Root path, which words every refusal. It saves
// what os.File costs a file read once through: its registration with the
// network poller (refused for a regular file, a system call each), its
// cleanup and locks.
func openRaw(dirfd int, file string) (fs.File, fs.FileInfo, bool) {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, file, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, nil, false
	}
	fd, err := unix.Openat(dirfd, file, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, false
	}
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, nil, false
	}
	f := &rawFile{fd: fd, info: rawInfo{name: file, size: st.Size, perm: fs.FileMode(st.Mode) & fs.ModePerm,
		mtime: time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))}} // int32 fields on 386
	return f, f.info, true
}

// rawFile is a regular file open for reading by openRaw. Close it.
type rawFile struct {
	fd   int
	info rawInfo
}

func (f *rawFile) Stat() (fs.FileInfo, error) { return f.info, nil }

func (f *rawFile) Read(b []byte) (int, error) {
	if f.fd < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.info.name, Err: fs.ErrClosed}
	}
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, err := unix.Read(f.fd, b)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.info.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *rawFile) Close() error {
	if f.fd < 0 {
		return &fs.PathError{Op: "close", Path: f.info.name, Err: fs.ErrClosed}
	}
	err := unix.Close(f.fd)
	f.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: f.info.name, Err: err}
	}
	return nil
}

// rawInfo is what a rawFile's Stat reports: a regular file.
type rawInfo struct {
	name  string
	size  int64
	perm  fs.FileMode
	mtime time.Time
}

func (i rawInfo) Name() string       { return i.name }
func (i rawInfo) Size() int64        { return i.size }
func (i rawInfo) Mode() fs.FileMode  { return i.perm }
func (i rawInfo) ModTime() time.Time { return i.mtime }
func (i rawInfo) IsDir() bool        { return false }
func (i rawInfo) Sys() any           { return nil }

// openRawBeneath is openRaw of file in dir, a valid path (see plainFile)
// of the directory open as rootfd: dir is resolved by openat2 beneath
// rootfd and through no symlink (RESOLVE_BENEATH, RESOLVE_NO_SYMLINKS,
// RESOLVE_NO_MAGICLINKS) and opened as a path only (O_PATH: nothing of it
// is read), then file is openRaw'ed in it. A symlink on the way, a kernel
// without openat2 or any other error reports false, and the caller takes
// the os.Root path, which follows symlinks inside the campaign and words
// every refusal. It saves os.Root's walk of every directory on the way,
// twice (for a Stat, then for the open), for a file of a directory read
// once (a task's files).
func openRawBeneath(rootfd int, dir, file string) (fs.File, fs.FileInfo, bool) {
	dfd, err := unix.Openat2(rootfd, dir, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if err != nil {
		return nil, nil, false
	}
	defer unix.Close(dfd)
	return openRaw(dfd, file)
}
