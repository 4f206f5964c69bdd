package spool

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fileRows returns n citation rows in a scrambled order with repeated
// keys, and the order they come back in.
func fileRows(n int) ([]citationRow, func(a, b citationRow) int) {
	rows := make([]citationRow, n)
	for i := range rows {
		k := (i * 7919) % 997
		rows[i] = citationRow{SessionID: fmt.Sprintf("s%04d", k%131), Index: int64(k % 3), Path: fmt.Sprintf("p%07d", i), Supports: []string{"C1"}[:i%2]}
	}
	return rows, func(a, b citationRow) int {
		return cmp.Or(cmp.Compare(a.SessionID, b.SessionID), cmp.Compare(a.Index, b.Index))
	}
}

// checkSpool holds sp's rows to the stable sort of rows.
func checkSpool(t *testing.T, sp *Spool[citationRow], rows []citationRow, order func(a, b citationRow) int) {
	t.Helper()
	want := slices.Clone(rows)
	slices.SortStableFunc(want, order)
	if got := sp.Collect(); sp.Err() != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("the spool gave %d rows (err %v), not the stable sort of the %d added", len(got), sp.Err(), len(want))
	}
}

// TestSpoolFileNoLeftovers: past the threshold the chunks are in a file
// that has no name from the moment it is made (Linux: the descriptor's
// target is "(deleted)"), and the rows come back as from memory.
func TestSpoolFileNoLeftovers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the open descriptors are read from /proc")
	}
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	rows, order := fileRows(3*1000 + 5)
	sp := NewWith(order, Config{ChunkRows: 1000, FileAfter: -1})
	sp.Add(rows...)
	sp.Compact()
	if sp.store.file == nil || sp.store.memOnly {
		t.Fatalf("the chunks were not moved to a file")
	}
	for _, c := range sp.store.chunks {
		if !c.onFile || c.mem != nil {
			t.Fatalf("a chunk stayed in memory: %+v", c.size)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("the temporary directory holds %s", left[0].Name())
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	open := 0
	for _, fd := range fds {
		target, _ := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if strings.HasPrefix(target, filepath.Join(dir, "evalgate-spool-")) {
			if !strings.HasSuffix(target, "(deleted)") {
				t.Errorf("the spool's file %s still has its name", target)
			}
			open++
		}
	}
	if open != 1 {
		t.Errorf("%d spool files open, want 1", open)
	}
	checkSpool(t, sp, rows, order)
}

// TestSpoolFileUnavailable: without a temporary directory the spool keeps
// its chunks in memory and its rows are the same.
func TestSpoolFileUnavailable(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "absent"))
	rows, order := fileRows(2*1000 + 1)
	sp := NewWith(order, Config{ChunkRows: 1000, FileAfter: -1})
	sp.Add(rows...)
	if sp.store.file != nil || !sp.store.memOnly {
		t.Fatalf("a file was made without a temporary directory")
	}
	checkSpool(t, sp, rows, order)
}

// fakeFile is a spool file in memory whose writes fail after a number of
// them, and whose reads fail when told to.
type fakeFile struct {
	mu       sync.Mutex
	data     []byte
	writes   int
	okWrites int
	badRead  bool
}

func (f *fakeFile) WriteAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.writes >= f.okWrites {
		return len(p) / 2, errors.New("no space left on device")
	}
	f.writes++
	if end := int(off) + len(p); end > len(f.data) {
		f.data = append(f.data, make([]byte, end-len(f.data))...)
	}
	return copy(f.data[off:], p), nil
}

func (f *fakeFile) ReadAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.badRead {
		return 0, errors.New("input/output error")
	}
	n := copy(p, f.data[min(int(off), len(f.data)):])
	return n, nil
}

// open is a Config.File that gives f.
func (f *fakeFile) open() (File, error) { return f, nil }

// TestSpoolFileWriteFails: a file that stops taking writes (at once, while
// the chunks in memory move to it, or later) leaves the chunks it did not
// take in memory, and the rows are the same.
func TestSpoolFileWriteFails(t *testing.T) {
	rows, order := fileRows(5*1000 + 3)
	first, _ := encodeSpoolChunk(rows[:1000])                      // about the size of a chunk
	for _, after := range []int64{-1, int64(5 * len(first) / 2)} { // at the first chunk; after two chunks in memory
		for _, ok := range []int{0, 1, 2, 4, math.MaxInt} {
			t.Run(fmt.Sprint(after, ok), func(t *testing.T) {
				f := &fakeFile{okWrites: ok}
				sp := NewWith(order, Config{ChunkRows: 1000, FileAfter: after, File: f.open})
				sp.Add(rows...)
				sp.Compact()
				var onFile int
				for _, c := range sp.store.chunks {
					if c.onFile {
						onFile++
					}
				}
				if want := min(ok, len(sp.store.chunks)); onFile != want {
					t.Errorf("%d chunks on file, want %d", onFile, want)
				}
				checkSpool(t, sp, rows, order)
			})
		}
	}
}

// TestSpoolFileReadFails: a chunk on file that cannot be read back ends
// the iteration and is the spool's error, which a writer of its rows
// returns (tables.WriteSpool): rows never go missing silently.
func TestSpoolFileReadFails(t *testing.T) {
	f := &fakeFile{okWrites: math.MaxInt}
	rows, order := fileRows(2*1000 + 3)
	sp := NewWith(order, Config{ChunkRows: 1000, FileAfter: -1, File: f.open})
	sp.Add(rows...)
	f.badRead = true
	if got := len(sp.Collect()); got >= len(rows) || sp.Err() == nil || !strings.Contains(sp.Err().Error(), "input/output error") {
		t.Fatalf("an unreadable file gave %d of %d rows and Err %v", got, len(rows), sp.Err())
	}
}

// TestSpoolConcurrentAll: once adding is over, iterations from several
// goroutines at once (the first of them sorting and compacting the rows
// not yet encoded) each give every row in order; run with -race.
func TestSpoolConcurrentAll(t *testing.T) {
	for _, after := range []int64{math.MaxInt64, -1} {
		for _, n := range []int{900, 3*1000 + 7} {
			t.Run(fmt.Sprint(after, n), func(t *testing.T) {
				rows, order := fileRows(n)
				want := slices.Clone(rows)
				slices.SortStableFunc(want, order)
				sp := NewWith(order, Config{ChunkRows: 1000, FileAfter: after})
				sp.Add(rows...)
				var wg sync.WaitGroup
				errs := make([]string, 6)
				for g := range errs {
					wg.Go(func() {
						i := 0
						for r := range sp.All() {
							if i >= len(want) || !reflect.DeepEqual(r, want[i]) {
								errs[g] = fmt.Sprintf("goroutine %d: row %d differs", g, i)
								return
							}
							if i++; g%2 == 1 && i == n/2 {
								break // leaving early does not disturb the others
							}
						}
						if g%2 == 0 && i != len(want) {
							errs[g] = fmt.Sprintf("goroutine %d: %d rows, want %d", g, i, len(want))
						}
					})
				}
				wg.Wait()
				for _, e := range errs {
					if e != "" {
						t.Error(e)
					}
				}
				if sp.Err() != nil {
					t.Error(sp.Err())
				}
			})
		}
	}
}
