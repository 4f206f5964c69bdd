package validate

import (
	"crypto/sha256"
	"encoding"
	"encoding/hex"

	"github.com/evalgate/evalgate/tables"
)

// renderDigests computes what renderedInputs compares of each session's
// rendering (its sha256, byte count and parts) without building the
// rendered bytes, and without hashing the same bytes again and again:
//
//   - the parts the campaign holds (prompt files, the task and packet
//     files) open every rendering of one task, role and arm; they are
//     rendered and hashed once, and the sha256 state after them is
//     resumed for each session that starts with the very same parts
//     (the same slices of the campaign's bytes);
//   - a draft's output, read once (by its own session, which keeps it) and
//     framed once, serves both reviews of its repetition, which follow it.
//
// The result equals tables.Render of the same parts, Data aside (a test
// compares them on every session of the examples). A rendering is a
// concatenation of independently framed parts, which is what makes its
// prefix's hash state reusable.
type renderDigests struct {
	v        *runner
	prefixes map[prefixKey]*renderedPrefix
	lastRead struct {
		out  *tables.OutputRef
		data []byte
	}
	lastParts [2]framedPart // the most recent framed parts read from outputs
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

// framedPart is one part rendered alone.
type framedPart struct {
	part tables.RenderPart
	rend tables.Rendering
}

func newRenderDigests(v *runner) *renderDigests {
	return &renderDigests{v: v, prefixes: map[prefixKey]*renderedPrefix{}}
}

// samePart reports whether a and b are the same part of the same bytes.
func samePart(a, b tables.RenderPart) bool {
	return a.Kind == b.Kind && a.ID == b.ID && len(a.Data) == len(b.Data) &&
		(len(a.Data) == 0 || &a.Data[0] == &b.Data[0])
}

// digest is v.render(r) without the rendered bytes.
func (d *renderDigests) digest(r *tables.Receipt) (tables.Rendering, error) {
	if r.Status == tables.StatusNotDispatched {
		return tables.Rendering{}, errNotRendered
	}
	parts, held, err := d.v.renderPartsRead(r, d.read)
	if err != nil {
		return tables.Rendering{}, err
	}
	p := d.prefix(prefixKey{task: r.TaskID, role: r.Role, arm: deref(r.Arm), hasArm: r.Arm != nil}, parts[:held])
	h := sha256.New()
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(p.state); err != nil {
		return tables.Render(parts), nil // unreachable: the state is sha256's own
	}
	out := tables.Rendering{Rule: tables.RenderRule, Bytes: p.bytes, Parts: make([]tables.RenderedPart, len(p.out), len(parts))}
	copy(out.Parts, p.out)
	for _, part := range parts[held:] {
		f := d.framed(part)
		h.Write(f.Data)
		out.Parts = append(out.Parts, f.Parts...)
		out.Bytes += f.Bytes
	}
	out.SHA256 = hex.EncodeToString(h.Sum(nil))
	return out, nil
}

// prefix returns the rendering of held, computed once per key while the
// parts stay the same.
func (d *renderDigests) prefix(k prefixKey, held []tables.RenderPart) *renderedPrefix {
	if p := d.prefixes[k]; p != nil && len(p.parts) == len(held) {
		same := true
		for i := range held {
			same = same && samePart(p.parts[i], held[i])
		}
		if same {
			return p
		}
	}
	rend := tables.Render(held)
	h := sha256.New()
	h.Write(rend.Data)
	state, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
	p := &renderedPrefix{parts: append([]tables.RenderPart(nil), held...), state: state, bytes: rend.Bytes, out: rend.Parts}
	d.prefixes[k] = p
	return p
}

// framed is part rendered alone, reused while the most recent reads
// return the same bytes.
func (d *renderDigests) framed(part tables.RenderPart) tables.Rendering {
	for _, f := range d.lastParts {
		if samePart(f.part, part) {
			return f.rend
		}
	}
	f := framedPart{part: part, rend: tables.Render([]tables.RenderPart{part})}
	d.lastParts[1], d.lastParts[0] = d.lastParts[0], f
	return f.rend
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
	if d.lastRead.out == out && out != nil {
		return d.lastRead.data, nil
	}
	data, err := d.v.readFrozen(out)
	if err != nil {
		return nil, err
	}
	d.lastRead.out, d.lastRead.data = out, data
	return data, nil
}
