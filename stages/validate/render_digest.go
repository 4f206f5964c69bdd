package validate

import (
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"hash"

	"github.com/evalgate/evalgate/tables"
)

// renderDigests computes what renderedInput compares of each session's
// rendering (its sha256, byte count and parts) without building the
// rendered bytes, and without hashing the same bytes again and again:
//
//   - the parts the campaign holds (prompt files, the task and packet
//     files) open every rendering of one task, role and arm; they are
//     hashed once, and the sha256 state after them is resumed for each
//     session that starts with the very same parts (the same slices of
//     the campaign's bytes); the prompt files, the same for every task of
//     a role and arm, are hashed once for all of them the same way;
//   - a draft's output, read once (by its own session, which keeps it)
//     and digested once, serves both reviews of its repetition, which
//     follow it; its sha256 is the receipt's, which the read compared
//     (readPart), and each review's hash is fed its frame and its bytes,
//     never a framed copy.
//
// The result equals tables.Render of the same parts, Data aside (a test
// compares them on every session of the examples). A rendering is a
// concatenation of independently framed parts (tables.AppendFrameHead and
// AppendFrameTail), which is what makes its prefix's hash state reusable.
type renderDigests struct {
	v        *runner
	prefixes map[prefixKey]*renderedPrefix
	// prompts are the renderings of each role's and arm's prompt parts,
	// with which every prefix of theirs starts (task empty in the key).
	prompts  map[prefixKey]*renderedPrefix
	lastRead struct {
		out  *tables.OutputRef
		data []byte
	}
	lastParts [2]digestedPart // the most recent parts read from outputs
	frame     []byte          // scratch for a frame's lines
	// parts and rendered are the scratch of digest: its parts, and the
	// Parts of the rendering it returns.
	parts    []tables.RenderPart
	rendered []tables.RenderedPart
	// h is the one sha256 every digest and prefix is computed in (a
	// prefix's state is saved, then resumed in it); sum is Sum's scratch.
	h   hash.Hash
	sum [sha256.Size]byte
	// held is what Render reports of each part the campaign holds
	// (prompt, task and packet files), computed once: the prompt files
	// open the prefix of every task, the task and packet files those of
	// its draft and both its arms.
	held map[heldKey]tables.RenderedPart
}

// heldKey names a part by its kind, ID and the very bytes it renders.
type heldKey struct {
	kind, id string
	data     *byte
	n        int
}

// prefixKey names the rendering prefixes that may be equal; equality is
// then checked part by part (samePart).
type prefixKey struct {
	task, role, arm string
	hasArm          bool
}

// renderedPrefix is the rendering of a session's held parts.
type renderedPrefix struct {
	parts []tables.RenderPart // what was rendered
	state []byte              // the sha256 state after the rendered bytes
	bytes int64
	out   []tables.RenderedPart
}

// digestedPart is one part with what tables.Render reports of it.
type digestedPart struct {
	part tables.RenderPart
	rend tables.RenderedPart
}

func newRenderDigests(v *runner) *renderDigests {
	return &renderDigests{v: v, prefixes: map[prefixKey]*renderedPrefix{}, prompts: map[prefixKey]*renderedPrefix{}, h: sha256.New(), held: map[heldKey]tables.RenderedPart{}}
}

// samePart reports whether a and b are the same part of the same bytes.
func samePart(a, b tables.RenderPart) bool {
	return a.Kind == b.Kind && a.ID == b.ID && len(a.Data) == len(b.Data) &&
		(len(a.Data) == 0 || &a.Data[0] == &b.Data[0])
}

// digest is v.render(r) without the rendered bytes. Its Parts are valid
// until the next call.
func (d *renderDigests) digest(r *tables.Receipt) (tables.Rendering, error) {
	if r.Status == tables.StatusNotDispatched {
		return tables.Rendering{}, errNotRendered
	}
	parts, held, err := d.v.renderPartsRead(r, d.read, d.lastRead.out, d.parts)
	if err != nil {
		return tables.Rendering{}, err
	}
	d.parts = parts
	p := d.prefix(prefixKey{task: r.TaskID, role: r.Role, arm: deref(r.Arm), hasArm: r.Arm != nil}, parts[:held])
	h := d.h
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(p.state); err != nil {
		return tables.Render(parts), nil // unreachable: the state is sha256's own
	}
	out := tables.Rendering{Rule: tables.RenderRule, Bytes: p.bytes, Parts: append(d.rendered[:0], p.out...)}
	for _, part := range parts[held:] {
		rend := d.digested(part)
		d.write(h, part)
		out.Parts = append(out.Parts, rend)
		out.Bytes += rend.RenderedBytes
	}
	d.rendered = out.Parts
	var sum [2 * sha256.Size]byte
	hex.Encode(sum[:], h.Sum(d.sum[:0]))
	if declared := r.Inputs.RenderedSHA256; declared == string(sum[:]) {
		out.SHA256 = declared // the same text, not a copy of it
	} else {
		out.SHA256 = string(sum[:])
	}
	return out, nil
}

