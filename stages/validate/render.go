package validate

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Prompt custody (rule C3): the exact bytes each session
// received are the rendering (tables.Render, docs/prompts.md) of
//
//   - its role's prompt files, in the order the design lists them: the
//     draft's design.draft_prompts (a system comparison's investigation
//     likewise), a review the prompts of its arm;
//   - then the data blocks TASK (the task file), EVIDENCE_PACKET (the task's
//     packet file; for a system-comparison review its investigation's
//     raw-observation file) and, for a review, COMMON_DRAFT (the raw output
//     of the draft or investigation named by inputs.draft_session_id).
//
// A system comparison's investigation receives TASK only. A not_dispatched
// session received nothing: the sha256 of no bytes and 0 bytes. Every
// dispatched draft, review and investigation must declare exactly its
// rendering's sha256 and byte count (rendered_input_mismatch, the execution
// is invalid); declared data_blocks must equal the rendering's blocks, and
// the reviews of one repetition must agree on them (pair_data_blocks_differ).

// SessionRendering is the rendering of one session's input.
type SessionRendering struct {
	SessionID string           `json:"session_id"`
	TaskID    string           `json:"task_id"`
	Role      string           `json:"role"`
	Arm       *string          `json:"arm"`
	Rendering tables.Rendering `json:"rendering"`
}

// errNotRendered says a session has no rendered input: it was not
// dispatched, or its role receives no prompt (preparation, adjudication).
var errNotRendered = errors.New("the session received no rendered prompt")

// RenderSession renders the input of the session with the given ID from
// the campaign's own prompt, task, packet and draft files. It returns an
// error when there is no such receipt, when the session received no
// rendered input, or when an input cannot be read or does not match its
// recorded hash. It reads the receipts in one pass, up to the session's
// receipt and, for a review, its draft's.
func RenderSession(c *tables.Campaign, answers tables.Answers, sessionID string) (SessionRendering, error) {
	v := newRunner(c, answers)
	var target *tables.Receipt
	for line := range c.Receipts.All() {
		r := &line.Record
		v.noteReceipt(r)
		if target == nil && r.SessionID == sessionID {
			target = new(tables.Receipt)
			*target = *r // kept: its draft may come later
		}
		if target != nil && !v.draftAfter(target) {
			break
		}
	}
	if target == nil {
		return SessionRendering{}, fmt.Errorf("no receipt has session_id %q", sessionID)
	}
	r := target
	rend, err := v.render(r)
	if err != nil {
		return SessionRendering{}, fmt.Errorf("session %s: %w", sessionID, err)
	}
	return SessionRendering{SessionID: r.SessionID, TaskID: r.TaskID, Role: r.Role, Arm: r.Arm, Rendering: rend}, nil
}

// EachRendering renders every dispatched draft, review and investigation
// session and passes each to yield as soon as it is rendered, so that one
// rendering at a time is held however many sessions the campaign has: in
// receipt order, except a review whose draft's receipt comes after it,
// which is rendered at the end of the pass, in receipt order among such
// reviews (the answers are asked for in file order; the reader prefetches
// them in that order). A session whose inputs cannot be rendered is
// passed to failed instead. An error from yield stops the pass and is
// returned.
func EachRendering(c *tables.Campaign, answers tables.Answers, yield func(SessionRendering) error, failed func(error)) error {
	v := newRunner(c, answers)
	var later []ordered
	render := func(r *tables.Receipt) error {
		rend, err := v.render(r)
		switch {
		case errors.Is(err, errNotRendered):
			return nil
		case err != nil:
			failed(fmt.Errorf("session %s: %w", r.SessionID, err))
			return nil
		}
		return yield(SessionRendering{SessionID: r.SessionID, TaskID: r.TaskID, Role: r.Role, Arm: r.Arm, Rendering: rend})
	}
	ord := 0
	for line := range c.Receipts.All() {
		r := &line.Record
		v.noteReceipt(r)
		if v.draftAfter(r) {
			later = append(later, ordered{ord: ord, r: *r})
		} else if err := render(r); err != nil {
			return err
		}
		ord++
	}
	for i := range later {
		if err := render(&later[i].r); err != nil {
			return err
		}
	}
	return nil
}

