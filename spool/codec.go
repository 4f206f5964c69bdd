package spool

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sync"
	"unsafe"

	"github.com/parquet-go/parquet-go/compress/snappy"
)

// A spool chunk is a sequence of blocks of at most spoolBlockRows rows.
// Each block is Snappy-compressed on its own and preceded by its
// compressed length (uvarint), so the merge holds one decompressed block
// per chunk. A decompressed block is
//
//	uvarint rows, uvarint strings, each string as uvarint length + bytes,
//	then the rows, field by field in declaration order:
//	  bool         one byte, 0 or 1
//	  int kinds    zig-zag varint;  uint kinds  uvarint
//	  float kinds  their IEEE 754 bits, uvarint
//	  string kinds uvarint index into the block's strings
//	  time.Time    its instant and location (see time.go)
//	  pointer      0 for nil, else 1 and the value
//	  slice        0 for nil, else 1 + length and the elements
//	  array        the elements;   struct  its fields
//
// Within a block every distinct string is stored once and decoded once, so
// the repeated values of a table (sessions, codes, enumerations) cost one
// allocation per block. Rows come back exactly as added: a nil slice or
// pointer stays nil, an empty slice stays empty, a float keeps its bits.
// The format lives only in memory for one run; it is not an output.

// spoolBlockRows is how many rows one block of a chunk holds: the merge
// decodes a chunk one block at a time.
const spoolBlockRows = 256

// errSpoolType reports a row type holding a kind the spool cannot copy
// exactly; a programming error in a row type.
var errSpoolType = errors.New("spool: a spool cannot hold this row type")

// errSpoolCodec reports a spool chunk that does not decode: a programming
// error (chunks are written by the spool itself), returned, never panicked.
var errSpoolCodec = errors.New("spool: corrupt spool chunk")

// rowCodec encodes and decodes one row type at a time through its fields'
// addresses. It is built once per type from reflection (see codecOf) and
// reads and writes each field at its offset; a type holding a kind the
// codec cannot copy exactly (map, interface, channel, function, unsafe
// pointer) has no codec.
type rowCodec struct {
	enc func(e *blockEncoder, p unsafe.Pointer)
	dec func(d *blockDecoder, p unsafe.Pointer)
}

var rowCodecs sync.Map // reflect.Type → *rowCodec or error

// codecOf returns the codec of T.
func codecOf[T any]() (*rowCodec, error) {
	t := reflect.TypeFor[T]()
	if c, ok := rowCodecs.Load(t); ok {
		if err, bad := c.(error); bad {
			return nil, err
		}
		return c.(*rowCodec), nil
	}
	c, err := buildCodec(t, map[reflect.Type]bool{})
	if err != nil {
		rowCodecs.Store(t, err)
		return nil, err
	}
	rowCodecs.Store(t, c)
	return c, nil
}

// CheckType is nil when a spool can hold rows of type t, else the error
// every spool of it would report (see [Spool.Err]).
func CheckType(t reflect.Type) error {
	_, err := buildCodec(t, map[reflect.Type]bool{})
	return err
}

