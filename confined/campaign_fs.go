package confined

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/evalgate/evalgate/rules"
)

// Campaign directories are hostile: a recorder nobody audited may leave a
// symlink to /etc/passwd where a source should be, or a FIFO where the
// manifest should be. Every campaign file is therefore opened through a
// [CampaignDir] and read with [ReadCampaignFile]:
//
//   - no symlink and no ".." may leave the campaign directory (os.Root
//     enforces it at every path component); the refusal names the path,
//     never the target's bytes;
//   - only regular files are read: a FIFO, device, socket or directory
//     where a file should be is refused before any blocking open;
//   - every read stops at its documented cap, whatever the file's size or a
//     receipt claims, so /dev/zero cannot spin.

// Errors of campaign file access. Stages turn them into findings with
// [FileErrorCode].
var (
	// ErrNotRegular reports a FIFO, device, socket or directory where a
	// regular file should be.
	ErrNotRegular = errors.New("not a regular file")
	// ErrEscapes reports a path that leaves the campaign directory through a
	// symlink or "..".
	ErrEscapes = errors.New("path leaves its directory through a symlink or \"..\"")
	// ErrTooLarge reports a file longer than its cap.
	ErrTooLarge = errors.New("file exceeds its size cap")
)

// CampaignDir is a campaign directory opened through os.Root. It implements
// fs.FS, fs.StatFS and fs.ReadDirFS; its Open refuses escapes and files
// that are not regular (directories are opened, for listing), without ever
// blocking on a FIFO or device.
type CampaignDir struct {
	root    *os.Root
	escapes error // the error os.Root reports for an escape (it is not exported)
	dirs    dirRoots
	top     topDir
}

// topDir is the campaign's directory open as a file, whose descriptor
// openRawBeneath resolves paths from; fd is -1 when it could not be
// opened so.
type topDir struct {
	once sync.Once
	dir  *os.File
	fd   int
}

// topFD returns the descriptor of the campaign's directory, opened once
// (through the root, so it is the directory the root holds), or -1.
func (d *CampaignDir) topFD() int {
	t := &d.top
	t.once.Do(func() { t.dir, t.fd = openDirFD(d.root) })
	return t.fd
}

// openDirFD opens the directory r holds as a file for its descriptor,
// which system calls of their own resolve names from; nil and -1 when it
// cannot be opened so or is no directory.
func openDirFD(r *os.Root) (*os.File, int) {
	f, err := r.Open(".")
	if err != nil {
		return nil, -1
	}
	if info, err := f.Stat(); err != nil || !info.IsDir() {
		f.Close()
		return nil, -1
	}
	return f, int(f.Fd())
}

// dirRoots are the campaign's busy directories (answers/, where a file per
// session is read) opened as roots of their own, so that opening one of
// their files walks one path component instead of the whole path twice
// (os.Root opens every directory on the way for a Stat and again for the
// open). A directory is opened so after dirUses files of it were asked
// for; at most maxDirRoots are kept, and uses are counted for at most
// maxDirCounts directories, so memory does not grow with the campaign.
type dirRoots struct {
	mu    sync.Mutex
	uses  map[string]int
	roots map[string]*busyDir
}

// busyDir is a busy directory opened as a root of its own, and as a file
// whose descriptor openRaw opens plain names in.
type busyDir struct {
	root *os.Root
	dir  *os.File // nil when it could not be opened so
	fd   int
}

const (
	dirUses      = 8
	maxDirRoots  = 16
	maxDirCounts = 4096
)

// dirRoot returns the directory dir of the campaign as a root of its own,
// nil when it is not busy yet (or cannot be opened so).
func (d *CampaignDir) dirRoot(dir string) *busyDir {
	c := &d.dirs
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.roots[dir]; ok {
		return r
	}
	if len(c.roots) >= maxDirRoots {
		return nil
	}
	if c.uses == nil {
		c.uses, c.roots = map[string]int{}, map[string]*busyDir{}
	}
	n, counted := c.uses[dir]
	if !counted && len(c.uses) >= maxDirCounts {
		return nil
	}
	if c.uses[dir] = n + 1; n+1 < dirUses {
		return nil
	}
	delete(c.uses, dir)
	r, err := d.root.OpenRoot(dir)
	if err != nil {
		c.roots[dir] = nil // the full path says why, for every file of it
		return nil
	}
	b := &busyDir{root: r}
	b.dir, b.fd = openDirFD(r)
	c.roots[dir] = b
	return b
}

