package validate

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

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
// recorded hash.
func RenderSession(c *tables.Campaign, answers tables.Answers, sessionID string) (SessionRendering, error) {
	v := newRunner(c, answers)
	for i := range c.Receipts {
		r := &c.Receipts[i].Record
		if r.SessionID != sessionID {
			continue
		}
		rend, err := v.render(r)
		if err != nil {
			return SessionRendering{}, fmt.Errorf("session %s: %w", sessionID, err)
		}
		return SessionRendering{SessionID: r.SessionID, TaskID: r.TaskID, Role: r.Role, Arm: r.Arm, Rendering: rend}, nil
	}
	return SessionRendering{}, fmt.Errorf("no receipt has session_id %q", sessionID)
}

// RenderAll renders every dispatched draft, review and investigation
// session, in receipt order; sessions whose inputs cannot be rendered are
// skipped and listed in the returned errors.
func RenderAll(c *tables.Campaign, answers tables.Answers) ([]SessionRendering, []error) {
	v := newRunner(c, answers)
	var out []SessionRendering
	var errs []error
	for i := range c.Receipts {
		r := &c.Receipts[i].Record
		rend, err := v.render(r)
		switch {
		case errors.Is(err, errNotRendered):
			continue
		case err != nil:
			errs = append(errs, fmt.Errorf("session %s: %w", r.SessionID, err))
			continue
		}
		out = append(out, SessionRendering{SessionID: r.SessionID, TaskID: r.TaskID, Role: r.Role, Arm: r.Arm, Rendering: rend})
	}
	return out, errs
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
	parts, _, err := v.renderPartsRead(r, v.readFrozen, nil)
	return parts, err
}

