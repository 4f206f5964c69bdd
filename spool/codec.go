package spool

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/s2"
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
//
// A struct's codec is a flat list of operations (see op): the fields of
// nested structs are its own, at their offsets from the outer value, and
// the common kinds (scalars, strings, pointers to them, lists of strings)
// are read and written in one loop rather than through a function per
// field. The bytes are the same as a function per field would write.
type rowCodec struct {
	enc func(e *blockEncoder, p unsafe.Pointer)
	dec func(d *blockDecoder, p unsafe.Pointer)
	// arenaWords is the size, in 8-byte words, of the arena a row's
	// pointers to scalars point into (see arena): set on a row type's
	// codec only.
	arenaWords int
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
	a := &arena{}
	c, err := buildCodec(t, map[reflect.Type]bool{}, a)
	if err != nil {
		rowCodecs.Store(t, err)
		return nil, err
	}
	if a.words > 0 {
		row := *c
		row.arenaWords = a.words
		c = &row
	}
	rowCodecs.Store(t, c)
	return c, nil
}

// CheckType is nil when a spool can hold rows of type t, else the error
// every spool of it would report (see [Spool.Err]).
func CheckType(t reflect.Type) error {
	_, err := buildCodec(t, map[reflect.Type]bool{}, nil)
	return err
}

// arena lays out the values a row's pointers to scalars (a nullable
// number, flag or amount: *int64, *float64, *bool, *Money) point to when
// the row is decoded: one word each, in one allocation per decoded row
// that has any of them, instead of one allocation per pointer. Only the
// pointers at fixed offsets of the row (its fields and those of its
// nested structs) take a slot; a pointer in a list element or behind
// another pointer is allocated on its own. A consumer that keeps such a
// pointer keeps the row's arena (a word per slot): memory of the row's
// own size, never of other rows.
type arena struct{ words int }

// slot takes the next word of the arena and returns its byte offset.
func (a *arena) slot() uintptr {
	a.words++
	return uintptr(a.words-1) * 8
}

// opKind is what one operation of a struct's codec reads or writes.
type opKind uint8

const (
	opBool opKind = iota
	opInt8
	opInt16
	opInt32
	opInt64
	opUint8
	opUint16
	opUint32
	opUint64
	opFloat32
	opFloat64
	opString
	opPtrString // *string: decoded values of one block share one pointer per distinct string
	opPtrScalar // a pointer to a scalar kind (scalar): in the row's arena, or allocated alone
	opPtr       // any other pointer: allocated, its value through elem
	opStrings   // a slice of a string kind
	opSlice     // any other slice: its elements through elem
	opCodec     // anything else (time.Time, arrays): through elem
)

// op is one operation of a struct's codec: the value of kind at offset off
// of the struct.
type op struct {
	kind   opKind
	scalar opKind // opPtrScalar: the kind pointed to
	inRow  bool   // opPtrScalar: the value is in the row's arena, at slot
	off    uintptr
	slot   uintptr
	size   uintptr      // opSlice: the element's size
	typ    reflect.Type // opPtr: the type pointed to; opSlice: the slice type
	elem   *rowCodec    // opPtr, opSlice: the element's codec; opCodec: the value's
}

// scalarKind is the op of a scalar of kind k and size, false for other
// kinds.
func scalarKind(t reflect.Type) (opKind, bool) {
	switch t.Kind() {
	case reflect.Bool:
		return opBool, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return [...]opKind{1: opInt8, 2: opInt16, 4: opInt32, 8: opInt64}[t.Size()], true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return [...]opKind{1: opUint8, 2: opUint16, 4: opUint32, 8: opUint64}[t.Size()], true
	case reflect.Float32:
		return opFloat32, true
	case reflect.Float64:
		return opFloat64, true
	}
	return 0, false
}