// ordered is a receipt kept for the end of a pass with its place in the
// file (its position among the receipts).
type ordered struct {
	ord int
	r   tables.Receipt
	sr  *sessionResult // its session, when validating
}

// render renders the input r's session must have received.
func (v *runner) render(r *tables.Receipt) (tables.Rendering, error) {
	if r.Status == tables.StatusNotDispatched {
		return tables.Rendering{}, errNotRendered
	}
	parts, err := v.renderParts(r)
	if err != nil {
		return tables.Rendering{}, err
	}
	return tables.Render(parts), nil
}

// renderParts assembles the parts of r's rendering.
func (v *runner) renderParts(r *tables.Receipt) ([]tables.RenderPart, error) {
	parts, _, err := v.renderPartsRead(r, v.readFrozen, nil, nil)
	return parts, err
}

// renderPartsRead is renderParts reading recorded outputs through read,
// appending the parts to buf[:0]. The first held parts are bytes the
// campaign holds (prompt, task and packet files), the rest bytes read
// through read (a draft's output, an investigation's raw observations).
// last, when not nil, is the output read last: a draft reference equal to
// it is passed to read as last itself rather than as a decoded copy.
func (v *runner) renderPartsRead(r *tables.Receipt, read func(*tables.OutputRef) ([]byte, error), last *tables.OutputRef, buf []tables.RenderPart) (parts []tables.RenderPart, held int, err error) {
	task := v.tasks[r.TaskID]
	if task == nil {
		return nil, 0, fmt.Errorf("task %q is not in the manifest", r.TaskID)
	}
	ids, ok := v.rolePrompts(r)
	if !ok {
		return nil, 0, errNotRendered
	}
	parts = slices.Grow(buf[:0], len(ids)+len(tables.DataBlockLabels))
	for _, id := range ids {
		data, ok := v.c.Prompts[id]
		if !ok {
			return nil, 0, fmt.Errorf("prompt file %q could not be read", id)
		}
		parts = append(parts, tables.RenderPart{Kind: v.prompts[id].Kind, ID: id, Data: data})
	}
	block := func(label string, data []byte) {
		parts = append(parts, tables.RenderPart{Kind: tables.PartKindData, ID: label, Data: data})
	}
	block(tables.BlockTask, task.Text)
	systems := v.c.Manifest.Kind == rules.KindSystemComparison
	held = len(parts)
	switch {
	case r.Role == tables.RoleDraft:
		block(tables.BlockEvidencePacket, task.PacketBytes)
		held = len(parts)
	case r.Role == tables.RoleInvestigation:
	case r.Role == tables.RoleReview:
		draftID := deref(r.Inputs.DraftSessionID)
		off, ok := v.firsts[draftID]
		var draft receiptFacts
		if ok {
			draft = v.facts.get(off, last)
		}
		if draft.output == nil {
			return nil, 0, fmt.Errorf("its draft session %q has no receipt with an output", draftID)
		}
		packet := task.PacketBytes
		if systems {
			if draft.observations == nil {
				return nil, 0, fmt.Errorf("its investigation %q recorded no raw observations", draftID)
			}
			obs, err := read(draft.observations)
			if err != nil {
				return nil, 0, fmt.Errorf("the raw observations %q of %q cannot be read or do not match their receipt", draft.observations.Path, draftID)
			}
			packet = obs
		}
		text, err := read(draft.output)
		if err != nil {
			return nil, 0, fmt.Errorf("the output %q of draft %q cannot be read or does not match its receipt", draft.output.Path, draftID)
		}
		block(tables.BlockEvidencePacket, packet)
		if !systems {
			held = len(parts)
		}
		block(tables.BlockCommonDraft, text)
	}
	return parts, held, nil
}

// readFrozen reads a recorded output that must match its receipt.
func (v *runner) readFrozen(out *tables.OutputRef) ([]byte, error) {
	data, matches, err := v.answers.Read(out)
	switch {
	case err != nil:
		return nil, err
	case !matches:
		return nil, errors.New("its bytes do not match the receipt")
	}
	return data, nil
}

