package load

import (
	"sync"
	"unsafe"

	"github.com/evalgate/evalgate/tables"
)

// The fast paths of a task's packet.json and truth.json, as the answer's
// (answer_fast.go): one scan that decides whether the document is one the
// generic pass (decodeDoc against the published packet or truth schema)
// accepts without a single finding, and if so decodes it into the same Go
// value. They report nothing: at the first byte they are not sure of (an
// escape they do not decode, a number that is not a plain line number, a
// member out of the format, a repeated member, a value a rule of the
// schema would flag) they give up, and the document is decoded by the
// generic pass from its first byte, which finds and words every problem
// as before. FuzzPacketFast and FuzzTruthFast check the two against each
// other, TestTaskFastSchema that the shapes read here are the published
// schemas'.

// The member names of the packet and truth formats, in schema order
// (TestTaskFastSchema checks them), and their list bounds.
var (
	packetMembers          = []string{"format", "task_id", "repository", "commit", "constructed_complete", "items", "raw_observations"}
	packetItemMembers      = []string{"id", "path", "start_line", "end_line", "file_sha256", "text"}
	truthMembers           = []string{"format", "task_id", "obligations", "oracle"}
	truthObligationMembers = []string{"id", "text", "critical", "answerable", "source_justification", "evidence_ids", "accepted_alternatives", "required_verification", "justified_exclusions"}
	oracleMembers          = []string{"checker", "second_reviewer", "signed_off_at", "defective", "defect_note"}
)

const (
	minPacketItems                           = 1
	minTruthObligations, maxTruthObligations = 4, 8
	// packetRequired is every packet member but raw_observations.
	packetRequired = 1<<6 - 1
)

// taskDecoder is one packet's or truth's pass: the answer's reader (its
// strings, IDs, paths and texts) and the scratch lists of the two formats,
// reused across documents (taskDecoders) so that the lists of every task,
// all kept for the whole run, share the slabs' blocks.
type taskDecoder struct {
	answerDecoder
	items     []tables.PacketItem
	obls      []tables.TruthObligation
	texts     []string
	itemSlab  slab[tables.PacketItem]
	truthSlab slab[tables.TruthObligation]
}

var taskDecoders = sync.Pool{New: func() any { return new(taskDecoder) }}

func getTaskDecoder(data []byte) *taskDecoder {
	d := taskDecoders.Get().(*taskDecoder)
	d.d, d.i, d.owned = data, 0, false
	return d
}

// release clears what the pass read and returns d to its pool.
func (d *taskDecoder) release() {
	d.reset()
	clearScratch(&d.items)
	clearScratch(&d.obls)
	clearScratch(&d.texts)
	taskDecoders.Put(d)
}

// packetFast decodes data into p (which it may leave partly set when it
// gives up) and reports whether data is a packet the generic pass accepts
// with no finding, decoded here to the value that pass stores.
func packetFast(data []byte, p *tables.Packet) bool {
	d := getTaskDecoder(data)
	defer d.release()
	return d.objectOf(packetMembers, packetRequired, func(k int) bool {
		switch k {
		case 0:
			return d.constant(tables.FormatPacket, &p.Format)
		case 1:
			return d.ident(&p.TaskID)
		case 2:
			return d.ident(&p.Repository)
		case 3:
			return d.hex(40, &p.Commit)
		case 4:
			return d.boolean(&p.ConstructedComplete)
		case 5:
			return records(&d.scanner, &d.items, -1, &p.Items, &d.itemSlab, d.item) && len(p.Items) >= minPacketItems
		default:
			return d.boolean(&p.RawObservations)
		}
	}) && d.end() // nothing but white space after the value
}

func (d *taskDecoder) item(it *tables.PacketItem) bool {
	return d.object(packetItemMembers, func(k int) bool {
		switch k {
		case 0:
			return d.id("E", &it.ID)
		case 1:
			return d.path(&it.Path)
		case 2:
			return d.line(&it.StartLine)
		case 3:
			return d.line(&it.EndLine)
		case 4:
			return d.hex(64, &it.FileSHA256)
		default:
			return d.nonEmpty(&it.Text)
		}
	})
}

// truthFast is packetFast of a truth.
func truthFast(data []byte, t *tables.Truth) bool {
	d := getTaskDecoder(data)
	defer d.release()
	return d.object(truthMembers, func(k int) bool {
		switch k {
		case 0:
			return d.constant(tables.FormatTruth, &t.Format)
		case 1:
			return d.ident(&t.TaskID)
		case 2:
			return records(&d.scanner, &d.obls, maxTruthObligations, &t.Obligations, &d.truthSlab, d.obligation) && len(t.Obligations) >= minTruthObligations
		default:
			return d.oracle(&t.Oracle)
		}
	}) && d.end()
}

func (d *taskDecoder) obligation(o *tables.TruthObligation) bool {
	return d.object(truthObligationMembers, func(k int) bool {
		switch k {
		case 0:
			return d.id("O", &o.ID)
		case 1:
			return d.text(&o.Text)
		case 2:
			return d.boolean(&o.Critical)
		case 3:
			return d.boolean(&o.Answerable)
		case 4:
			return d.text(&o.SourceJustification)
		case 5:
			return d.idList("E", 0, &o.EvidenceIDs, &d.lists.strs)
		case 6:
			return d.textList(&o.AcceptedAlternatives)
		case 7:
			return d.text(&o.RequiredVerification)
		default:
			return d.textList(&o.JustifiedExclusions)
		}
	})
}

func (d *taskDecoder) oracle(o *tables.Oracle) bool {
	return d.object(oracleMembers, func(k int) bool {
		switch k {
		case 0:
			return d.ident(&o.Checker)
		case 1:
			return d.ident(&o.SecondReviewer)
		case 2:
			return d.timestamp(&o.SignedOffAt)
		case 3:
			return d.boolean(&o.Defective)
		default:
			if d.null() {
				o.DefectNote = nil
				return true
			}
			var s string
			if !d.text(&s) {
				return false
			}
			o.DefectNote = &s
			return true
		}
	})
}

// ident reads a string of the identifier rule (checkIdentifier).
func (d *taskDecoder) ident(dst *string) bool {
	b, ok := d.plain()
	if !ok || !IsIdentifier(string(b)) {
		return false
	}
	*dst = string(b)
	return true
}

// hex reads a string of digits lowercase hexadecimal digits (hexCheck of
// a sha256 or a commit: neither may be empty, neither is an identity). It
// is a view of the document, as the texts are (view): a task is kept for
// the whole run, and its packet's texts are views of the same copy.
func (d *taskDecoder) hex(digits int, dst *string) bool {
	b, ok := d.plain()
	if !ok || !isLowerHex(unsafe.String(unsafe.SliceData(b), len(b)), digits) {
		return false
	}
	*dst = d.view(b)
	return true
}

// nonEmpty reads a string of at least one character (minLength 1).
func (d *taskDecoder) nonEmpty(dst *string) bool {
	b, esc, ok := d.rawString()
	if !ok || len(b) == 0 {
		return false
	}
	if esc {
		*dst = string(d.unescape(b))
	} else {
		*dst = d.view(b)
	}
	return true
}

// textList reads an array of texts (checkText each).
func (d *taskDecoder) textList(dst *[]string) bool {
	d.texts = d.texts[:0]
	_, ok := d.elements(-1, func(int) bool {
		var s string
		if !d.text(&s) {
			return false
		}
		d.texts = append(d.texts, s)
		return true
	})
	if !ok {
		return false
	}
	*dst = d.lists.strs.copy(d.texts)
	return true
}
