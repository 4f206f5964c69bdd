package spool

import (
	"cmp"
	"iter"
	"slices"
	"sync"
	"unsafe"
)

// ChunkRows is how many rows a [Spool] holds as Go values before it sorts
// them and encodes them into compressed bytes (see codec.go), unless its
// [Config] says otherwise.
const ChunkRows = 16384

// touchPages writes a zero byte at every 4,096th byte of room and at its
// last, memory slices.Grow has just allocated and zeroed: each page of it
// (4 KiB at the least) is mapped
// by a write, not first by a read (the collector's, or a write barrier's
// on clear) that maps it to the zero page and a write that copies it.
// The bytes stay zero, so no pointer in the room changes and no write
// barrier is needed; unlike clear, nothing is read and a page costs one
// store.
func touchPages[T any](room []T) {
	if len(room) == 0 {
		return
	}
	size := int(unsafe.Sizeof(room[0])) * len(room)
	if size == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(room))), size)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 0
	}
	b[len(b)-1] = 0 // the last page, which the stride may step past
}

// growTail is the tail's capacity, in rows, past which it grows by a
// quarter instead of doubling (Spool.Add).
const growTail = 4096

// Spool holds one output table's rows compactly while the pipeline runs,
// so that memory is bounded by the encoded output rather than by the
// campaign. Rows are added in any order; each full chunk of
// [ChunkRows] rows is sorted stably by the spool's order and encoded
// into Snappy-compressed blocks (a compact row format of the spool's own,
// cheaper to write and read back than Parquet, with each block's distinct
// strings stored and decoded once), kept in memory until they pass
// [FileAfter] bytes and in a temporary file from then on
// (file.go); [Spool.All] gives every row back in order by a k-way
// merge of the chunks and of the rows not yet encoded (a table smaller
// than one chunk is never encoded). An iteration holds one decoded block
// and one read-ahead buffer per chunk; a spool without an order reads its
// chunks one after the other, so it holds one chunk's.
//
// Invariants:
//   - All yields exactly the rows slices.SortStableFunc would give over
//     every row added so far, in the order added: ties come from the
//     earlier chunk first, and within a chunk the sort is stable. A spool
//     without an order yields the rows in the order added.
//   - A consumer may keep a row All yields but must not modify what it
//     points to (list items, nullable values): a row not yet encoded
//     shares them with the row added, the decoded rows of one block share
//     one *string per distinct string, and a decoded row's pointers to
//     scalars point into one allocation of that row's (codec.go, arena).
//   - Rows that were encoded come back equal to the rows added
//     (reflect.DeepEqual): a nil slice or pointer stays nil, an empty
//     slice stays empty, a float keeps its bits. Equal strings of one
//     block share their bytes. A time.Time keeps its instant, text and
//     zone; it loses its monotonic clock reading, and a location other
//     than UTC, Local or a fixed zone comes back as the fixed zone in
//     effect at its instant (see time.go).
//   - Once adding is over, All may run from several goroutines at once,
//     each iteration with its own readers and buffers: the first to start
//     compacts and sorts the rows not yet encoded under the spool's lock,
//     and from then on the chunks, the file (read with ReadAt only) and
//     the sorted rows are only read. Add and Compact must not run while
//     any iteration does.
//
// The zero value and a nil *Spool are empty spools that keep the order rows
// are added in. Add is not safe for concurrent use.
type Spool[T any] struct {
	order func(a, b T) int // nil: the order rows were added
	tail  []T              // rows not yet encoded
	store spoolStore       // encoded chunks, each in order
	n     int

	mu     sync.Mutex // guards compacting and sorting for All, and err
	sorted bool       // tail is sorted by order and no row was added since
	err    error      // the first error encoding or reading a chunk

	// A full chunk is sorted and encoded on a goroutine of its own while
	// Add fills the next one (encodeAhead): encoding is the same whoever
	// runs it, and one chunk at a time, in order, is. encoding is closed
	// when that chunk is stored (nil when none is being encoded), with
	// encodeErr its error and spare its storage, cleared, for the next
	// tail. Only Add and, under mu, compacting touch them.
	encoding  chan struct{}
	encodeErr error
	spare     []T
}

// New returns an empty spool whose rows come back ordered by order
// (stably); a nil order keeps the order rows are added in.
func New[T any](order func(a, b T) int) *Spool[T] {
	return &Spool[T]{order: order}
}

// NewWith is [New] with the spool tuned by c (see [Config]).
func NewWith[T any](order func(a, b T) int, c Config) *Spool[T] {
	return &Spool[T]{order: order, store: spoolStore{cfg: c}}
}

