package spool

import (
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// codecRow holds every kind the spool codec copies, at both ends of each
// range, nil and non-nil.
type codecRow struct {
	B      bool
	I      int
	I8     int8
	I16    int16
	I32    int32
	I64    int64
	U      uint
	U8     uint8
	U16    uint16
	U32    uint32
	U64    uint64
	F32    float32
	F64    float64
	S      string
	Shape  shape
	M      *money
	P      *int64
	PS     *string
	L      []string
	LP     []*float64
	A      [2]int32
	Nested struct {
		X []int64
		Y *codecLeaf
	}
	Empty struct{}
	Zeros []struct{}
}

type codecLeaf struct{ Z string }

// shape and money are a string kind and an integer kind of their own, as
// the row types' enumerations and exact amounts are.
type (
	shape string
	money int64
)

func codecRows() []codecRow {
	m, p, ps, f := money(math.MaxInt64), int64(math.MinInt64), "x", math.Copysign(0, -1)
	rows := make([]codecRow, 3*spoolBlockRows+7) // several blocks and a short last one
	for i := range rows {
		r := &rows[i]
		switch i % 3 {
		case 0: // zero values and nils
		case 1:
			r.B, r.I, r.I8, r.I16, r.I32, r.I64 = true, math.MinInt, math.MinInt8, math.MinInt16, math.MinInt32, math.MinInt64
			r.U, r.U8, r.U16, r.U32, r.U64 = math.MaxUint, math.MaxUint8, math.MaxUint16, math.MaxUint32, math.MaxUint64
			r.F32, r.F64 = float32(math.Inf(-1)), f
			r.S, r.Shape, r.M, r.P, r.PS = "ünïcode\x00", shape("openai_chat"), &m, &p, &ps
			r.L, r.LP = []string{}, []*float64{nil, &f}
			r.A = [2]int32{math.MaxInt32, -1}
			r.Nested.X, r.Nested.Y = []int64{}, &codecLeaf{}
			r.Zeros = []struct{}{}
		case 2:
			r.I, r.F64 = i, math.NaN()
			r.S = string(rune('a' + i%26)) // repeats within a block
			r.L = []string{r.S, "", r.S}
			r.Nested.X, r.Nested.Y = []int64{int64(i), -int64(i)}, &codecLeaf{Z: r.S}
			r.Zeros = make([]struct{}, i)
		}
	}
	return rows
}

// TestSpoolCodecRoundTrip: rows come back from a chunk exactly as added
// (NaN compared by bits), nil and empty kept apart, across blocks.
func TestSpoolCodecRoundTrip(t *testing.T) {
	rows := codecRows()
	chunk, err := encodeSpoolChunk(rows)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := codecOf[codecRow]()
	d := &blockDecoder{chunk: chunk}
	buf := make([]codecRow, spoolBlockRows)
	var got []codecRow
	for {
		block := decodeSpoolBlock(d, c, buf)
		if block == nil {
			break
		}
		got = append(got, block...)
	}
	if d.err != nil {
		t.Fatal(d.err)
	}
	if len(got) != len(rows) {
		t.Fatalf("%d rows back, want %d", len(got), len(rows))
	}
	for i := range rows {
		want := rows[i]
		if math.IsNaN(want.F64) {
			if !math.IsNaN(got[i].F64) {
				t.Fatalf("row %d: F64 %v, want NaN", i, got[i].F64)
			}
			want.F64, got[i].F64 = 0, 0
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want)
		}
		if math.Float64bits(got[i].F64) != math.Float64bits(want.F64) {
			t.Fatalf("row %d: F64 bits %x, want %x", i, math.Float64bits(got[i].F64), math.Float64bits(want.F64))
		}
		if (got[i].L == nil) != (want.L == nil) || (got[i].Nested.X == nil) != (want.Nested.X == nil) || (got[i].Zeros == nil) != (want.Zeros == nil) {
			t.Fatalf("row %d: a nil slice and an empty one were not kept apart", i)
		}
	}
}

type recursiveRow struct{ Next *recursiveRow }

// myTime has time.Time's fields but is not time.Time: copied field by
// field it would share its location by address.
type myTime time.Time

// TestSpoolCodecRefuses: kinds the codec cannot copy exactly are an error
// of the spool, not a panic or a wrong copy.
func TestSpoolCodecRefuses(t *testing.T) {
	check := func(name string, err error) {
		t.Helper()
		if !errors.Is(err, errSpoolType) {
			t.Errorf("%s: err = %v, want errSpoolType", name, err)
		}
	}
	_, err := codecOf[struct{ M map[string]int }]()
	check("map", err)
	_, err = codecOf[struct{ A any }]()
	check("interface", err)
	_, err = codecOf[struct{ T struct{ x *int } }]()
	check("unexported fields", err)
	_, err = codecOf[struct{ T myTime }]()
	check("a type of time.Time's fields but not time.Time's meaning", err)
	_, err = codecOf[struct{ L *time.Location }]()
	check("a location by address", err)
	_, err = codecOf[recursiveRow]()
	check("recursive", err)

	sp := New[struct{ M map[string]int }](nil)
	sp.Add(make([]struct{ M map[string]int }, ChunkRows)...)
	if !errors.Is(sp.Err(), errSpoolType) {
		t.Errorf("a spool of an unsupported type: Err = %v, want errSpoolType", sp.Err())
	}
}

