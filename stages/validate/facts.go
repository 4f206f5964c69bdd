package validate

import (
	"encoding/binary"
	"encoding/hex"

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
	var buf []byte
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
	return off
}

// get decodes the facts at off, with references of their own.
func (a *factsArena) get(off int) receiptFacts {
	if off == noFacts {
		return receiptFacts{}
	}
	b := a.blocks[off/factsBlock][off%factsBlock:]
	flags, b := b[0], b[1:]
	var f receiptFacts
	if flags&factOutput != 0 {
		f.output, b = readRef(b)
	}
	if flags&factObservations != 0 {
		f.observations, _ = readRef(b)
	}
	return f
}

// appendRef encodes r: its path, its sha256 as 32 bytes when it is 64
// lowercase hex digits (else as text), its byte count.
func appendRef(b []byte, r *tables.OutputRef) []byte {
	b = binary.AppendUvarint(b, uint64(len(r.Path)))
	b = append(b, r.Path...)
	if sum, err := hex.DecodeString(r.SHA256); err == nil && len(sum) == 32 && hex.EncodeToString(sum) == r.SHA256 {
		b = append(b, 0)
		b = append(b, sum...)
	} else {
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(len(r.SHA256)))
		b = append(b, r.SHA256...)
	}
	return binary.AppendVarint(b, r.Bytes)
}

// readRef decodes what appendRef encoded and returns the rest of b.
func readRef(b []byte) (*tables.OutputRef, []byte) {
	r := new(tables.OutputRef)
	n, k := binary.Uvarint(b)
	b = b[k:]
	r.Path, b = string(b[:n]), b[n:]
	if b[0] == 0 {
		r.SHA256, b = hex.EncodeToString(b[1:33]), b[33:]
	} else {
		n, k = binary.Uvarint(b[1:])
		b = b[1+k:]
		r.SHA256, b = string(b[:n]), b[n:]
	}
	var k2 int
	r.Bytes, k2 = binary.Varint(b)
	return r, b[k2:]
}