// Of returns a spool holding rows in their given order (for tests and
// tools that build a table set by hand).
func Of[T any](rows ...T) *Spool[T] {
	s := New[T](nil)
	s.Add(rows...)
	return s
}

// Add adds rows to the spool.
func (s *Spool[T]) Add(rows ...T) {
	for len(rows) > 0 {
		chunkRows := s.store.cfg.chunkRows()
		room := chunkRows - len(s.tail)
		take := min(room, len(rows))
		if len(s.tail)+take > cap(s.tail) {
			// The room a tail grows by is touched now (touchPages):
			// memory fresh from the system is mapped only when first
			// touched, and a collection that scans the tail (all of its
			// capacity) while it fills maps the untouched pages to the
			// shared zero page by reading them; each row written there
			// later then takes a second fault, and the copy of the page
			// a flush of every core's TLB (at 10,008 sessions, 1,300 of
			// a run's 3,200 such faults, about 2-3% of its CPU). So that
			// a spool stopping short of a chunk touches little room it
			// never uses, the tail doubles up to growTail rows and then
			// grows by a quarter, up to a chunk.
			grow := 2 * cap(s.tail)
			if cap(s.tail) >= growTail {
				grow = cap(s.tail) + cap(s.tail)/4
			}
			want := min(chunkRows, max(grow, len(s.tail)+take, 16))
			s.tail = slices.Grow(s.tail, want-len(s.tail))
			touchPages(s.tail[len(s.tail):cap(s.tail)])
		}
		s.tail = append(s.tail, rows[:take]...)
		s.n += take
		s.sorted = false
		rows = rows[take:]
		if len(s.tail) >= chunkRows {
			s.encodeAhead()
		}
	}
}

// encodeAhead hands the full tail to a goroutine that sorts and encodes
// it as the next chunk, once the chunk before it is stored, and starts a
// new tail in the storage that chunk's rows had: at most two chunks of
// rows are held as values, and the chunks are stored in the order added.
func (s *Spool[T]) encodeAhead() {
	if err := s.finishEncoding(); err != nil {
		s.fail(err)
	}
	full := s.tail
	s.tail, s.spare = s.spare, nil
	done := make(chan struct{})
	s.encoding = done
	go func() {
		defer close(done)
		s.encodeErr = s.encode(full)
		clear(full)
		s.spare = full[:0]
	}()
}

// finishEncoding waits for the chunk being encoded, if any, and returns its
// error.
func (s *Spool[T]) finishEncoding() error {
	if s.encoding == nil {
		return nil
	}
	<-s.encoding
	s.encoding = nil
	err := s.encodeErr
	s.encodeErr = nil
	return err
}

// Len is the number of rows added.
func (s *Spool[T]) Len() int {
	if s == nil {
		return 0
	}
	return s.n
}

// Err is the first error met encoding or decoding a chunk. It is nil unless
// T holds a kind the spool cannot copy (a map, an interface, an unexported
// field; see codec.go), which the registry tests rule out (see
// [CheckType]), or a chunk written to the spool's temporary file could not
// be read back (an I/O error; see [FileAfter]): an iteration then ends
// early. A writer of the rows returns it.
func (s *Spool[T]) Err() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failLocked(s.finishEncoding()) // a chunk still being encoded may fail
	return s.err
}

// fail keeps the first error.
func (s *Spool[T]) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failLocked(err)
}

func (s *Spool[T]) failLocked(err error) {
	if err != nil && s.err == nil {
		s.err = err
	}
}

// flush sorts the tail and encodes it as a chunk; an error is the spool's
// (the rows are lost, Err says so).
func (s *Spool[T]) flush() error {
	err := s.encode(s.tail)
	clear(s.tail)
	s.tail = s.tail[:0]
	return err
}

// encode sorts rows and stores them as the next chunk.
func (s *Spool[T]) encode(rows []T) error {
	if s.order != nil {
		sortStable(rows, s.order)
	}
	err := encodeSpoolChunkInto(rows, s.store.add)
	if err != nil {
		s.store.chunks = append(s.store.chunks, spoolChunk{}) // no rows
	}
	return err
}

// Compact encodes the rows not yet encoded as a last, shorter chunk and
// releases their storage (a chunk of Go values: ChunkRows rows), when
// the spool already holds encoded chunks; a table smaller than one chunk
// stays as values. A producer calls it after its last Add, and All does on
// every iteration, so a large table's tail does not stay as values for the
// rest of the run. The rows and their order are unchanged; rows added
// later start a new tail.
func (s *Spool[T]) Compact() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compactLocked()
}

