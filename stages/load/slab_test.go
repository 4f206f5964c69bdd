package load

import (
	"slices"
	"testing"
	"unsafe"
)

// TestSlabCopy checks that the lists a slab hands out are copies of
// exact length and capacity, that appending to one never changes the
// list carved next to it, that writing into a source after the copy
// changes nothing, and that an empty list is empty but not nil.
func TestSlabCopy(t *testing.T) {
	var s slab[string]
	if got := s.copy(nil); got == nil || len(got) != 0 {
		t.Fatalf("copy of an empty list = %#v, want an empty non-nil slice", got)
	}
	src := []string{"a", "b"}
	first := s.copy(src)
	second := s.copy([]string{"c", "d", "e"})
	src[0] = "changed"
	if !slices.Equal(first, []string{"a", "b"}) || !slices.Equal(second, []string{"c", "d", "e"}) {
		t.Fatalf("copies = %q %q", first, second)
	}
	if cap(first) != len(first) || cap(second) != len(second) {
		t.Fatalf("capacities %d, %d: want no room past the lengths", cap(first), cap(second))
	}
	if unsafe.SliceData(second) != (*string)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(first)), 2*unsafe.Sizeof(""))) {
		t.Fatalf("the two lists are not neighbours in one block: the test checks nothing")
	}
	grown := append(first, "x")
	grown[0] = "y"
	if !slices.Equal(second, []string{"c", "d", "e"}) || !slices.Equal(first, []string{"a", "b"}) {
		t.Fatalf("an append to one list changed a list: %q %q", first, second)
	}
}

// TestSlabBlocks checks that a slab's blocks stay small: a long list is a
// block of its own, and lists go on in a new block when one is full.
func TestSlabBlocks(t *testing.T) {
	var s slab[string]
	block := slabBlock[string]()
	long := make([]string, block/4+1)
	if got := s.copy(long); len(got) != len(long) || cap(got) != len(long) || len(s.free) != 0 {
		t.Fatalf("a list longer than a quarter of a block took a block (%d left)", len(s.free))
	}
	one := []string{"v"}
	var lists [][]string
	for range 2*block + 1 {
		lists = append(lists, s.copy(one))
	}
	for i, l := range lists {
		if len(l) != 1 || cap(l) != 1 || l[0] != "v" {
			t.Fatalf("list %d = %q (cap %d)", i, l, cap(l))
		}
	}
	if cap(s.free) > block {
		t.Fatalf("the current block has room for %d elements, more than %d", cap(s.free), block)
	}
	type big [200]byte
	var b slab[big]
	if got := b.copy(make([]big, slabMinBlock/4)); len(got) != slabMinBlock/4 || cap(b.free) != slabMinBlock-slabMinBlock/4 {
		t.Fatalf("a block of a large type holds %d elements, want %d", cap(b.free)+len(got), slabMinBlock)
	}
}

// TestSlabOne checks that the values one hands out are distinct and
// stay what they were given, and that a list carved next to one does not
// overlap it.
func TestSlabOne(t *testing.T) {
	var s slab[string]
	var ps []*string
	for i := range 3 * slabBlockBytes / int(unsafe.Sizeof("")) {
		ps = append(ps, s.one(itoa(i)))
	}
	list := s.copy([]string{"l"})
	_ = append(list, "m")
	for i, p := range ps {
		if *p != itoa(i) {
			t.Fatalf("value %d is %q", i, *p)
		}
	}
	if len(list) != 1 || cap(list) != 1 || list[0] != "l" {
		t.Fatalf("list = %q (cap %d)", list, cap(list))
	}
	*ps[0] = "changed"
	if *ps[1] != "1" {
		t.Fatalf("writing one value changed its neighbour: %q", *ps[1])
	}
}