// buildCodec builds the codec of a value of type t stored at an address;
// open holds the types being built around it, so that a recursive type is
// refused rather than built forever.
func buildCodec(t reflect.Type, open map[reflect.Type]bool) (*rowCodec, error) {
	if open[t] {
		return nil, fmt.Errorf("%w: %s is recursive", errSpoolType, t)
	}
	open[t] = true
	defer delete(open, t)
	if t == timeType { // its instant and location, not its fields (time.go)
		return timeCodec, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return &rowCodec{
			enc: func(e *blockEncoder, p unsafe.Pointer) { e.bool(*(*bool)(p)) },
			dec: func(d *blockDecoder, p unsafe.Pointer) { *(*bool)(p) = d.uvarint() != 0 },
		}, nil
	case reflect.Int:
		return intCodec[int](), nil
	case reflect.Int8:
		return intCodec[int8](), nil
	case reflect.Int16:
		return intCodec[int16](), nil
	case reflect.Int32:
		return intCodec[int32](), nil
	case reflect.Int64:
		return intCodec[int64](), nil
	case reflect.Uint:
		return uintCodec[uint](), nil
	case reflect.Uint8:
		return uintCodec[uint8](), nil
	case reflect.Uint16:
		return uintCodec[uint16](), nil
	case reflect.Uint32:
		return uintCodec[uint32](), nil
	case reflect.Uint64:
		return uintCodec[uint64](), nil
	case reflect.Uintptr:
		return uintCodec[uintptr](), nil
	case reflect.Float32:
		return &rowCodec{
			enc: func(e *blockEncoder, p unsafe.Pointer) { e.uvarint(uint64(math.Float32bits(*(*float32)(p)))) },
			dec: func(d *blockDecoder, p unsafe.Pointer) { *(*float32)(p) = math.Float32frombits(uint32(d.uvarint())) },
		}, nil
	case reflect.Float64:
		return &rowCodec{
			enc: func(e *blockEncoder, p unsafe.Pointer) { e.uvarint(math.Float64bits(*(*float64)(p))) },
			dec: func(d *blockDecoder, p unsafe.Pointer) { *(*float64)(p) = math.Float64frombits(d.uvarint()) },
		}, nil
	case reflect.String:
		return &rowCodec{
			enc: func(e *blockEncoder, p unsafe.Pointer) { e.string(*(*string)(p)) },
			dec: func(d *blockDecoder, p unsafe.Pointer) { *(*string)(p) = d.string() },
		}, nil
	case reflect.Pointer:
		return pointerCodec(t, open)
	case reflect.Slice:
		return sliceCodec(t, open)
	case reflect.Array:
		return arrayCodec(t, open)
	case reflect.Struct:
		return structCodec(t, open)
	}
	return nil, fmt.Errorf("%w: %s", errSpoolType, t)
}

type signed interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

type unsigned interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

func intCodec[N signed]() *rowCodec {
	return &rowCodec{
		enc: func(e *blockEncoder, p unsafe.Pointer) { e.varint(int64(*(*N)(p))) },
		dec: func(d *blockDecoder, p unsafe.Pointer) { *(*N)(p) = N(d.varint()) },
	}
}

func uintCodec[N unsigned]() *rowCodec {
	return &rowCodec{
		enc: func(e *blockEncoder, p unsafe.Pointer) { e.uvarint(uint64(*(*N)(p))) },
		dec: func(d *blockDecoder, p unsafe.Pointer) { *(*N)(p) = N(d.uvarint()) },
	}
}

func pointerCodec(t reflect.Type, open map[reflect.Type]bool) (*rowCodec, error) {
	elem, err := buildCodec(t.Elem(), open)
	if err != nil {
		return nil, err
	}
	et := t.Elem()
	return &rowCodec{
		enc: func(e *blockEncoder, p unsafe.Pointer) {
			v := *(*unsafe.Pointer)(p)
			if v == nil {
				e.uvarint(0)
				return
			}
			e.uvarint(1)
			elem.enc(e, v)
		},
		dec: func(d *blockDecoder, p unsafe.Pointer) {
			if d.uvarint() == 0 {
				*(*unsafe.Pointer)(p) = nil
				return
			}
			v := reflect.New(et).UnsafePointer()
			elem.dec(d, v)
			*(*unsafe.Pointer)(p) = v
		},
	}, nil
}

func sliceCodec(t reflect.Type, open map[reflect.Type]bool) (*rowCodec, error) {
	elem, err := buildCodec(t.Elem(), open)
	if err != nil {
		return nil, err
	}
	size := t.Elem().Size()
	return &rowCodec{
		enc: func(e *blockEncoder, p unsafe.Pointer) {
			v := reflect.NewAt(t, p).Elem()
			if v.IsNil() {
				e.uvarint(0)
				return
			}
			n := v.Len()
			e.uvarint(uint64(n) + 1)
			base := v.UnsafePointer()
			for i := range n {
				elem.enc(e, unsafe.Add(base, uintptr(i)*size))
			}
		},
		dec: func(d *blockDecoder, p unsafe.Pointer) {
			v := reflect.NewAt(t, p).Elem()
			k := d.uvarint()
			if k == 0 {
				v.SetZero()
				return
			}
			n := d.count(k-1, size)
			s := reflect.MakeSlice(t, n, n)
			base := s.UnsafePointer()
			for i := range n {
				elem.dec(d, unsafe.Add(base, uintptr(i)*size))
			}
			v.Set(s)
		},
	}, nil
}