// TestSpoolCodecCorrupt: a damaged chunk is an error, never a panic or an
// allocation sized by garbage.
func TestSpoolCodecCorrupt(t *testing.T) {
	chunk, err := encodeSpoolChunk(codecRows())
	if err != nil {
		t.Fatal(err)
	}
	c, _ := codecOf[codecRow]()
	buf := make([]codecRow, spoolBlockRows)
	for _, cut := range []int{1, 2, 10, len(chunk) / 2, len(chunk) - 1} {
		for _, flip := range []bool{false, true} {
			b := append([]byte(nil), chunk[:cut]...)
			if flip {
				b = append([]byte(nil), chunk...)
				b[cut] ^= 0xff
			}
			d := &blockDecoder{chunk: b}
			for decodeSpoolBlock(d, c, buf) != nil {
			}
			if !flip && d.err == nil {
				t.Errorf("a chunk cut at %d of %d bytes decoded without an error", cut, len(chunk))
			}
		}
	}
}

// citationRow has the shape of a citations table row (the fuzz target and
// file_test.go use it).
type citationRow struct {
	SessionID  string
	Index      int64
	EvidenceID string
	Path       string
	StartLine  int64
	EndLine    int64
	Supports   []string
	Valid      bool
	Code       string
}

// allocated is how many bytes of the heap f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// decodeBound is the most a chunk of n bytes may make the decoder of
// citationRow allocate, whatever its bytes: a block decodes to at most 64/3
// bytes per compressed byte (plausibleBlock), its strings copy at most that
// many, and each list element (16 bytes) takes at least one byte of it;
// 64 KiB of slack for the decoder's own values and the runtime.
func decodeBound(n int) uint64 { return 64<<10 + 1024*uint64(n) }

// statedChunk is a chunk of one block whose Snappy header states a decoded
// length of stated bytes, followed by a few bytes of literal.
func statedChunk(stated uint64) []byte {
	packed := binary.AppendUvarint(nil, stated)
	packed = append(packed, 0x1c, 'r', 'o', 'w', 's', '!', '!', '!', '!') // a literal of 8 bytes
	return append(binary.AppendUvarint(nil, uint64(len(packed))), packed...)
}

// TestSpoolCodecStatedLength: a damaged chunk of a few bytes whose block
// states a decoded length of gigabytes is an error without allocating
// them (a fuzzed chunk of 55 bytes once made the decoder allocate 3.5 GB);
// a stated length the bytes could hold is decoded.
func TestSpoolCodecStatedLength(t *testing.T) {
	c, _ := codecOf[citationRow]()
	buf := make([]citationRow, spoolBlockRows)
	for _, stated := range []uint64{3_500_000_000, 1 << 32, 1 << 20, 193} {
		chunk := statedChunk(stated)
		d := &blockDecoder{chunk: chunk}
		if n := allocated(func() { decodeSpoolBlock(d, c, buf) }); n > decodeBound(len(chunk)) {
			t.Errorf("a %d-byte chunk stating %d bytes allocated %d bytes", len(chunk), stated, n)
		}
		if !errors.Is(d.err, errSpoolCodec) {
			t.Errorf("a chunk stating %d bytes: err %v, want errSpoolCodec", stated, d.err)
		}
	}
	if !plausibleBlock(statedChunk(192)[1:]) || plausibleBlock(statedChunk(193)[1:]) { // 9 bytes after the length: 9 × 64/3 = 192
		t.Errorf("the bound is not 64/3 bytes per compressed byte after the stated length")
	}
}

// FuzzSpoolChunk: rows built from the input come back exactly (the oracle
// is the rows encoded), and the input itself taken as a chunk decodes or
// fails without a panic and without allocating more than decodeBound of
// its length.
func FuzzSpoolChunk(f *testing.F) {
	f.Add([]byte("s0001\x00E1\x00p"), int64(3), true)
	f.Add([]byte{0xff, 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, int64(-1), false)
	f.Add(statedChunk(3_500_000_000), int64(0), false)
	f.Fuzz(func(t *testing.T, data []byte, n int64, valid bool) {
		parts := strings.Split(string(data), "\x00")
		rows := make([]citationRow, 1+len(data)%600)
		for i := range rows {
			p := parts[i%len(parts)]
			rows[i] = citationRow{SessionID: p, Index: n * int64(i), Path: parts[(i+1)%len(parts)], StartLine: -n, Valid: valid != (i%2 == 0)}
			if i%3 != 0 {
				rows[i].Supports = parts[:i%len(parts)]
			}
		}
		chunk, err := encodeSpoolChunk(rows)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := codecOf[citationRow]()
		buf := make([]citationRow, spoolBlockRows)
		var got []citationRow
		d := &blockDecoder{chunk: chunk}
		for b := decodeSpoolBlock(d, c, buf); b != nil; b = decodeSpoolBlock(d, c, buf) {
			got = append(got, b...)
		}
		if d.err != nil || !reflect.DeepEqual(got, rows) {
			t.Fatalf("rows did not come back: err %v, %d of %d rows", d.err, len(got), len(rows))
		}
		d = &blockDecoder{chunk: data}
		if n := allocated(func() {
			for decodeSpoolBlock(d, c, buf) != nil {
			}
		}); n > decodeBound(len(data)) {
			t.Fatalf("a %d-byte chunk made the decoder allocate %d bytes", len(data), n)
		}
	})
}