func (s *Spool[T]) compactLocked() {
	s.failLocked(s.finishEncoding())
	s.spare = nil
	if len(s.store.chunks) == 0 {
		return
	}
	if len(s.tail) > 0 {
		s.failLocked(s.flush())
	}
	s.tail = nil
}

// prepare compacts the spool and sorts the rows not yet encoded, once per
// Add, and returns what an iteration reads: the chunks and those rows.
func (s *Spool[T]) prepare() ([]spoolChunk, []T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compactLocked()
	if s.order != nil && !s.sorted { // stable: sorting a sorted head plus later rows keeps the order added
		sortStable(s.tail, s.order)
	}
	s.sorted = true
	return s.store.chunks, s.tail
}

// All yields every row in order (see [Spool]).
func (s *Spool[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		if s == nil || s.n == 0 {
			return
		}
		chunks, tail := s.prepare()
		if len(chunks) == 0 {
			for _, r := range tail {
				if !yield(r) {
					return
				}
			}
			return
		}
		if s.order != nil {
			s.merge(chunks, tail, yield)
			return
		}
		for i := range chunks { // the order added: a chunk at a time, one chunk's buffers at a time
			if !s.merge(chunks[i:i+1], nil, yield) {
				return
			}
		}
		for _, r := range tail {
			if !yield(r) {
				return
			}
		}
	}
}

// merge yields the rows of chunks and tail in order; false when yield or
// a chunk that cannot be read ended it.
func (s *Spool[T]) merge(chunks []spoolChunk, tail []T, yield func(T) bool) bool {
	m := s.merger(chunks, tail)
	defer m.close()
	for {
		r, ok := m.next()
		if !ok {
			return !m.failed
		}
		if !yield(r) {
			return false
		}
	}
}

// Collect returns every row in order as a slice.
func (s *Spool[T]) Collect() []T {
	out := make([]T, 0, s.Len())
	for r := range s.All() {
		out = append(out, r)
	}
	return out
}

// chunkReader reads one chunk's rows a block at a time; the unencoded
// tail is a reader without a decoder, its rows all in buf.
type chunkReader[T any] struct {
	d     *blockDecoder // nil for the unencoded tail
	codec *rowCodec
	index int // the chunk's place: ties go to the lower
	buf   []T
	at    int
}

func (c *chunkReader[T]) head() *T { return &c.buf[c.at] }

// advance moves to the next row; false when the chunk is exhausted.
func (c *chunkReader[T]) advance(fail func(error)) bool {
	c.at++
	if c.at < len(c.buf) {
		return true
	}
	if c.d == nil {
		return false
	}
	c.buf, c.at = decodeSpoolBlock(c.d, c.codec, c.buf[:cap(c.buf)]), 0
	if c.d.err != nil {
		fail(c.d.err)
	}
	return len(c.buf) > 0
}

// merger is a k-way merge of the chunks and the sorted tail (a reader
// without a decoder): a binary heap keyed by (head row, chunk index).
type merger[T any] struct {
	s      *Spool[T]
	heap   []*chunkReader[T]
	failed bool
}

func (s *Spool[T]) merger(chunks []spoolChunk, tail []T) *merger[T] {
	m := &merger[T]{s: s}
	codec, err := codecOf[T]()
	if err != nil {
		m.fail(err)
		return m
	}
	for i, ch := range chunks {
		c := &chunkReader[T]{d: s.store.decoder(ch), codec: codec, index: i, buf: make([]T, 0, spoolBlockRows), at: -1}
		if c.advance(m.fail) {
			m.push(c)
		}
	}
	if len(tail) > 0 { // the rows not yet encoded, sorted: the last chunk
		m.push(&chunkReader[T]{index: len(chunks), buf: tail, at: 0})
	}
	return m
}

// fail keeps the first decoding error and ends the merge: rows past a
// chunk that cannot be read would come out of order or not at all.
func (m *merger[T]) fail(err error) {
	m.s.fail(err)
	m.failed = true
}

func (m *merger[T]) less(a, b *chunkReader[T]) bool {
	if m.s.order != nil {
		if c := m.s.order(*a.head(), *b.head()); c != 0 {
			return c < 0
		}
	}
	return a.index < b.index
}

func (m *merger[T]) push(c *chunkReader[T]) {
	m.heap = append(m.heap, c)
	i := len(m.heap) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !m.less(m.heap[i], m.heap[p]) {
			break
		}
		m.heap[i], m.heap[p] = m.heap[p], m.heap[i]
		i = p
	}
}