// buildCodec builds the codec of a value of type t stored at an address;
// open holds the types being built around it, so that a recursive type is
// refused rather than built forever. a is the arena of the row t is at a
// fixed offset of, nil when there is none (see arena).
func buildCodec(t reflect.Type, open map[reflect.Type]bool, a *arena) (*rowCodec, error) {
	if open[t] {
		return nil, fmt.Errorf("%w: %s is recursive", errSpoolType, t)
	}
	if t == timeType { // its instant and location, not its fields (time.go)
		return timeCodec, nil
	}
	if k, ok := scalarKind(t); ok {
		return &rowCodec{
			enc: func(e *blockEncoder, p unsafe.Pointer) { e.scalar(k, p) },
			dec: func(d *blockDecoder, p unsafe.Pointer) { d.scalar(k, p) },
		}, nil
	}
	if t.Kind() != reflect.Struct { // a struct is marked open by appendOps
		open[t] = true
		defer delete(open, t)
	}
	switch t.Kind() {
	case reflect.String:
		return &rowCodec{
			enc: func(e *blockEncoder, p unsafe.Pointer) { e.string(*(*string)(p)) },
			dec: func(d *blockDecoder, p unsafe.Pointer) { *(*string)(p) = d.string() },
		}, nil
	case reflect.Pointer, reflect.Slice, reflect.Struct:
		ops, err := appendOps(nil, t, 0, open, a)
		if err != nil {
			return nil, err
		}
		return opsCodec(ops), nil
	case reflect.Array:
		return arrayCodec(t, open, a)
	}
	return nil, fmt.Errorf("%w: %s", errSpoolType, t)
}

// appendOps appends the operations of a value of type t at offset off.
func appendOps(ops []op, t reflect.Type, off uintptr, open map[reflect.Type]bool, a *arena) ([]op, error) {
	if t == timeType {
		return append(ops, op{kind: opCodec, off: off, elem: timeCodec}), nil
	}
	if k, ok := scalarKind(t); ok {
		return append(ops, op{kind: k, off: off}), nil
	}
	switch t.Kind() {
	case reflect.String:
		return append(ops, op{kind: opString, off: off}), nil
	case reflect.Struct:
		if open[t] {
			return nil, fmt.Errorf("%w: %s is recursive", errSpoolType, t)
		}
		open[t] = true
		defer delete(open, t)
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() { // its pointers are not values to copy (time.Time is copied by meaning)
				return nil, fmt.Errorf("%w: %s has the unexported field %s", errSpoolType, t, f.Name)
			}
			var err error
			if ops, err = appendOps(ops, f.Type, off+f.Offset, open, a); err != nil {
				return nil, err
			}
		}
		return ops, nil
	case reflect.Pointer:
		et := t.Elem()
		if et.Kind() == reflect.String {
			return append(ops, op{kind: opPtrString, off: off}), nil
		}
		if k, ok := scalarKind(et); ok {
			o := op{kind: opPtrScalar, scalar: k, off: off}
			if a != nil {
				o.inRow, o.slot = true, a.slot()
			}
			return append(ops, o), nil
		}
		elem, err := buildCodec(et, open, nil)
		if err != nil {
			return nil, err
		}
		return append(ops, op{kind: opPtr, off: off, typ: et, elem: elem}), nil
	case reflect.Slice:
		et := t.Elem()
		elem, err := buildCodec(et, open, nil)
		if err != nil {
			return nil, err
		}
		if et.Kind() == reflect.String {
			return append(ops, op{kind: opStrings, off: off}), nil
		}
		return append(ops, op{kind: opSlice, off: off, typ: t, size: et.Size(), elem: elem}), nil
	}
	c, err := buildCodec(t, open, a)
	if err != nil {
		return nil, err
	}
	return append(ops, op{kind: opCodec, off: off, elem: c}), nil
}

// opsCodec is the codec that runs ops in order.
func opsCodec(ops []op) *rowCodec {
	return &rowCodec{
		enc: func(e *blockEncoder, p unsafe.Pointer) { e.ops(ops, p) },
		dec: func(d *blockDecoder, p unsafe.Pointer) { d.ops(ops, p) },
	}
}

// sliceHeader is the layout of every Go slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

