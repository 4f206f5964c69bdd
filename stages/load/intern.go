package load

import (
	"encoding/binary"
	"math/bits"
	"reflect"
	"slices"
	"unsafe"

	"github.com/evalgate/evalgate/tables"
)

// A campaign's records repeat most of their values: every receipt of a
// task names its task and hashes, every receipt of a role its prompt IDs
// and hashes, both arms of a pair the same data blocks, every rating the
// same outcomes. A Go struct field tagged `intern:"true"` holds such a
// value (tables declares which); while one campaign's JSONL files are
// decoded, the streamer keeps one copy of each such string and of each
// such slice, by content, in an interner, and every record with that
// value shares it. Only tagged fields are looked up, so the values that
// are unique per record (session IDs, output hashes) cost nothing here.
//
// The interner is bounded whatever the input: a fixed table of slots,
// each holding the last value whose hash fell in it, so a campaign of
// unique strings replaces entries instead of growing the table, and a
// value evicted is only stored again, never wrong. What a slot can hold
// is capped too (maxInternBytes, maxSharedListBytes), so the values of
// refused lines it may still hold are a few megabytes at most. Sharing changes no
// value: a shared slice has no room past its length (an append copies)
// and no consumer writes into a record's slices.
type interner struct {
	strs   []string     // slot by hash of the bytes
	ptrs   []*string    // slot by hash of the string pointed to
	slices []sharedList // slot by hash of the array's bytes
}

// sharedList is one slot of the slice table: the hash of the JSON
// array's bytes it was decoded from, and the slice, boxed.
type sharedList struct {
	sum uint64
	v   any
}

const (
	// maxInternSlots is the most slots either table has; a table's room
	// is a power of two between 256 and this, chosen from the size of
	// the file being read.
	maxInternSlots = 1 << 16
	// maxInternBytes is the longest string interned (IDs and hashes are
	// shorter); a longer one is stored as read.
	maxInternBytes = 128
	// maxSharedLists is the most slots of the slice table, and
	// maxSharedListBytes the most bytes of JSON array, and of its slice's
	// elements, it shares (prompt lists, data blocks and ratings are a few
	// hundred); a larger array is decoded into a slice of its own. The
	// slice table so holds at most 8,192 × 2 KiB, and as many blocks of
	// the receipt fast path's slabs (slab: each at most a few KiB) that the
	// lists it shares were carved out of.
	maxSharedLists     = 1 << 13
	maxSharedListBytes = 1 << 10
	// internBytesPerSlot is the file bytes per slot: a campaign file of
	// n bytes gets room for about n/internBytesPerSlot values.
	internBytesPerSlot = 1 << 10
)

// newInterner returns an interner for a file of about size bytes.
func newInterner(size int64) *interner {
	slots := 256
	if want := size / internBytesPerSlot; want > int64(slots) {
		slots = min(maxInternSlots, 1<<bits.Len64(uint64(want-1)))
	}
	return &interner{strs: make([]string, slots), ptrs: make([]*string, slots), slices: make([]sharedList, min(slots, maxSharedLists))}
}

// bytes returns the interned string equal to b, storing it when its slot
// holds another.
func (in *interner) bytes(b []byte) string {
	if len(b) > maxInternBytes {
		return string(b)
	}
	slot := &in.strs[hashBytes(b)&uint64(len(in.strs)-1)]
	if *slot != string(b) { // compared without a copy
		*slot = string(b)
	}
	return *slot
}

// string is bytes of a string already copied (one that was unescaped).
func (in *interner) string(s string) string {
	if len(s) > maxInternBytes {
		return s
	}
	slot := &in.strs[hashBytes(unsafe.Slice(unsafe.StringData(s), len(s)))&uint64(len(in.strs)-1)]
	if *slot != s {
		*slot = s
	}
	return *slot
}

// pointer returns a pointer to s (interned), shared with the last equal
// one in its slot: only a value new to its slot allocates one.
func (in *interner) pointer(s string) *string {
	s = in.string(s)
	slot := &in.ptrs[hashBytes(unsafe.Slice(unsafe.StringData(s), len(s)))&uint64(len(in.ptrs)-1)]
	if *slot == nil || **slot != s {
		p := new(string)
		*p = s
		*slot = p
	}
	return *slot
}

// list sets dst, a slice, to the slice decoded from the JSON array raw
// whose elements are in scratch (an addressable slice of dst's type): the
// shared one when an equal slice was decoded last in raw's slot, else a
// new one of exactly its length, which then takes the slot.
func (in *interner) list(dst, scratch reflect.Value, raw []byte) {
	n := scratch.Len()
	if len(raw) > maxSharedListBytes || uintptr(n)*scratch.Type().Elem().Size() > maxSharedListBytes {
		dst.Set(reflect.MakeSlice(dst.Type(), n, n))
		reflect.Copy(dst, scratch)
		return
	}
	sum := hashBytes(raw)
	slot := &in.slices[sum&uint64(len(in.slices)-1)]
	if slot.v != nil && slot.sum == sum && sameElements(slot.v, scratch.Addr().Interface()) {
		dst.Set(reflect.ValueOf(slot.v))
		return
	}
	dst.Set(reflect.MakeSlice(dst.Type(), n, n))
	reflect.Copy(dst, scratch)
	*slot = sharedList{sum: sum, v: dst.Interface()}
}

// sameElements reports whether the slice shared equals *fresh, a pointer
// to a slice: element by element for the tagged slice types of tables,
// deeply for any other (whose elements may hold pointers).
func sameElements(shared, fresh any) bool {
	switch s := shared.(type) {
	case []string:
		return equalTo(s, fresh)
	case []tables.BlockDigest:
		return equalTo(s, fresh)
	case []tables.ObligationRating:
		return equalTo(s, fresh)
	case []tables.CitationRating:
		return equalTo(s, fresh)
	}
	f := reflect.ValueOf(fresh).Elem()
	return reflect.TypeOf(shared) == f.Type() && reflect.DeepEqual(shared, f.Interface())
}

func equalTo[T comparable](shared []T, fresh any) bool {
	f, ok := fresh.(*[]T)
	return ok && slices.Equal(shared, *f)
}

// hashBytes is a fast hash of b, fixed so that which values share a slot
// (and so the memory a campaign takes) is the same on every run. A
// collision only costs sharing, never a value: slots compare contents.
func hashBytes(b []byte) uint64 {
	const m = 0x9e3779b97f4a7c15
	h := uint64(len(b)) * m
	for ; len(b) >= 8; b = b[8:] {
		h = (h ^ binary.LittleEndian.Uint64(b)) * m
		h ^= h >> 29
	}
	var tail uint64
	for i, c := range b {
		tail |= uint64(c) << (8 * i)
	}
	h = (h ^ tail) * m
	return h ^ h>>32
}