// renderPartsRead is renderParts reading recorded outputs through read,
// appending the parts to buf[:0]. The first held parts are bytes the
// campaign holds (prompt, task and packet files), the rest bytes read
// through read (a draft's output, an investigation's raw observations).
func (v *runner) renderPartsRead(r *tables.Receipt, read func(*tables.OutputRef) ([]byte, error), buf []tables.RenderPart) (parts []tables.RenderPart, held int, err error) {
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
	systems := v.c.Manifest.Kind == tables.KindSystemComparison
	held = len(parts)
	switch {
	case r.Role == tables.RoleDraft:
		block(tables.BlockEvidencePacket, task.PacketBytes)
		held = len(parts)
	case r.Role == tables.RoleInvestigation:
	case r.Role == tables.RoleReview:
		draft := v.receipt(deref(r.Inputs.DraftSessionID))
		if draft == nil || draft.Output == nil {
			return nil, 0, fmt.Errorf("its draft session %q has no receipt with an output", deref(r.Inputs.DraftSessionID))
		}
		packet := task.PacketBytes
		if systems {
			if draft.Observations == nil {
				return nil, 0, fmt.Errorf("its investigation %q recorded no raw observations", draft.SessionID)
			}
			obs, err := read(draft.Observations)
			if err != nil {
				return nil, 0, fmt.Errorf("the raw observations %q of %q cannot be read or do not match their receipt", draft.Observations.Path, draft.SessionID)
			}
			packet = obs
		}
		text, err := read(draft.Output)
		if err != nil {
			return nil, 0, fmt.Errorf("the output %q of draft %q cannot be read or does not match its receipt", draft.Output.Path, draft.SessionID)
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
		if r.Arm != nil && v.c.Manifest.Kind != tables.KindSystemComparison {
			return nil, false
		}
		return d.DraftPrompts, true
	case tables.RoleReview:
		arm, ok := v.arms[deref(r.Arm)]
		return arm.Prompts, ok
	}
	return nil, false
}

// receipt returns the first receipt with the given session ID, or nil.
// The index is built once, so that looking up every review's draft costs
// time linear in the receipts, not quadratic.
func (v *runner) receipt(sessionID string) *tables.Receipt {
	if i, ok := v.receiptIndex(sessionID); ok {
		return &v.c.Receipts[i].Record
	}
	return nil
}

// receiptIndex is the position of receipt(sessionID) in c.Receipts.
func (v *runner) receiptIndex(sessionID string) (int, bool) {
	if sessionID == "" {
		return 0, false
	}
	if v.firstReceipt == nil {
		v.firstReceipt = make(map[string]int, len(v.c.Receipts))
		for i := range v.c.Receipts {
			if _, seen := v.firstReceipt[v.c.Receipts[i].Record.SessionID]; !seen {
				v.firstReceipt[v.c.Receipts[i].Record.SessionID] = i
			}
		}
	}
	i, ok := v.firstReceipt[sessionID]
	return i, ok
}

// draftAfter reports whether c.Receipts[i] is a review whose draft's
// receipt comes after it: its rendering check then waits for the end of
// the pass, so that the answers are asked for in file order (the reader
// prefetches them in that order).
func (v *runner) draftAfter(i int) bool {
	r := &v.c.Receipts[i].Record
	if r.Role != tables.RoleReview {
		return false
	}
	d, ok := v.receiptIndex(deref(r.Inputs.DraftSessionID))
	return ok && d > i
}

// renderedInputs checks every receipt's declared rendering against the
// campaign's (C3, V1/C17). It runs after every session has been opened:
// v.sessions[i] is the row of c.Receipts[i].
func (v *runner) renderedInputs() {
	for i := range v.c.Receipts {
		v.renderedInput(i)
	}
	v.pairsBlocks()
}

// renderedInput checks the declared rendering of c.Receipts[i], once its
// session v.sessions[i] has been validated, and files a review with data
// blocks under its repetition for pairsBlocks.
func (v *runner) renderedInput(i int) {
	r, sr := &v.c.Receipts[i].Record, v.sessions[i]
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
	if r.Role == tables.RoleReview && v.c.Manifest.Kind != tables.KindSystemComparison && len(r.Inputs.DataBlocks) > 0 {
		k := [3]string{r.TaskID, strconv.FormatInt(r.Repetition, 10), deref(r.Inputs.DraftSessionID)}
		v.pairs[k] = append(v.pairs[k], i)
	}
}

// pairsBlocks applies pairBlocks to every repetition renderedInput filed,
// in the order of their keys, each repetition's reviews in file order.
func (v *runner) pairsBlocks() {
	keys := make([][3]string, 0, len(v.pairs))
	for k := range v.pairs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [3]string) int { return slices.Compare(a[:], b[:]) })
	for _, k := range keys {
		slices.Sort(v.pairs[k]) // a review checked late was filed late
		v.pairBlocks(v.pairs[k])
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
	var want []tables.BlockDigest
	for _, p := range rend.Parts {
		if p.Kind == tables.PartKindData {
			want = append(want, tables.BlockDigest{Label: p.ID, SHA256: p.SHA256, Bytes: p.Bytes})
		}
	}
	return fmt.Sprintf("The receipt's data_blocks %s differ from the rendering's %s; the execution record is invalid.", blockList(in.DataBlocks), blockList(want))
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
func (v *runner) pairBlocks(idx []int) {
	first := &v.c.Receipts[idx[0]].Record
	for _, i := range idx[1:] {
		r := &v.c.Receipts[i].Record
		if slices.Equal(r.Inputs.DataBlocks, first.Inputs.DataBlocks) {
			continue
		}
		sr := v.sessions[i]
		v.addReceipt(sr, tables.CodePairDataBlocksDiffer, fmt.Sprintf("Arm %s received data blocks %s but arm %s of the same repetition received %s: both arms of a pair must receive identical task, packet and draft bytes; the execution is invalid.",
			deref(r.Arm), blockList(r.Inputs.DataBlocks), deref(first.Arm), blockList(first.Inputs.DataBlocks)))
		v.invalidate(sr)
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
	v.addReceipt(sr, tables.CodeRenderedInputMismatch, msg)
	v.invalidate(sr)
}

// invalidate makes a dispatched session invalid: it did not receive its
// frozen input (V1/C17).
func (v *runner) invalidate(sr *sessionResult) {
	sr.row.IdentityMatches = false
	if sr.row.Classification != tables.ClassNotDispatched {
		sr.row.Classification = tables.ClassInvalid
	}
}