func (e *blockEncoder) ops(ops []op, base unsafe.Pointer) {
	for i := range ops {
		o := &ops[i]
		p := unsafe.Add(base, o.off)
		switch o.kind {
		case opString:
			e.string(*(*string)(p))
		case opPtrString:
			if v := *(**string)(p); v == nil {
				e.uvarint(0)
			} else {
				e.uvarint(1)
				e.string(*v)
			}
		case opPtrScalar:
			if v := *(*unsafe.Pointer)(p); v == nil {
				e.uvarint(0)
			} else {
				e.uvarint(1)
				e.scalar(o.scalar, v)
			}
		case opPtr:
			if v := *(*unsafe.Pointer)(p); v == nil {
				e.uvarint(0)
			} else {
				e.uvarint(1)
				o.elem.enc(e, v)
			}
		case opStrings:
			h := (*sliceHeader)(p)
			if h.data == nil {
				e.uvarint(0)
				continue
			}
			e.uvarint(uint64(h.len) + 1)
			for _, s := range *(*[]string)(p) {
				e.string(s)
			}
		case opSlice:
			h := (*sliceHeader)(p)
			if h.data == nil {
				e.uvarint(0)
				continue
			}
			e.uvarint(uint64(h.len) + 1)
			for i := range h.len {
				o.elem.enc(e, unsafe.Add(h.data, uintptr(i)*o.size))
			}
		case opCodec:
			o.elem.enc(e, p)
		default:
			e.scalar(o.kind, p)
		}
	}
}

func (d *blockDecoder) ops(ops []op, base unsafe.Pointer) {
	for i := range ops {
		o := &ops[i]
		p := unsafe.Add(base, o.off)
		switch o.kind {
		case opString:
			*(*string)(p) = d.string()
		case opPtrString:
			if d.uvarint() == 0 {
				*(**string)(p) = nil
			} else {
				*(**string)(p) = d.stringPointer()
			}
		case opPtrScalar:
			if d.uvarint() == 0 {
				*(*unsafe.Pointer)(p) = nil
				continue
			}
			var v unsafe.Pointer
			if o.inRow {
				v = d.slot(o.slot)
			} else {
				v = unsafe.Pointer(new(uint64)) // a word holds every scalar kind
			}
			d.scalar(o.scalar, v)
			*(*unsafe.Pointer)(p) = v
		case opPtr:
			if d.uvarint() == 0 {
				*(*unsafe.Pointer)(p) = nil
				continue
			}
			v := reflect.New(o.typ).UnsafePointer()
			o.elem.dec(d, v)
			*(*unsafe.Pointer)(p) = v
		case opStrings:
			k := d.uvarint()
			if k == 0 {
				*(*[]string)(p) = nil
				continue
			}
			s := make([]string, d.length(k-1))
			for i := range s {
				s[i] = d.string()
			}
			*(*[]string)(p) = s
		case opSlice:
			k := d.uvarint()
			if k == 0 {
				*(*sliceHeader)(p) = sliceHeader{}
				continue
			}
			n := d.count(k-1, o.size)
			base := reflect.MakeSlice(o.typ, n, n).UnsafePointer()
			for i := range n {
				o.elem.dec(d, unsafe.Add(base, uintptr(i)*o.size))
			}
			*(*sliceHeader)(p) = sliceHeader{base, n, n}
		case opCodec:
			o.elem.dec(d, p)
		default:
			d.scalar(o.kind, p)
		}
	}
}

// scalar writes the scalar of kind k at p.
func (e *blockEncoder) scalar(k opKind, p unsafe.Pointer) {
	switch k {
	case opBool:
		e.bool(*(*bool)(p))
	case opInt8:
		e.varint(int64(*(*int8)(p)))
	case opInt16:
		e.varint(int64(*(*int16)(p)))
	case opInt32:
		e.varint(int64(*(*int32)(p)))
	case opInt64:
		e.varint(*(*int64)(p))
	case opUint8:
		e.uvarint(uint64(*(*uint8)(p)))
	case opUint16:
		e.uvarint(uint64(*(*uint16)(p)))
	case opUint32:
		e.uvarint(uint64(*(*uint32)(p)))
	case opUint64:
		e.uvarint(*(*uint64)(p))
	case opFloat32:
		e.uvarint(uint64(math.Float32bits(*(*float32)(p))))
	case opFloat64:
		e.uvarint(math.Float64bits(*(*float64)(p)))
	}
}