// prefix returns the rendering of held, computed once per key while the
// parts stay the same. Its leading prompt parts, the same for every task
// of a role and arm, are hashed once for them all (promptPrefix), and
// their state resumed for each task's data parts.
func (d *renderDigests) prefix(k prefixKey, held []tables.RenderPart) *renderedPrefix {
	if p := d.prefixes[k]; p != nil && sameParts(p.parts, held) {
		return p
	}
	n := 0
	for n < len(held) && held[n].Kind != tables.PartKindData {
		n++
	}
	base := d.promptPrefix(prefixKey{role: k.role, arm: k.arm, hasArm: k.hasArm}, held[:n])
	p := d.extend(base, held, n)
	d.prefixes[k] = p
	return p
}

// promptPrefix is the rendering of a role's and arm's prompt parts,
// computed once per key while they stay the same.
func (d *renderDigests) promptPrefix(k prefixKey, prompts []tables.RenderPart) *renderedPrefix {
	if p := d.prompts[k]; p != nil && sameParts(p.parts, prompts) {
		return p
	}
	p := d.extend(nil, prompts, 0)
	d.prompts[k] = p
	return p
}

// extend is the rendering of held whose first n parts are base's (none
// when base is nil): base's sha256 state is resumed and fed the rest.
func (d *renderDigests) extend(base *renderedPrefix, held []tables.RenderPart, n int) *renderedPrefix {
	h := d.h
	p := &renderedPrefix{parts: append([]tables.RenderPart(nil), held...), out: make([]tables.RenderedPart, 0, len(held))}
	h.Reset()
	if base != nil {
		if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(base.state); err != nil {
			n = 0 // unreachable: the state is sha256's own; hash every part
		} else {
			p.out = append(p.out, base.out...)
			p.bytes = base.bytes
		}
	}
	for _, part := range held[n:] {
		d.write(h, part)
		rend := d.heldPart(part)
		p.out = append(p.out, rend)
		p.bytes += rend.RenderedBytes
	}
	p.state, _ = h.(encoding.BinaryMarshaler).MarshalBinary()
	return p
}

// sameParts reports whether a and b are the same parts of the same bytes.
func sameParts(a, b []tables.RenderPart) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !samePart(a[i], b[i]) {
			return false
		}
	}
	return true
}

// write writes part's rendering into h: its frame (tables.AppendFrameHead and AppendFrameTail) around
// its bytes, which are never copied.
func (d *renderDigests) write(h hash.Hash, part tables.RenderPart) {
	d.frame = tables.AppendFrameHead(d.frame[:0], part)
	h.Write(d.frame)
	h.Write(part.Data)
	d.frame = tables.AppendFrameTail(d.frame[:0], part)
	h.Write(d.frame)
}

// heldPart is renderedPart(part) of a part the campaign holds, computed
// once per part.
func (d *renderDigests) heldPart(part tables.RenderPart) tables.RenderedPart {
	if len(part.Data) == 0 {
		return renderedPart(part)
	}
	k := heldKey{part.Kind, part.ID, &part.Data[0], len(part.Data)}
	rend, ok := d.held[k]
	if !ok {
		rend = renderedPart(part)
		d.held[k] = rend
	}
	return rend
}

// renderedPart is what tables.Render reports of part.
func renderedPart(part tables.RenderPart) tables.RenderedPart {
	return tables.RenderedPart{Kind: part.Kind, ID: part.ID, SHA256: tables.SHA256Hex(part.Data),
		Bytes: int64(len(part.Data)), RenderedBytes: int64(tables.FrameLen(part) + len(part.Data))}
}

// digested is renderedPart(part), reused while the most recent reads
// return the same bytes.
func (d *renderDigests) digested(part tables.RenderPart) tables.RenderedPart {
	for _, f := range d.lastParts {
		if samePart(f.part, part) {
			return f.rend
		}
	}
	f := digestedPart{part: part, rend: d.readPart(part)}
	d.lastParts[1], d.lastParts[0] = d.lastParts[0], f
	return f.rend
}

// readPart is renderedPart(part); when part's bytes are the output read
// last, whole (within the answer cap, so the reader compared their
// sha256 with the receipt's: tables.Answers), its sha256 is the
// receipt's and they are not hashed a second time.
func (d *renderDigests) readPart(part tables.RenderPart) tables.RenderedPart {
	out, data := d.lastRead.out, d.lastRead.data
	if out == nil || len(part.Data) == 0 || len(data) != len(part.Data) || &data[0] != &part.Data[0] || int64(len(data)) != out.Bytes {
		return renderedPart(part)
	}
	return tables.RenderedPart{Kind: part.Kind, ID: part.ID, SHA256: out.SHA256,
		Bytes: int64(len(part.Data)), RenderedBytes: int64(tables.FrameLen(part) + len(part.Data))}
}

// keep makes data, the bytes of out read and found to match it, the last
// output read: the session of a draft keeps its output for the renderings
// of its reviews, which follow it, so that it is read once.
func (d *renderDigests) keep(out *tables.OutputRef, data []byte) {
	d.lastRead.out, d.lastRead.data = out, data
}

// read is readFrozen, reusing the last output read or kept when asked for
// it again (the reviews of a draft).
func (d *renderDigests) read(out *tables.OutputRef) ([]byte, error) {
	if out != nil && d.lastRead.out != nil && *d.lastRead.out == *out { // the same path, sha256 and size: the same bytes
		return d.lastRead.data, nil
	}
	data, err := d.v.readFrozen(out)
	if err != nil {
		return nil, err
	}
	d.lastRead.out, d.lastRead.data = out, data
	return data, nil
}
