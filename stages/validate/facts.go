package validate

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"

	"github.com/evalgate/evalgate/tables"
)

// receiptFacts is what a review's rendering reads of the receipt its
// draft_session_id names, the first receipt with that session ID: the
// output and raw observations it recorded (nil when it recorded none).
type receiptFacts struct {
	output, observations *tables.OutputRef
}

// factsArena holds the facts of the first receipt of every session ID
// encoded in a few bytes each (path, sha256, byte count), in blocks that
// are never copied, so that the facts of a million receipts cost their
// bytes and not a kept copy of each receipt's references. A fact is named
// by its offset.
type factsArena struct {
	blocks [][]byte
	buf    []byte // add's scratch: a fact is encoded here, then copied into a block
}

// factsBlock is the size of one block of a factsArena; a larger fact has
// a block of its own.
const factsBlock = 1 << 20

// Flags of an encoded fact.
const (
	factOutput       = 1 << iota // an output reference follows
	factObservations             // an observations reference follows
)

// noFacts is the offset of the facts of a receipt with neither reference.
const noFacts = -1

// add encodes f and returns its offset.
func (a *factsArena) add(f receiptFacts) int {
	if f.output == nil && f.observations == nil {
		return noFacts
	}
	var flags byte
	buf := a.buf[:0]
	if f.output != nil {
		flags |= factOutput
		buf = appendRef(buf, f.output)
	}
	if f.observations != nil {
		flags |= factObservations
		buf = appendRef(buf, f.observations)
	}
	need := 1 + len(buf)
	if len(a.blocks) == 0 || len(a.blocks[len(a.blocks)-1])+need > cap(a.blocks[len(a.blocks)-1]) {
		a.blocks = append(a.blocks, make([]byte, 0, max(factsBlock, need)))
	}
	b := &a.blocks[len(a.blocks)-1]
	off := (len(a.blocks)-1)*factsBlock + len(*b)
	if need > factsBlock {
		off = (len(a.blocks) - 1) * factsBlock // a block of its own
	}
	*b = append(*b, flags)
	*b = append(*b, buf...)
	a.buf = buf
	return off
}

// get decodes the facts at off, with references of their own, except
// that a reference equal to known (which may be nil) is known itself: a
// review's draft output is most often the output read last, and is then
// not decoded into a copy. References are never modified, so sharing one
// is the same as a copy.
func (a *factsArena) get(off int, known *tables.OutputRef) receiptFacts {
	if off == noFacts {
		return receiptFacts{}
	}
	b := a.blocks[off/factsBlock][off%factsBlock:]
	flags, b := b[0], b[1:]
	var f receiptFacts
	if flags&factOutput != 0 {
		f.output, b = readRef(b, known)
	}
	if flags&factObservations != 0 {
		f.observations, _ = readRef(b, known)
	}
	return f
}

// appendRef encodes r: its path, its sha256 as 32 bytes when it is 64
// lowercase hex digits (else as text), its byte count.
func appendRef(b []byte, r *tables.OutputRef) []byte {
	b = binary.AppendUvarint(b, uint64(len(r.Path)))
	b = append(b, r.Path...)
	if sum, ok := lowerHexSHA256(r.SHA256); ok {
		b = append(b, 0)
		b = append(b, sum[:]...)
	} else {
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(len(r.SHA256)))
		b = append(b, r.SHA256...)
	}
	return binary.AppendVarint(b, r.Bytes)
}

// lowerHexSHA256 decodes s when it is exactly 64 lowercase hex digits, the
// only text that encoding the 32 bytes back gives again.
func lowerHexSHA256(s string) (sum [sha256.Size]byte, ok bool) {
	if len(s) != 2*sha256.Size {
		return sum, false
	}
	for i := range sum {
		hi, lo := lowerHexDigits[s[2*i]], lowerHexDigits[s[2*i+1]]
		if hi|lo > 0xf {
			return sum, false
		}
		sum[i] = hi<<4 | lo
	}
	return sum, true
}

// lowerHexDigits is the value of each lowercase hex digit, 0xff for any
// other byte.
var lowerHexDigits = func() (t [256]byte) {
	for c := range t {
		switch {
		case '0' <= c && c <= '9':
			t[c] = byte(c - '0')
		case 'a' <= c && c <= 'f':
			t[c] = byte(c - 'a' + 10)
		default:
			t[c] = 0xff
		}
	}
	return t
}()

// readRef decodes what appendRef encoded and returns the rest of b; an
// encoded reference equal to known returns known.
func readRef(b []byte, known *tables.OutputRef) (*tables.OutputRef, []byte) {
	n, k := binary.Uvarint(b)
	b = b[k:]
	path, b := b[:n], b[n:]
	var sum, text []byte // the packed sha256, or its text
	if b[0] == 0 {
		sum, b = b[1:33], b[33:]
	} else {
		n, k = binary.Uvarint(b[1:])
		b = b[1+k:]
		text, b = b[:n], b[n:]
	}
	size, k2 := binary.Varint(b)
	b = b[k2:]
	if known != nil && known.Bytes == size && known.Path == string(path) && sameSHA256(known.SHA256, sum, text) {
		return known, b
	}
	// the path and the sha256 text share one string, built in one
	// allocation
	var hexSum [2 * sha256.Size]byte
	hex.Encode(hexSum[:], sum)
	hexText := hexSum[:hex.EncodedLen(len(sum))]
	var joined strings.Builder
	joined.Grow(len(path) + len(hexText) + len(text))
	joined.Write(path)
	joined.Write(hexText)
	joined.Write(text)
	s := joined.String()
	return &tables.OutputRef{Path: s[:len(path)], SHA256: s[len(path):], Bytes: size}, b
}

// sameSHA256 reports whether s is the sha256 readRef decodes from sum
// (packed, lowercase hex) or text (kept as it was).
func sameSHA256(s string, sum, text []byte) bool {
	if sum == nil {
		return s == string(text)
	}
	got, ok := lowerHexSHA256(s)
	return ok && string(got[:]) == string(sum)
}