// plainFile splits name into a directory and a file name when name is a
// valid path (fs.ValidPath: no "..", ".", empty or absolute element) with
// a directory: then the file is the same whether reached from the
// campaign's root or from the directory's.
func plainFile(name string) (dir, file string, ok bool) {
	i := strings.LastIndexByte(name, '/')
	if i <= 0 || !fs.ValidPath(name) {
		return "", "", false
	}
	return name[:i], name[i+1:], true
}

// OpenCampaignDir opens dir as a confined campaign filesystem. Close it
// when done.
func OpenCampaignDir(dir string) (*CampaignDir, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	d := &CampaignDir{root: root}
	// os.Root refuses ".." of its own directory with the same error it
	// returns for an escaping symlink; keep that error to recognise it.
	var pe *fs.PathError
	if _, err := root.Lstat(".."); errors.As(err, &pe) {
		d.escapes = pe.Err
	}
	return d, nil
}

// Close releases the directory.
func (d *CampaignDir) Close() error {
	d.dirs.mu.Lock()
	for _, r := range d.dirs.roots {
		if r != nil {
			if r.dir != nil {
				r.dir.Close()
			}
			r.root.Close()
		}
	}
	d.dirs.roots, d.dirs.uses = nil, nil
	d.dirs.mu.Unlock()
	d.top.once.Do(func() { d.top.fd = -1 }) // never opened after Close
	if d.top.dir != nil {
		d.top.dir.Close()
		d.top.dir, d.top.fd = nil, -1
	}
	return d.root.Close()
}

// Name is the directory as given to OpenCampaignDir.
func (d *CampaignDir) Name() string { return d.root.Name() }

// classify replaces os.Root's escape error by ErrEscapes, keeping the path.
func (d *CampaignDir) classify(op, name string, err error) error {
	if d.escapes != nil && errors.Is(err, d.escapes) {
		return &fs.PathError{Op: op, Path: name, Err: ErrEscapes}
	}
	return err
}

// Stat follows symlinks inside the campaign directory only. Names need not
// be UTF-8 (a directory listing may hold any bytes); os.Root confines every
// name, absolute or with "..", to the campaign directory.
func (d *CampaignDir) Stat(name string) (fs.FileInfo, error) {
	info, err := d.root.Stat(name)
	return info, d.classify("stat", name, err)
}