// rolePrompts returns the prompt IDs the design renders for r's session,
// and false for a role that receives no prompt.
func (v *runner) rolePrompts(r *tables.Receipt) ([]string, bool) {
	d := &v.c.Manifest.Design
	switch r.Role {
	case tables.RoleDraft, tables.RoleInvestigation:
		if r.Arm != nil && v.c.Manifest.Kind != rules.KindSystemComparison {
			return nil, false
		}
		return d.DraftPrompts, true
	case tables.RoleReview:
		arm, ok := v.arms[deref(r.Arm)]
		return v.armPrompts(arm, r), ok
	}
	return nil, false
}

// noteReceipt records r's facts when r is the first receipt of its
// session ID, as the pass meets it. Every receipt is noted, whatever its
// role, so that a review naming any session finds what the file holds.
func (v *runner) noteReceipt(r *tables.Receipt) {
	if _, seen := v.firsts[r.SessionID]; !seen {
		v.firsts[r.SessionID] = v.facts.add(receiptFacts{output: r.Output, observations: r.Observations})
	}
}

// draftAfter reports whether r is a review whose draft's receipt the pass
// has not met yet: its rendering check then waits for the end of the
// pass, so that the answers are asked for in file order (the reader
// prefetches them in that order). A review naming no receipt at all also
// waits, and finds none at the end.
func (v *runner) draftAfter(r *tables.Receipt) bool {
	if r.Role != tables.RoleReview {
		return false
	}
	_, seen := v.firsts[deref(r.Inputs.DraftSessionID)]
	return !seen
}

// renderedInput checks the declared rendering of r, the receipt at place
// ord of the file, once its session sr has been validated, and files a
// review with data blocks under its repetition for pairsBlocks.
func (v *runner) renderedInput(ord int, r *tables.Receipt, sr *sessionResult) {
	if !sr.planned {
		return
	}
	if r.Status == tables.StatusNotDispatched {
		if r.Inputs.RenderedSHA256 != emptySHA256 && r.Inputs.RenderedSHA256 != "" || r.Inputs.RenderedBytes != 0 {
			v.invalidRendering(sr, fmt.Sprintf("The session was not dispatched, so it received nothing, but the receipt declares a rendered input of %d bytes with sha256 %s; the execution record is invalid.", r.Inputs.RenderedBytes, r.Inputs.RenderedSHA256))
		}
		return
	}
	rend, err := v.digests.digest(r)
	if err != nil {
		return // the reason is reported by the check that owns it
	}
	if bad := renderingDiffers(r, rend); bad != "" {
		v.invalidRendering(sr, bad)
	}
	if r.Role == tables.RoleReview && v.c.Manifest.Kind != rules.KindSystemComparison && len(r.Inputs.DataBlocks) > 0 {
		k := pairKey{task: sr.task, rep: r.Repetition, draft: deref(r.Inputs.DraftSessionID)}
		pr := pairReview{ord: ord, sr: sr, arm: sr.arm}
		if !blocksEqual(r.Inputs.DataBlocks, rend.Parts) {
			pr.blocks = &declaredBlocks{own: slices.Clone(r.Inputs.DataBlocks), rendered: dataBlocks(rend.Parts)}
		}
		reviews, ok := v.pairs[k]
		if !ok {
			reviews = v.pairSlab.two()
		}
		v.pairs[k] = append(reviews, pr)
	}
}

// pairKey names the reviews of one repetition: task, repetition and draft.
type pairKey struct {
	task  name
	rep   int64
	draft string
}

// pairReview is what pairBlocks compares of one review: its place in the
// file, its session and arm, and its declared data blocks when they are
// not its rendering's. The rendering's data blocks are the same for every
// review of a repetition (the task, packet and draft files its key names),
// so two reviews that declare their rendering's blocks declare the same
// blocks, and a review whose declared blocks differ from its rendering's
// differs from them: only such a review keeps blocks, a few in a broken
// record.
type pairReview struct {
	ord    int
	sr     *sessionResult
	arm    name
	blocks *declaredBlocks // nil: the rendering's data blocks
}

// declaredBlocks are a review's declared data blocks and its rendering's.
type declaredBlocks struct {
	own, rendered []tables.BlockDigest
}

// dataBlocks lists the data blocks of a rendering's parts.
func dataBlocks(parts []tables.RenderedPart) []tables.BlockDigest {
	var out []tables.BlockDigest
	for _, p := range parts {
		if p.Kind == tables.PartKindData {
			out = append(out, tables.BlockDigest{Label: p.ID, SHA256: p.SHA256, Bytes: p.Bytes})
		}
	}
	return out
}