func arrayCodec(t reflect.Type, open map[reflect.Type]bool) (*rowCodec, error) {
	elem, err := buildCodec(t.Elem(), open)
	if err != nil {
		return nil, err
	}
	n, size := t.Len(), t.Elem().Size()
	return &rowCodec{
		enc: func(e *blockEncoder, p unsafe.Pointer) {
			for i := range n {
				elem.enc(e, unsafe.Add(p, uintptr(i)*size))
			}
		},
		dec: func(d *blockDecoder, p unsafe.Pointer) {
			for i := range n {
				elem.dec(d, unsafe.Add(p, uintptr(i)*size))
			}
		},
	}, nil
}

func structCodec(t reflect.Type, open map[reflect.Type]bool) (*rowCodec, error) {
	type field struct {
		offset uintptr
		codec  *rowCodec
	}
	fields := make([]field, t.NumField())
	for i := range fields {
		f := t.Field(i)
		if !f.IsExported() { // its pointers are not values to copy (time.Time is copied by meaning)
			return nil, fmt.Errorf("%w: %s has the unexported field %s", errSpoolType, t, f.Name)
		}
		c, err := buildCodec(f.Type, open)
		if err != nil {
			return nil, err
		}
		fields[i] = field{f.Offset, c}
	}
	return &rowCodec{
		enc: func(e *blockEncoder, p unsafe.Pointer) {
			for _, f := range fields {
				f.codec.enc(e, unsafe.Add(p, f.offset))
			}
		},
		dec: func(d *blockDecoder, p unsafe.Pointer) {
			for _, f := range fields {
				f.codec.dec(d, unsafe.Add(p, f.offset))
			}
		},
	}, nil
}

// blockEncoder encodes rows into a chunk, block by block. Its buffers are
// scratch, reused through encoders.
type blockEncoder struct {
	rows    []byte            // the current block's rows
	strings []byte            // the current block's strings, each with its length
	index   map[string]uint64 // the current block's strings → their index
	head    []byte            // scratch: a block's header and strings, then its rows
	packed  []byte            // scratch: the compressed block
	chunk   []byte            // scratch: the chunk
	codec   snappy.Codec
}

func (e *blockEncoder) bool(b bool) {
	if b {
		e.rows = append(e.rows, 1)
	} else {
		e.rows = append(e.rows, 0)
	}
}

func (e *blockEncoder) uvarint(u uint64) { e.rows = binary.AppendUvarint(e.rows, u) }
func (e *blockEncoder) varint(i int64)   { e.rows = binary.AppendVarint(e.rows, i) }

func (e *blockEncoder) string(s string) {
	i, ok := e.index[s]
	if !ok {
		i = uint64(len(e.index))
		e.index[s] = i
		e.strings = binary.AppendUvarint(e.strings, uint64(len(s)))
		e.strings = append(e.strings, s...)
	}
	e.uvarint(i)
}

var encoders = sync.Pool{New: func() any { return &blockEncoder{index: make(map[string]uint64)} }}

// encodeSpoolChunk encodes rows as one chunk.
func encodeSpoolChunk[T any](rows []T) ([]byte, error) {
	e := encoders.Get().(*blockEncoder)
	defer encoders.Put(e)
	chunk, err := encodeChunk(e, rows)
	return bytes.Clone(chunk), err
}

// encodeSpoolChunkInto encodes rows as one chunk and gives it to store,
// without a copy of its own.
func encodeSpoolChunkInto[T any](rows []T, store func([]byte)) error {
	e := encoders.Get().(*blockEncoder)
	defer encoders.Put(e)
	chunk, err := encodeChunk(e, rows)
	if err == nil {
		store(chunk)
	}
	return err
}

// encodeChunk encodes rows as one chunk in e's scratch.
func encodeChunk[T any](e *blockEncoder, rows []T) ([]byte, error) {
	c, err := codecOf[T]()
	if err != nil {
		return nil, err
	}
	chunk := e.chunk[:0]
	for start := 0; start < len(rows); start += spoolBlockRows {
		block := rows[start:min(start+spoolBlockRows, len(rows))]
		e.rows, e.strings = e.rows[:0], e.strings[:0]
		clear(e.index)
		for i := range block {
			c.enc(e, unsafe.Pointer(&block[i]))
		}
		e.head = binary.AppendUvarint(e.head[:0], uint64(len(block)))
		e.head = binary.AppendUvarint(e.head, uint64(len(e.index)))
		e.head = append(e.head, e.strings...)
		e.head = append(e.head, e.rows...)
		e.packed, _ = e.codec.Encode(e.packed[:0], e.head) // never fails
		chunk = binary.AppendUvarint(chunk, uint64(len(e.packed)))
		chunk = append(chunk, e.packed...)
	}
	e.chunk = chunk
	return chunk, nil
}