func (m *merger[T]) down(i int) {
	h := m.heap
	for {
		l, r, least := 2*i+1, 2*i+2, i
		if l < len(h) && m.less(h[l], h[least]) {
			least = l
		}
		if r < len(h) && m.less(h[r], h[least]) {
			least = r
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

// next pops the least row.
func (m *merger[T]) next() (T, bool) {
	var zero T
	if len(m.heap) == 0 || m.failed {
		return zero, false
	}
	top := m.heap[0]
	r := *top.head()
	if top.d != nil { // a decoded row: the merge's own copy
		*top.head() = zero
	}
	if top.advance(m.fail) {
		m.down(0)
	} else {
		last := len(m.heap) - 1
		m.heap[0] = m.heap[last]
		m.heap = m.heap[:last]
		if last > 0 {
			m.down(0)
		}
	}
	return r, true
}

func (m *merger[T]) close() { m.heap = nil }

// sortStable sorts rows as slices.SortStableFunc(rows, order) does, with
// the rows moved once: it orders their indices and then permutes the rows
// in place. A stable sort of the rows themselves moves large rows, and
// their pointers through the write barrier, O(n log² n) times.
//
// Rows are often added in runs already in order (a session's citations,
// by index, one session after another): when there are few runs (at most
// a quarter as many as rows), the runs' indices are merged pair by pair
// (mergeRuns: about n·log₂(runs) comparisons instead of n·log₂(n)).
// Otherwise the indices are sorted, ties broken by index.
func sortStable[T any](rows []T, order func(a, b T) int) {
	bounds, few := ascendingRuns(rows, order)
	if few && len(bounds) <= 2 {
		return // in order already
	}
	idx := make([]int32, len(rows)) // a chunk has fewer than 2^31 rows
	for i := range idx {
		idx[i] = int32(i)
	}
	if few {
		idx = mergeRuns(rows, order, bounds, idx)
	} else {
		slices.SortFunc(idx, func(i, j int32) int {
			if c := order(rows[i], rows[j]); c != 0 {
				return c
			}
			return cmp.Compare(i, j)
		})
	}
	// position p takes the row at idx[p]: follow each cycle once
	for i := range idx {
		if int(idx[i]) == i {
			continue
		}
		first, j := rows[i], i
		for {
			k := int(idx[j])
			idx[j] = int32(j)
			if k == i {
				rows[j] = first
				break
			}
			rows[j] = rows[k]
			j = k
		}
	}
}

// ascendingRuns returns the bounds of the maximal runs of rows in order
// (run k is rows[bounds[k]:bounds[k+1]]; the last bound is len(rows)) and
// whether there are at most a quarter as many runs as rows (or no more
// than one); it stops counting, and reports false, past that.
func ascendingRuns[T any](rows []T, order func(a, b T) int) (bounds []int32, few bool) {
	most := max(len(rows)/4, 1)
	bounds = append(bounds, 0)
	for i := 1; i < len(rows); i++ {
		if order(rows[i-1], rows[i]) > 0 {
			if len(bounds) == most {
				return nil, false
			}
			bounds = append(bounds, int32(i))
		}
	}
	return append(bounds, int32(len(rows))), true
}

// mergeRuns merges the runs of idx (the identity, runs within bounds)
// pair by pair, stably, into the rows' order, and returns the merged
// indices (idx or a buffer of the same length). bounds is reused.
func mergeRuns[T any](rows []T, order func(a, b T) int, bounds, idx []int32) []int32 {
	src, dst := idx, make([]int32, len(idx))
	for len(bounds) > 2 {
		merged := bounds[:1] // written behind the bounds still to be read
		for k := 0; k+1 < len(bounds); k += 2 {
			lo, mid := bounds[k], bounds[k+1]
			if k+2 == len(bounds) { // the last run, alone
				copy(dst[lo:mid], src[lo:mid])
				merged = append(merged, mid)
				continue
			}
			hi := bounds[k+2]
			mergeTwo(rows, order, src[lo:mid], src[mid:hi], dst[lo:hi])
			merged = append(merged, hi)
		}
		bounds = merged
		src, dst = dst, src
	}
	return src
}

// mergeTwo merges a and b, each in order and every index of a before
// every index of b, into out, stably (a's first on ties).
func mergeTwo[T any](rows []T, order func(a, b T) int, a, b, out []int32) {
	if order(rows[a[len(a)-1]], rows[b[0]]) <= 0 { // a ends before b begins
		copy(out, a)
		copy(out[len(a):], b)
		return
	}
	i, j, n := 0, 0, 0
	for i < len(a) && j < len(b) {
		if order(rows[b[j]], rows[a[i]]) < 0 {
			out[n] = b[j]
			j++
		} else {
			out[n] = a[i]
			i++
		}
		n++
	}
	n += copy(out[n:], a[i:])
	copy(out[n:], b[j:])
}