// Open opens a regular file or a directory of the campaign. Anything else
// is refused with ErrNotRegular before it is opened; the file is opened
// non-blocking and checked again, so swapping in a FIFO after the check
// cannot block either.
func (d *CampaignDir) Open(name string) (fs.File, error) {
	f, _, err := d.open(name)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// open is Open, also returning what the open file's Stat reported.
func (d *CampaignDir) open(name string) (*os.File, fs.FileInfo, error) {
	if dir, file, ok := plainFile(name); ok {
		if r := d.dirRoot(dir); r != nil {
			// the same checks from the directory's root; on any error the
			// full path is tried, so every refusal is the one it gives
			if f, info, err := openChecked(r.root, file); err == nil {
				return f, info, nil
			}
		}
	}
	f, info, err := openChecked(d.root, name)
	if err != nil {
		return nil, nil, d.classifyOpen(name, err)
	}
	return f, info, nil
}

// openReader is open for a file read through once and closed: a regular
// file reached by a plain path is opened by openRaw, in its directory
// when that is busy, else by openRawBeneath from the campaign's, and is
// no *os.File; on any refusal of theirs the file takes open's path.
func (d *CampaignDir) openReader(name string) (fs.File, fs.FileInfo, error) {
	if dir, file, ok := plainFile(name); ok {
		if r := d.dirRoot(dir); r != nil {
			if r.dir != nil {
				if f, info, ok := openRaw(r.fd, file); ok {
					return f, info, nil
				}
			}
		} else if fd := d.topFD(); fd >= 0 {
			if f, info, ok := openRawBeneath(fd, dir, file); ok {
				return f, info, nil
			}
		}
	}
	return d.open(name)
}

// errStatted is an error of openChecked's Stat, which classifyOpen leaves
// to classify as a stat.
type errStatted struct{ err error }

func (e errStatted) Error() string { return e.err.Error() }

// openChecked opens name of r as Open does: refused unless regular or a
// directory before it is opened, opened non-blocking, and checked again.
func openChecked(r *os.Root, name string) (*os.File, fs.FileInfo, error) {
	info, err := r.Stat(name)
	if err != nil {
		return nil, nil, errStatted{err}
	}
	if !usable(info.Mode()) {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	f, err := r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	if info, err = f.Stat(); err != nil || !usable(info.Mode()) {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	return f, info, nil
}

// classifyOpen is the error Open returns for an error of openChecked on
// the full path.
func (d *CampaignDir) classifyOpen(name string, err error) error {
	var st errStatted
	switch {
	case errors.As(err, &st):
		return d.classify("stat", name, st.err)
	case errors.Is(err, ErrNotRegular):
		return err
	}
	return d.classify("open", name, err)
}

// ReadDir lists a directory of the campaign, sorted by name.
func (d *CampaignDir) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(dirOnly{d}, name)
}

// dirOnly hides CampaignDir's ReadDir from fs.ReadDir, which would
// otherwise call it back.
type dirOnly struct{ d *CampaignDir }

func (o dirOnly) Open(name string) (fs.File, error) { return o.d.Open(name) }

func usable(m fs.FileMode) bool { return m.IsRegular() || m.IsDir() }

// ReadCampaignFile reads one regular file of fsys, at most limit bytes. A
// missing file is fs.ErrNotExist; a file that is not regular is
// ErrNotRegular; a longer file is ErrTooLarge (read no further than
// limit+1 bytes, whatever its size claims). It works on any fs.FS, so the
// embedded examples and test filesystems are read by the same rules.
func ReadCampaignFile(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, _, err := OpenCampaignFileReader(fsys, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadBounded(f, name, limit)
}

// ReadBounded reads an open regular file whole when it has at most limit
// bytes; name is what its errors call it. A longer file is a
// [TooLargeError] giving the size the file reports (or, when the file grew
// past its reported size, "more than limit"); it never reads more than
// limit+1 bytes, so a hostile file cannot exhaust memory.
func ReadBounded(f fs.File, name string, limit int64) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	if info.Size() > limit {
		return nil, &TooLargeError{Path: name, Size: info.Size(), Limit: limit}
	}
	data, err := readAllSized(io.LimitReader(f, limit+1), info.Size())
	switch {
	case err != nil:
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	case int64(len(data)) > limit:
		return nil, &TooLargeError{Path: name, Size: -1, Limit: limit}
	}
	return data, nil
}

// readAllSized is io.ReadAll of r into a buffer sized for the size bytes
// the file reports and one more, so that a file of that size is read by
// one read ([ReadSized]) instead of growing a buffer from 512 bytes; a
// file that grew is read on as io.ReadAll would (r bounds it).
func readAllSized(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, max(size, 0)+1)
	n, err := ReadSized(r, b, size)
	if err != nil || n < len(b) {
		return b[:n], err
	}
	rest, err := io.ReadAll(r)
	return append(b, rest...), err
}

// ReadSized reads r, an open file whose Stat reported size bytes, into
// buf until buf is full or the file ends, as io.ReadFull does (the end is
// no error: n says how much was read), except that a read that ends
// exactly at size bytes with room left in buf is taken as the file's end:
// a regular file's read is short only at its end, so a file of the size
// it reported, read into a buffer with a byte of room more, is read by
// one read instead of a second that finds nothing. A file that grew past
// size before the read fills that byte and is read on; a file that grows
// after it is missed, as by a read a moment earlier. Reads that return
// less before size are read on (a short read before the end, as some file
// systems give, is no end).
func ReadSized(r io.Reader, buf []byte, size int64) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		switch {
		case err == io.EOF:
			return n, nil
		case err != nil:
			return n, err
		case m > 0 && int64(n) == size && n < len(buf):
			return n, nil
		}
	}
	return n, nil
}

// ReadFile reads a file named on the command line ([OpenRegularFile]: a
// FIFO, device, socket or directory is refused at once, symlinks are
// followed) whole when it has at most limit bytes ([ReadBounded]).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := OpenRegularFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadBounded(f, path, limit)
}

// TooLargeError is a campaign file longer than its cap. It matches
// ErrTooLarge.
type TooLargeError struct {
	Path  string
	Size  int64 // the size the file reports, -1 when it was found by reading
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("file has more than %d bytes, its cap", e.Limit)
	}
	return fmt.Sprintf("file has %d bytes; the cap is %d", e.Size, e.Limit)
}

