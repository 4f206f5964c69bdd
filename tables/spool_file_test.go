package tables

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
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
func fileRows(n int) ([]CitationRow, func(a, b CitationRow) int) {
	rows := make([]CitationRow, n)
	for i := range rows {
		k := (i * 7919) % 997
		rows[i] = CitationRow{SessionID: fmt.Sprintf("s%04d", k%131), Index: int64(k % 3), Path: fmt.Sprintf("p%07d", i), Supports: []string{"C1"}[:i%2]}
	}
	return rows, func(a, b CitationRow) int {
		return cmp.Or(cmp.Compare(a.SessionID, b.SessionID), cmp.Compare(a.Index, b.Index))
	}
}

func setFileAfter(t *testing.T, n int64) {
	old := SpoolFileAfter
	SpoolFileAfter = n
	t.Cleanup(func() { SpoolFileAfter = old })
}

// checkSpool holds sp's rows to the stable sort of rows.
func checkSpool(t *testing.T, sp *Spool[CitationRow], rows []CitationRow, order func(a, b CitationRow) int) {
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
	setFileAfter(t, 0)
	SetSpoolChunkRows(t, 1000)
	rows, order := fileRows(3*1000 + 5)
	sp := NewSpool(order)
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
	setFileAfter(t, 0)
	SetSpoolChunkRows(t, 1000)
	rows, order := fileRows(2*1000 + 1)
	sp := NewSpool(order)
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

func withFakeFile(t *testing.T, f *fakeFile) {
	old := openSpoolFile
	openSpoolFile = func() (spoolFile, error) { return f, nil }
	t.Cleanup(func() { openSpoolFile = old })
}

// TestSpoolFileWriteFails: a file that stops taking writes (at once, while
// the chunks in memory move to it, or later) leaves the chunks it did not
// take in memory, and the rows are the same.
func TestSpoolFileWriteFails(t *testing.T) {
	SetSpoolChunkRows(t, 1000)
	rows, order := fileRows(5*1000 + 3)
	first, _ := encodeSpoolChunk(rows[:1000])                     // about the size of a chunk
	for _, after := range []int64{0, int64(5 * len(first) / 2)} { // at the first chunk; after two chunks in memory
		for _, ok := range []int{0, 1, 2, 4, math.MaxInt} {
			t.Run(fmt.Sprint(after, ok), func(t *testing.T) {
				setFileAfter(t, after)
				f := &fakeFile{okWrites: ok}
				withFakeFile(t, f)
				sp := NewSpool(order)
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

// readableFile puts every chunk of the spools made in the test on a fake
// file of chunkRows-row chunks that reads back until its badRead is set.
func readableFile(t *testing.T, chunkRows int) *fakeFile {
	setFileAfter(t, 0)
	SetSpoolChunkRows(t, chunkRows)
	f := &fakeFile{okWrites: math.MaxInt}
	withFakeFile(t, f)
	return f
}

// count is how many values seq yields.
func count[T any](seq iter.Seq[T]) int {
	n := 0
	for range seq {
		n++
	}
	return n
}

// TestSpoolFileReadFails: a chunk on file that cannot be read back ends
// the iteration and is the spool's error, which WriteSpool returns: rows
// never go missing silently.
func TestSpoolFileReadFails(t *testing.T) {
	f := readableFile(t, 1000)
	rows, order := fileRows(2*1000 + 3)
	sp := NewSpool(order)
	sp.Add(rows...)
	f.badRead = true
	if got := len(sp.Collect()); got >= len(rows) || sp.Err() == nil || !strings.Contains(sp.Err().Error(), "input/output error") {
		t.Fatalf("an unreadable file gave %d of %d rows and Err %v", got, len(rows), sp.Err())
	}
	if err := WriteSpool(filepath.Join(t.TempDir(), "t.parquet"), sp, Metadata{}); err == nil {
		t.Errorf("WriteSpool of an unreadable spool succeeded")
	}
}

// TestSpoolConcurrentAll: once adding is over, iterations from several
// goroutines at once (the first of them sorting and compacting the rows
// not yet encoded) each give every row in order; run with -race.
func TestSpoolConcurrentAll(t *testing.T) {
	SetSpoolChunkRows(t, 1000)
	for _, after := range []int64{math.MaxInt64, 0} {
		for _, n := range []int{900, 3*1000 + 7} {
			t.Run(fmt.Sprint(after, n), func(t *testing.T) {
				setFileAfter(t, after)
				rows, order := fileRows(n)
				want := slices.Clone(rows)
				slices.SortStableFunc(want, order)
				sp := NewSpool(order)
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

// TestSetErrSpoolReadFails: a table set is in error as soon as one of its
// spools could not read a chunk back, so that the pipeline reports the
// failure instead of a verdict on the rows that were read.
func TestSetErrSpoolReadFails(t *testing.T) {
	f := readableFile(t, 1000)
	rows, order := fileRows(2*1000 + 3)
	set := &Set{Citations: NewSpool(order), Runs: SpoolOf(Run{TaskID: "T1"})}
	set.Citations.Add(rows...)
	if err := set.Err(); err != nil {
		t.Fatalf("a readable set has Err %v", err)
	}
	f.badRead = true
	n := count(set.Citations.All())
	if n >= len(rows) || set.Err() == nil || !strings.Contains(set.Err().Error(), "input/output error") {
		t.Fatalf("an unreadable spool gave %d of %d rows and the set's Err %v", n, len(rows), set.Err())
	}
}

// TestCampaignErrSurvivesDrop: a receipts spool that could not read a
// chunk back is the campaign's error, still after the pipeline dropped it.
func TestCampaignErrSurvivesDrop(t *testing.T) {
	f := readableFile(t, 10)
	c := &Campaign{Receipts: NewSpool[Line[Receipt]](nil), Adjudications: SpoolOf(Line[Adjudication]{Line: 1})}
	for i := range 25 {
		c.Receipts.Add(Line[Receipt]{Line: int64(i + 1), Record: Receipt{SessionID: fmt.Sprint("s", i)}})
	}
	if err := c.Err(); err != nil {
		t.Fatalf("a readable campaign has Err %v", err)
	}
	f.badRead = true
	n := count(c.Receipts.All())
	c.DropReceipts()
	c.DropAdjudications()
	if n >= 25 || c.Receipts != nil || c.Err() == nil || !strings.Contains(c.Err().Error(), "input/output error") {
		t.Fatalf("an unreadable receipts spool gave %d of 25 records; after the drops Err is %v", n, c.Err())
	}
}