// scalar reads a scalar of kind k into p.
func (d *blockDecoder) scalar(k opKind, p unsafe.Pointer) {
	switch k {
	case opBool:
		*(*bool)(p) = d.uvarint() != 0
	case opInt8:
		*(*int8)(p) = int8(d.varint())
	case opInt16:
		*(*int16)(p) = int16(d.varint())
	case opInt32:
		*(*int32)(p) = int32(d.varint())
	case opInt64:
		*(*int64)(p) = d.varint()
	case opUint8:
		*(*uint8)(p) = uint8(d.uvarint())
	case opUint16:
		*(*uint16)(p) = uint16(d.uvarint())
	case opUint32:
		*(*uint32)(p) = uint32(d.uvarint())
	case opUint64:
		*(*uint64)(p) = d.uvarint()
	case opFloat32:
		*(*float32)(p) = math.Float32frombits(uint32(d.uvarint()))
	case opFloat64:
		*(*float64)(p) = math.Float64frombits(d.uvarint())
	}
}

func arrayCodec(t reflect.Type, open map[reflect.Type]bool, a *arena) (*rowCodec, error) {
	n, size := t.Len(), t.Elem().Size()
	var ops []op
	for i := range n {
		var err error
		if ops, err = appendOps(ops, t.Elem(), uintptr(i)*size, open, a); err != nil {
			return nil, err
		}
	}
	if n == 0 { // still refuse an element kind the codec cannot copy
		if _, err := buildCodec(t.Elem(), open, nil); err != nil {
			return nil, err
		}
	}
	return opsCodec(ops), nil
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
}

func (e *blockEncoder) bool(b bool) {
	if b {
		e.rows = append(e.rows, 1)
	} else {
		e.rows = append(e.rows, 0)
	}
}

func (e *blockEncoder) uvarint(u uint64) {
	if u < 0x80 {
		e.rows = append(e.rows, byte(u))
		return
	}
	e.rows = binary.AppendUvarint(e.rows, u)
}

func (e *blockEncoder) varint(i int64) {
	if -0x40 <= i && i < 0x40 { // one byte: zig-zag, as binary.AppendVarint writes it
		e.rows = append(e.rows, byte(uint64(i<<1)^uint64(i>>63)))
		return
	}
	e.rows = binary.AppendVarint(e.rows, i)
}

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
		// Snappy's block format at its standard speed: snappy.Encode is
		// s2's "better" matching, whose two hash tables (576 KiB) are
		// cleared for every block; a spool is read back by its own run
		// only, so a few more bytes of scratch cost less than that
		e.packed = s2.EncodeSnappy(e.packed, e.head)
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
	// pointers are the block's strings as *string, made when first
	// decoded: equal nullable strings of a block share one pointer.
	pointers []*string
	// arena is the decoded row's arena, allocated at its first slot
	// (see arena); arenaWords is its size.
	arena      unsafe.Pointer
	arenaWords int
	err        error
	codec      snappy.Codec
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
	clear(d.pointers)
	d.pointers = slices.Grow(d.pointers[:0], len(d.strings))[:len(d.strings)]
	d.arenaWords = c.arenaWords
	rows = rows[:nrows]
	for i := range rows {
		d.arena = nil // a row's own
		c.dec(d, unsafe.Pointer(&rows[i]))
	}
	d.arena = nil
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
	if d.at < len(d.block) && d.block[d.at] < 0x80 { // one byte: most are
		d.at++
		return uint64(d.block[d.at-1])
	}
	u, n := binary.Uvarint(d.block[min(d.at, len(d.block)):])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.at += n
	return u
}

func (d *blockDecoder) varint() int64 {
	if d.at < len(d.block) && d.block[d.at] < 0x80 {
		x := uint64(d.block[d.at])
		d.at++
		return int64(x>>1) ^ -int64(x&1) // zig-zag, as binary.Varint reads it
	}
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

// stringPointer reads a string of the block as a pointer shared by the
// block's equal values.
func (d *blockDecoder) stringPointer() *string {
	i := d.uvarint()
	if i >= uint64(len(d.pointers)) {
		d.fail()
		return new(string)
	}
	if d.pointers[i] == nil {
		s := d.strings[i]
		d.pointers[i] = &s
	}
	return d.pointers[i]
}

// slot is the value at byte offset off of the decoded row's arena.
func (d *blockDecoder) slot(off uintptr) unsafe.Pointer {
	if d.arena == nil {
		d.arena = unsafe.Pointer(unsafe.SliceData(make([]uint64, d.arenaWords)))
	}
	return unsafe.Add(d.arena, off)
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