func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// OpenCampaignFile opens one regular file of fsys for a bounded streaming
// read (see ReadCampaignFile). The caller bounds the read.
func OpenCampaignFile(fsys fs.FS, name string) (fs.File, error) {
	f, _, err := OpenCampaignFileInfo(fsys, name)
	return f, err
}

// OpenCampaignFileInfo is OpenCampaignFile that also returns the open
// file's FileInfo, which the checks of the open have already read: a
// caller that wants the file's size needs no Stat of its own.
func OpenCampaignFileInfo(fsys fs.FS, name string) (fs.File, fs.FileInfo, error) {
	if d, ok := fsys.(*CampaignDir); ok { // the open file's Stat is already known
		f, info, err := d.open(name)
		if err != nil {
			return nil, nil, err
		}
		return regularOnly(name, f, info)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return regularOnly(name, f, info)
}

// regularOnly returns the open file f of name and its info when it is a
// regular file; otherwise it closes f and refuses it (ErrNotRegular).
func regularOnly(name string, f fs.File, info fs.FileInfo) (fs.File, fs.FileInfo, error) {
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	return f, info, nil
}

// OpenCampaignFileReader is OpenCampaignFileInfo for a file the caller
// reads through once and closes, and uses only through fs.File: the file
// it returns need not be an *os.File (see CampaignDir.openReader). The
// checks and every refusal are OpenCampaignFileInfo's.
func OpenCampaignFileReader(fsys fs.FS, name string) (fs.File, fs.FileInfo, error) {
	if d, ok := fsys.(*CampaignDir); ok {
		f, info, err := d.openReader(name)
		if err != nil {
			return nil, nil, err
		}
		return regularOnly(name, f, info)
	}
	return OpenCampaignFileInfo(fsys, name)
}

// FileErrorCode is the finding code of a campaign file access error that
// the confinement refused: file_not_regular or path_escapes; for any other
// error (missing, too large, unreadable) it returns otherwise, which the
// reading stage chooses.
func FileErrorCode(err error, otherwise rules.Code) rules.Code {
	switch {
	case errors.Is(err, ErrNotRegular):
		return rules.CodeFileNotRegular
	case errors.Is(err, ErrEscapes):
		return rules.CodePathEscapes
	}
	return otherwise
}

// FileErrorMessage describes a campaign file access error in one sentence
// that names the path only: never the bytes or hash of a symlink's target.
func FileErrorMessage(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "file does not exist"
	case errors.Is(err, ErrNotRegular):
		return "not a regular file (a FIFO, device, socket or directory); it was not read"
	case errors.Is(err, ErrEscapes):
		return "the path leaves the directory it is read from (the campaign, an output or a source directory) through a symlink or \"..\"; it was not followed"
	case errors.Is(err, ErrTooLarge):
		var tl *TooLargeError
		if errors.As(err, &tl) {
			return tl.Error()
		}
		return "file exceeds its size cap"
	}
	return "file cannot be read: " + EscapeName(err.Error())
}

// EscapeName returns a file name as printable UTF-8: a name that is valid
// UTF-8 is returned as it is, and each byte of an invalid sequence is
// written as \xNN, so every output (JSON included) can carry it.
func EscapeName(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, name[i])
		} else {
			b.WriteString(name[i : i+size])
		}
		i += size
	}
	return b.String()
}

// OpenRegularFile opens a file named on the command line (a request,
// ratings, an answer, a log) by the rules of campaign files: a FIFO, device,
// socket or directory is refused with ErrNotRegular, checked before the
// open and again after a non-blocking one. Symlinks are followed: the user
// chose the path. The caller bounds the read.
func OpenRegularFile(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // the user asked to open it
		}
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return f, nil
}

// EscapeText returns s as one line of inert printable text for a terminal
// or a text report: each control character (C0, DEL and C1: ESC, NUL, a
// newline, a tab, a carriage return) is written as a Go escape (\x1b, \x00,
// \n, \t, \r; C1 as \u0080 to \u009f), each bidirectional override, embedding, isolate or mark
// (U+202E and its kin, which reorder what a terminal shows) as \uXXXX, and
// each byte of an invalid UTF-8 sequence as \xNN. Text without them is
// returned as it is. Every text output escapes file names and values
// through it, so a newline in a file name cannot split a finding's line
// and an escape sequence in a sample ID cannot reach the terminal.
func EscapeText(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unsafeRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafeRune reports a control character or a bidirectional formatting
// character.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
