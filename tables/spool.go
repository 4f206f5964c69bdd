package tables

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"

	"github.com/parquet-go/parquet-go"
)

// SpoolChunkRows is how many rows a [Spool] holds as Go values before it
// sorts them and encodes them into compressed Parquet bytes.
const SpoolChunkRows = 16384

// spoolReadRows is how many rows of one chunk the merge decodes at a time.
const spoolReadRows = 256

// Spool holds one output table's rows compactly while the pipeline runs,
// so that memory is bounded by the encoded output rather than by the
// campaign. Rows are added in any order; each full chunk of
// [SpoolChunkRows] rows is sorted stably by the spool's order and encoded
// into Snappy-compressed Parquet bytes in memory; [Spool.All] gives every
// row back in order by a k-way merge of the chunks and of the rows not yet
// encoded (a table smaller than one chunk is never encoded).
//
// Invariants:
//   - All yields exactly the rows slices.SortStableFunc would give over
//     every row added so far, in the order added: ties come from the
//     earlier chunk first, and within a chunk the sort is stable. A spool
//     without an order yields the rows in the order added.
//   - A consumer may keep a row All yields but must not modify what it
//     points to (list items, nullable values): a row not yet encoded
//     shares them with the row added.
//   - Rows that were encoded come back as a Parquet reader returns them:
//     an empty list is a nil-or-empty slice as written, a nil pointer
//     stays nil.
//   - [WriteSpool] writes the same bytes as [WriteParquet] of the sorted
//     rows.
//
// The zero value and a nil *Spool are empty spools that keep the order rows
// are added in. A Spool is not safe for concurrent use.
type Spool[T any] struct {
	order  func(a, b T) int // nil: the order rows were added
	tail   []T              // rows not yet encoded
	chunks [][]byte         // encoded chunks, each in order
	n      int
	err    error // the first encoding error; a programming error in T's tags
}

// NewSpool returns an empty spool whose rows come back ordered by order
// (stably); a nil order keeps the order rows are added in.
func NewSpool[T any](order func(a, b T) int) *Spool[T] {
	return &Spool[T]{order: order}
}

// SpoolOf returns a spool holding rows in their given order (for tests and
// tools that build a table set by hand).
func SpoolOf[T any](rows ...T) *Spool[T] {
	s := NewSpool[T](nil)
	s.Add(rows...)
	return s
}

// Add adds rows to the spool.
func (s *Spool[T]) Add(rows ...T) {
	for len(rows) > 0 {
		room := SpoolChunkRows - len(s.tail)
		take := min(room, len(rows))
		s.tail = append(s.tail, rows[:take]...)
		s.n += take
		rows = rows[take:]
		if len(s.tail) == SpoolChunkRows {
			s.flush()
		}
	}
}

// Len is the number of rows added.
func (s *Spool[T]) Len() int {
	if s == nil {
		return 0
	}
	return s.n
}

// Err is the first error met encoding or decoding a chunk. It is nil unless
// T's Parquet tags are invalid, which the registry tests rule out;
// [WriteSpool] returns it.
func (s *Spool[T]) Err() error {
	if s == nil {
		return nil
	}
	return s.err
}

// flush sorts the tail and encodes it as a chunk.
func (s *Spool[T]) flush() {
	if s.order != nil {
		slices.SortStableFunc(s.tail, s.order)
	}
	var b bytes.Buffer
	if err := encodeChunk(&b, s.tail); err != nil && s.err == nil {
		s.err = err
	}
	s.chunks = append(s.chunks, bytes.Clone(b.Bytes())) // exact size: a chunk lives until the run ends
	clear(s.tail)
	s.tail = s.tail[:0]
}

// All yields every row in order (see [Spool]).
func (s *Spool[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		if s == nil || s.n == 0 {
			return
		}
		if s.order != nil { // stable: sorting a sorted head plus later rows keeps the order added
			slices.SortStableFunc(s.tail, s.order)
		}
		if len(s.chunks) == 0 {
			for _, r := range s.tail {
				if !yield(r) {
					return
				}
			}
			return
		}
		m := s.merger()
		defer m.close()
		for {
			r, ok := m.next()
			if !ok || !yield(r) {
				return
			}
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

// encodeChunk writes rows as one spool chunk: Parquet, Snappy (cheap to
// encode and decode; chunks live only in memory).
func encodeChunk[T any](w io.Writer, rows []T) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrParquetSchema, r)
		}
	}()
	pw := parquet.NewGenericWriter[T](w, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(SpoolChunkRows))
	if _, err := pw.Write(rows); err != nil {
		return err
	}
	return pw.Close()
}

// chunkReader reads one chunk's rows in batches.
type chunkReader[T any] struct {
	r     *parquet.GenericReader[T] // nil for the unencoded tail
	index int                       // the chunk's place: ties go to the lower
	buf   []T
	at    int
	done  bool
}

func (c *chunkReader[T]) head() *T { return &c.buf[c.at] }

// advance moves to the next row; false when the chunk is exhausted.
func (c *chunkReader[T]) advance(fail func(error)) bool {
	c.at++
	if c.at < len(c.buf) {
		return true
	}
	if c.done || c.r == nil {
		return false
	}
	buf := c.buf[:cap(c.buf)]
	clear(buf) // the reader may reuse what a row holds; rows handed out keep theirs
	n, err := c.r.Read(buf)
	if err != nil && !errors.Is(err, io.EOF) {
		fail(err)
		n = 0
	}
	c.done = err != nil
	c.buf, c.at = buf[:n], 0
	return n > 0
}

// merger is a k-way merge of the chunks and the sorted tail (a reader
// without a Parquet reader): a binary heap keyed by (head row, chunk index).
type merger[T any] struct {
	s    *Spool[T]
	heap []*chunkReader[T]
}

func (s *Spool[T]) merger() *merger[T] {
	m := &merger[T]{s: s}
	for i, b := range s.chunks {
		c := &chunkReader[T]{r: parquet.NewGenericReader[T](bytes.NewReader(b)), index: i, buf: make([]T, 0, spoolReadRows), at: -1}
		if c.advance(m.fail) {
			m.push(c)
		} else {
			c.r.Close()
		}
	}
	if len(s.tail) > 0 { // the rows not yet encoded, sorted: the last chunk
		m.push(&chunkReader[T]{index: len(s.chunks), buf: s.tail, at: 0})
	}
	return m
}

// fail keeps the first decoding error.
func (m *merger[T]) fail(err error) {
	if m.s.err == nil {
		m.s.err = err
	}
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
	if len(m.heap) == 0 {
		return zero, false
	}
	top := m.heap[0]
	r := *top.head()
	if top.r != nil { // a decoded row: the merge's own copy
		*top.head() = zero
	}
	if top.advance(m.fail) {
		m.down(0)
	} else {
		if top.r != nil {
			top.r.Close()
		}
		last := len(m.heap) - 1
		m.heap[0] = m.heap[last]
		m.heap = m.heap[:last]
		if last > 0 {
			m.down(0)
		}
	}
	return r, true
}

func (m *merger[T]) close() {
	for _, c := range m.heap {
		if c.r != nil {
			c.r.Close()
		}
	}
	m.heap = nil
}

// WriteSpool writes the rows of s, in order, to path exactly as
// [WriteParquet] writes the sorted slice of them: the same bytes.
func WriteSpool[T any](path string, s *Spool[T], meta Metadata) error {
	return WriteAtomic(path, 0o644, func(w io.Writer) error {
		if err := encodeParquetSeq(w, s.All(), meta); err != nil {
			return err
		}
		return s.Err()
	})
}