// blockDecoder reads one chunk's blocks in order; a decoding error sticks.
type blockDecoder struct {
	chunk   []byte      // the blocks not yet read (of a chunk on file: those read ahead)
	file    io.ReaderAt // a chunk on file (file.go), else nil
	pos     int64       // on file: where the bytes not yet read ahead start
	end     int64       // on file: where the chunk ends
	window  []byte      // on file: the read-ahead buffer d.chunk is in
	block   []byte      // the decompressed block being read
	at      int         // read position in block
	strings []string    // the block's strings
	err     error
	codec   snappy.Codec
	// lastZone is the fixed zone of the time decoded last (time.go).
	lastZone spoolZone
}

// decodeSpoolBlock decompresses d's next block into rows (reusing their
// storage, which holds spoolBlockRows rows) and returns them; nil when the
// chunk is exhausted or on error.
func decodeSpoolBlock[T any](d *blockDecoder, c *rowCodec, rows []T) []T {
	d.fill()
	if d.err != nil || len(d.chunk) == 0 {
		return nil
	}
	size, n := binary.Uvarint(d.chunk)
	if n <= 0 || size > uint64(len(d.chunk)-n) {
		d.err = errSpoolCodec
		return nil
	}
	packed := d.chunk[n : n+int(size)]
	d.chunk = d.chunk[n+int(size):]
	if !plausibleBlock(packed) {
		d.err = errSpoolCodec
		return nil
	}
	block, err := d.codec.Decode(d.block[:0], packed)
	if err != nil {
		d.err = fmt.Errorf("%w: %v", errSpoolCodec, err)
		return nil
	}
	d.block, d.at = block, 0
	nrows := d.uvarint()
	nstr := d.length(d.uvarint())
	d.strings = d.strings[:0]
	for range nstr {
		l := d.length(d.uvarint())
		if d.err != nil {
			return nil
		}
		d.strings = append(d.strings, string(d.block[d.at:d.at+l]))
		d.at += l
	}
	if d.err != nil || nrows == 0 || nrows > uint64(cap(rows)) {
		d.err = errSpoolCodec
		return nil
	}
	rows = rows[:nrows]
	for i := range rows {
		c.dec(d, unsafe.Pointer(&rows[i]))
	}
	if d.err != nil || d.at != len(d.block) {
		d.err = errSpoolCodec
		return nil
	}
	return rows
}

// plausibleBlock reports whether a compressed block's stated length is
// one its bytes could decode to, checked before the decoder allocates it:
// Snappy states the decoded length first (a uvarint the decoder allocates
// at once, up to 4 GiB), and its densest element, a copy of 64 bytes, takes
// 3 bytes, so a block the encoder wrote decodes to at most 64/3 bytes per
// byte after the length. A damaged chunk stating more is refused without
// allocating it.
func plausibleBlock(packed []byte) bool {
	stated, n := binary.Uvarint(packed)
	return n > 0 && stated <= uint64(len(packed)-n)*64/3
}

func (d *blockDecoder) uvarint() uint64 {
	u, n := binary.Uvarint(d.block[min(d.at, len(d.block)):])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.at += n
	return u
}

func (d *blockDecoder) varint() int64 {
	i, n := binary.Varint(d.block[min(d.at, len(d.block)):])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.at += n
	return i
}

func (d *blockDecoder) string() string {
	i := d.uvarint()
	if i >= uint64(len(d.strings)) {
		d.fail()
		return ""
	}
	return d.strings[i]
}

// count is k as a number of slice elements of the given size: a
// non-empty element takes at least one byte of the block, so a corrupt
// count cannot allocate much.
func (d *blockDecoder) count(k uint64, size uintptr) int {
	if size == 0 {
		if k > spoolBlockRows*ChunkRows {
			d.fail()
			return 0
		}
		return int(k)
	}
	return d.length(k)
}

// length is k as a number of bytes or strings still in the block: at most
// one per remaining byte.
func (d *blockDecoder) length(k uint64) int {
	if rest := len(d.block) - min(d.at, len(d.block)); k > uint64(rest) {
		d.fail()
		return 0
	}
	return int(k)
}

func (d *blockDecoder) fail() {
	if d.err == nil {
		d.err = errSpoolCodec
	}
	d.at = len(d.block)
}