// pairsBlocks applies pairBlocks to every repetition renderedInput filed,
// in the order of their keys, each repetition's reviews in file order.
func (v *runner) pairsBlocks() {
	keys := make([]pairKey, 0, len(v.pairs))
	for k := range v.pairs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b pairKey) int {
		return cmp.Or(cmp.Compare(v.names.str(a.task), v.names.str(b.task)), cmp.Compare(a.rep, b.rep), cmp.Compare(a.draft, b.draft))
	})
	for _, k := range keys {
		reviews := v.pairs[k]
		slices.SortFunc(reviews, func(a, b pairReview) int { return cmp.Compare(a.ord, b.ord) }) // a review checked late was filed late
		v.pairBlocks(reviews)
	}
}

// renderingDiffers describes how r's declared rendering differs from the
// campaign's, or returns "".
func renderingDiffers(r *tables.Receipt, rend tables.Rendering) string {
	in := &r.Inputs
	if in.RenderedSHA256 != rend.SHA256 || in.RenderedBytes != rend.Bytes {
		return fmt.Sprintf("The receipt declares a rendered input of %d bytes with sha256 %s, but the campaign's prompt, task, packet and draft files render (%s) to %d bytes with sha256 %s; the session did not receive the frozen input and the execution is invalid.",
			in.RenderedBytes, in.RenderedSHA256, tables.RenderRule, rend.Bytes, rend.SHA256)
	}
	if len(in.DataBlocks) == 0 || blocksEqual(in.DataBlocks, rend.Parts) {
		return ""
	}
	return fmt.Sprintf("The receipt's data_blocks %s differ from the rendering's %s; the execution record is invalid.", blockList(in.DataBlocks), blockList(dataBlocks(rend.Parts)))
}

// blocksEqual reports whether declared lists exactly the data blocks of
// parts, in order.
func blocksEqual(declared []tables.BlockDigest, parts []tables.RenderedPart) bool {
	i := 0
	for _, p := range parts {
		if p.Kind != tables.PartKindData {
			continue
		}
		if i == len(declared) || declared[i] != (tables.BlockDigest{Label: p.ID, SHA256: p.SHA256, Bytes: p.Bytes}) {
			return false
		}
		i++
	}
	return i == len(declared)
}

// pairBlocks requires the reviews of one repetition (same task, repetition
// and draft) to declare identical data blocks: both arms receive the same
// task, packet and draft bytes (rule C3).
func (v *runner) pairBlocks(reviews []pairReview) {
	first := &reviews[0]
	for _, r := range reviews[1:] {
		var blocks, firstBlocks []tables.BlockDigest
		switch {
		case r.blocks == nil && first.blocks == nil:
			continue // both the rendering's
		case r.blocks == nil:
			blocks, firstBlocks = first.blocks.rendered, first.blocks.own
		case first.blocks == nil:
			blocks, firstBlocks = r.blocks.own, r.blocks.rendered
		default:
			blocks, firstBlocks = r.blocks.own, first.blocks.own
			if slices.Equal(blocks, firstBlocks) {
				continue
			}
		}
		v.addReceipt(r.sr, rules.CodePairDataBlocksDiffer, fmt.Sprintf("Arm %s received data blocks %s but arm %s of the same repetition received %s: both arms of a pair must receive identical task, packet and draft bytes; the execution is invalid.",
			v.names.str(r.arm), blockList(blocks), v.names.str(first.arm), blockList(firstBlocks)))
		v.invalidate(r.sr)
	}
}

func blockList(bs []tables.BlockDigest) string {
	s := "["
	for i, b := range bs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s %d bytes %.12s…", b.Label, b.Bytes, b.SHA256)
	}
	return s + "]"
}

// invalidRendering reports a rendered-input mismatch and makes the
// session invalid.
func (v *runner) invalidRendering(sr *sessionResult, msg string) {
	v.addReceipt(sr, rules.CodeRenderedInputMismatch, msg)
	v.invalidate(sr)
}

// invalidate makes a dispatched session invalid: it did not receive its
// frozen input (V1/C17).
func (v *runner) invalidate(sr *sessionResult) {
	sr.identity = false
	if sr.class != classNotDispatched {
		sr.class = classInvalid
	}
}
