package load

import (
	"encoding/binary"
	"math/bits"
	"time"
	"unicode/utf8"
	"unsafe"
)

// scanner is the one byte reader of the fast paths (answer_fast.go,
// adjudication_fast.go, receipt_fast.go): a position in a document and
// the reads of JSON's pieces each fast path is built from. Every read
// reports false at a byte it is not sure of, and its caller gives the
// document up to the generic pass; nothing here reports a finding.
type scanner struct {
	d []byte
	i int
}

// ws skips JSON white space.
func (d *scanner) ws() {
	for d.i < len(d.d) {
		switch d.d[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek is the next byte after white space, 0 at the end.
func (d *scanner) peek() byte {
	d.ws()
	if d.i < len(d.d) {
		return d.d[d.i]
	}
	return 0
}

// eat consumes c, the next byte after white space.
func (d *scanner) eat(c byte) bool {
	if d.peek() == c {
		d.i++
		return true
	}
	return false
}

// null consumes the literal null when it is next.
func (d *scanner) null() bool {
	if d.peek() == 'n' && len(d.d)-d.i >= 4 && string(d.d[d.i:d.i+4]) == "null" && d.delimited(d.i+4) {
		d.i += 4
		return true
	}
	return false
}

// end reports whether nothing but white space is left.
func (d *scanner) end() bool {
	d.ws()
	return d.i == len(d.d)
}

// rawString reads a string and returns its bytes between the quotes as
// written, and whether it holds an escape. It fails on a control
// character, invalid UTF-8, an escape it does not decode (\u, which the
// generic pass decodes with its surrogate rules) or a missing quote.
func (d *scanner) rawString() ([]byte, bool, bool) {
	if d.peek() != '"' {
		return nil, false, false
	}
	d.i++
	start := d.i
	escaped, high := false, false
	for d.i < len(d.d) {
		// eight bytes at a time while none is a quote, a backslash, a
		// control character or (until one is met) a non-ASCII byte
		for d.i+8 <= len(d.d) {
			w := binary.LittleEndian.Uint64(d.d[d.i:])
			q, bs := w^(lsbs*'"'), w^(lsbs*'\\')
			m := ((q - lsbs) &^ q) | ((bs - lsbs) &^ bs) | ((w - lsbs*0x20) &^ w)
			if !high {
				m |= w
			}
			if m &= msbs; m != 0 {
				// the lowest flagged byte is a true one: the borrows that
				// flag others only run upwards from it
				d.i += bits.TrailingZeros64(m) / 8
				break
			}
			d.i += 8
		}
		if d.i >= len(d.d) {
			break
		}
		c := d.d[d.i]
		switch {
		case c == '"':
			b := d.d[start:d.i]
			d.i++
			if high && !utf8.Valid(b) {
				return nil, false, false
			}
			return b, escaped, true
		case c == '\\':
			if d.i+1 >= len(d.d) {
				return nil, false, false
			}
			switch d.d[d.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			default:
				return nil, false, false
			}
			escaped = true
			d.i += 2
			continue
		case c < 0x20:
			return nil, false, false
		case c >= 0x80:
			high = true
		}
		d.i++
	}
	return nil, false, false
}

// plain reads a string without escapes and returns its bytes.
func (d *scanner) plain() ([]byte, bool) {
	b, esc, ok := d.rawString()
	return b, ok && !esc
}

// lsbs and msbs are the lowest and highest bit of each byte of a word.
const (
	lsbs = 0x0101010101010101
	msbs = 0x8080808080808080
)

// delimited reports whether a literal or number ending at i ends there.
func (d *scanner) delimited(i int) bool {
	if i == len(d.d) {
		return true
	}
	switch d.d[i] {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// natural reads an integer written without sign, fraction, exponent or
// leading zero, of at most digits digits (at most 18: it fits an int64),
// that ends at a delimiter. A number of any other form is false: the
// generic pass decides it.
func (d *scanner) natural(digits int) (int64, bool) {
	d.ws()
	start := d.i
	var n int64
	for d.i < len(d.d) && isDigit(d.d[d.i]) {
		n = n*10 + int64(d.d[d.i]-'0')
		d.i++
		if d.i-start > digits {
			return 0, false
		}
	}
	if d.i == start || d.d[start] == '0' && d.i-start > 1 || !d.delimited(d.i) {
		return 0, false
	}
	return n, true
}

// maxSafe is 2^53-1, the largest count and line number.
const maxSafe = 1<<53 - 1

// count reads a non-negative integer at most 2^53-1 (the count rule:
// integer, minimum 0, maximum 2^53-1).
func (d *scanner) count(dst *int64) bool {
	n, ok := d.natural(16)
	if !ok || n > maxSafe {
		return false
	}
	*dst = n
	return true
}

// line reads a positive integer at most 2^53-1 (checkLine).
func (d *scanner) line(dst *int64) bool {
	n, ok := d.natural(16)
	if !ok || n == 0 || n > maxSafe {
		return false
	}
	*dst = n
	return true
}

// boolean reads true or false.
func (d *scanner) boolean(dst *bool) bool {
	d.ws()
	for _, lit := range [...]string{"true", "false"} {
		if len(d.d)-d.i >= len(lit) && string(d.d[d.i:d.i+len(lit)]) == lit && d.delimited(d.i+len(lit)) {
			d.i += len(lit)
			*dst = lit == "true"
			return true
		}
	}
	return false
}

// enum reads a string that is one of values and stores that value.
func (d *scanner) enum(dst *string, values ...string) bool {
	b, ok := d.plain()
	if !ok {
		return false
	}
	for _, v := range values {
		if string(b) == v {
			*dst = v
			return true
		}
	}
	return false
}

// constant reads the string value (a const of the schema) and stores it.
func (d *scanner) constant(value string, dst *string) bool {
	b, ok := d.plain()
	if !ok || string(b) != value {
		return false
	}
	*dst = value
	return true
}

// identifier reads a string of the identifier rule (checkIdentifier),
// shared through in.
func (d *scanner) identifier(dst *string, in *interner) bool {
	b, ok := d.plain()
	if !ok || !IsIdentifier(string(b)) {
		return false
	}
	*dst = in.bytes(b)
	return true
}

// timestamp reads a string of the timestamp rule (checkTimestamp) and
// stores the time the generic pass stores (timestampOf).
func (d *scanner) timestamp(dst *time.Time) bool {
	d.ws()
	start := d.i
	b, ok := d.plain()
	if !ok || !isTimestampSyntax(string(b)) {
		return false
	}
	if _, err := time.Parse(time.RFC3339Nano, string(b)); err != nil {
		return false
	}
	t, ok := timestampOf(d.d[start:d.i])
	if !ok {
		return false
	}
	*dst = t
	return true
}

// elements reads an array: '[' then elements read by elem, separated by
// commas, then ']'. It fails past max elements (max < 0: no cap).
func (d *scanner) elements(max int, elem func(n int) bool) (int, bool) {
	if !d.eat('[') {
		return 0, false
	}
	if d.eat(']') {
		return 0, true
	}
	for n := 0; ; n++ {
		if n == max || !elem(n) {
			return 0, false
		}
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			return n + 1, true
		default:
			return 0, false
		}
	}
}

// records reads an array of at most max records, each by elem into the
// scratch list, and stores a copy of exactly their number, carved out of
// into (slab.copy).
func records[T any](d *scanner, scratch *[]T, max int, dst *[]T, into *slab[T], elem func(*T) bool) bool {
	*scratch = (*scratch)[:0]
	_, ok := d.elements(max, func(int) bool {
		var zero T
		*scratch = append(*scratch, zero)
		return elem(&(*scratch)[len(*scratch)-1])
	})
	if !ok {
		return false
	}
	*dst = into.copy(*scratch)
	return true
}

// object reads an object whose members are exactly names, each once, in
// any order: member reads the value of names[k].
func (d *scanner) object(names []string, member func(k int) bool) bool {
	return d.objectOf(names, 1<<len(names)-1, member)
}

// objectOf is object whose members are names, each at most once, those
// of the bits of required present. Each name is looked for first where
// the schema's order puts it, after the member read last.
func (d *scanner) objectOf(names []string, required uint32, member func(k int) bool) bool {
	if !d.eat('{') {
		return false
	}
	var seen uint32
	if d.eat('}') {
		return required == 0
	}
	next := 0
	for {
		b, ok := d.plain()
		if !ok || !d.eat(':') {
			return false
		}
		k := next
		if k >= len(names) || string(b) != names[k] {
			for k = 0; k < len(names) && string(b) != names[k]; k++ {
			}
		}
		if k == len(names) || seen&(1<<k) != 0 || !member(k) {
			return false // not a member of the format, a repeated one, or a bad value
		}
		seen |= 1 << k
		next = k + 1
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return seen&required == required
		default:
			return false
		}
	}
}

// exact returns a copy of s of its exact length; an empty s is an empty,
// non-nil slice, as the generic pass stores an empty array.
func exact[T any](s []T) []T {
	out := make([]T, len(s))
	copy(out, s)
	return out
}

// slab hands out the copies of a decoder's small lists (slab.copy) from
// blocks of a few elements, so that most lists of a document cost no
// allocation of their own. Each list is a full slice expression of its
// block, s[i:j:j], with no room past its length: lists never overlap, and
// an append to one copies it and never writes into its neighbour.
//
// A list keeps its whole block alive, so the blocks are small: at most
// slabBlockBytes (or slabMinBlock elements of a larger type), and a list
// of more than a quarter of a block is copied on its own. A list kept
// after the values decoded next to it are gone so keeps at most one
// block alive; the lists kept that way by design (a citation row's
// supports, a disposition row's final IDs) are carved out of a slab of
// their own (answerSlabs.kept), whose blocks hold only such lists. The
// decoder's current block is the only one the slab keeps itself. A slab
// is its decoder's, used by one pass at a time.
type slab[T any] struct {
	free []T // the unused rest of the current block
}

const (
	// slabBlockBytes is the size of a slab's block of a small type.
	slabBlockBytes = 2 << 10
	// slabMinBlock is the fewest elements a block holds.
	slabMinBlock = 32
)

// copy returns a copy of src of its exact length and capacity, as exact
// does: an empty src is an empty, non-nil slice.
func (s *slab[T]) copy(src []T) []T {
	n := len(src)
	block := slabBlock[T]()
	if n == 0 || n > block/4 {
		return exact(src)
	}
	if n > len(s.free) {
		s.free = make([]T, block)
	}
	out := s.free[:n:n]
	copy(out, src)
	s.free = s.free[n:]
	return out
}

// one returns a pointer to a copy of v carved out of the slab (a nullable
// value of a decoded list's record), which keeps its block alive as a
// list does.
func (s *slab[T]) one(v T) *T {
	if len(s.free) == 0 {
		s.free = make([]T, slabBlock[T]())
	}
	p := &s.free[0]
	*p = v
	s.free = s.free[1:]
	return p
}

// slabBlock is the number of elements of a slab's block of T.
func slabBlock[T any]() int {
	var zero T
	return max(slabBlockBytes/max(int(unsafe.Sizeof(zero)), 1), slabMinBlock)
}

// maxScratchItems bounds the room a pooled scratch list keeps.
const maxScratchItems = 256

func clearScratch[T any](s *[]T) {
	if cap(*s) > maxScratchItems {
		*s = nil
		return
	}
	clear((*s)[:cap(*s)])
	*s = (*s)[:0]
}
