package tables

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// RenderRule names the version of the prompt rendering rule below
// (docs/prompts.md). A live runner that reproduces it byte for byte
// produces the rendered_sha256 and rendered_bytes its receipts must carry.
const RenderRule = "evalgate.render/v1"

// Prompt part kinds (manifest prompts[].kind): what a prompt file is to the
// session that receives it.
const (
	PartCommon               = "common_instruction"       // the common instruction of every fixed-evidence session
	PartRole                 = "role_instruction"         // the draft's, an arm's or a review protocol's own instruction
	PartInvestigator         = "investigator_instruction" // a system comparison's standalone investigation instruction
	PartFinalAnswerSchema    = "final_answer_schema"      // the common final-answer schema
	PartReconciliationSchema = "reconciliation_schema"    // the reconciliation review's additional schema
)

// PartKinds lists every prompt part kind in render order.
var PartKinds = []string{PartCommon, PartInvestigator, PartRole, PartFinalAnswerSchema, PartReconciliationSchema}

// Data block labels, in the order the rule renders them.
const (
	BlockTask           = "TASK"
	BlockEvidencePacket = "EVIDENCE_PACKET"
	BlockCommonDraft    = "COMMON_DRAFT"
)

// DataBlockLabels lists the data block labels in render order.
var DataBlockLabels = []string{BlockTask, BlockEvidencePacket, BlockCommonDraft}

// RenderPart is one input of a rendering: a prompt file (Kind one of the
// Part* kinds, ID its manifest ID) or a data block (Kind "data", ID its
// label).
type RenderPart struct {
	Kind string
	ID   string
	Data []byte
}

// PartKindData is the Kind of a data block part.
const PartKindData = "data"

// RenderedPart is one part of a rendering with the digest of its own bytes
// (the file or data block, unframed) and the number of bytes it occupies in
// the rendering (framing included).
type RenderedPart struct {
	Kind          string `json:"kind"`
	ID            string `json:"id"`
	SHA256        string `json:"sha256"`
	Bytes         int64  `json:"bytes"`
	RenderedBytes int64  `json:"rendered_bytes"`
}

// Rendering is the exact input one session receives.
type Rendering struct {
	Rule   string         `json:"rule"`
	SHA256 string         `json:"sha256"`
	Bytes  int64          `json:"bytes"`
	Parts  []RenderedPart `json:"parts"`
	Data   []byte         `json:"-"`
}

// Render applies the rendering rule to parts, in the order given:
//
//   - an instruction part (common, role or investigator) is its file's
//     bytes, verbatim;
//   - a schema part is framed as a block labelled FINAL_ANSWER_SCHEMA or
//     RECONCILIATION_SCHEMA;
//   - a data block is framed with its label (TASK, EVIDENCE_PACKET,
//     COMMON_DRAFT).
//
// A frame is "\n=== BEGIN <LABEL> (<n> bytes) ===\n", the n bytes, then
// "\n=== END <LABEL> ===\n"; the byte count makes a block unambiguous
// whatever its bytes contain. Render checks nothing: which parts a role
// receives, and in which order, are rules of stages/validate.
func Render(parts []RenderPart) Rendering {
	r := Rendering{Rule: RenderRule, Parts: make([]RenderedPart, 0, len(parts))}
	for _, p := range parts {
		before := len(r.Data)
		r.Data = AppendFrameHead(r.Data, p)
		r.Data = append(r.Data, p.Data...)
		r.Data = AppendFrameTail(r.Data, p)
		r.Parts = append(r.Parts, RenderedPart{
			Kind: p.Kind, ID: p.ID, SHA256: SHA256Hex(p.Data),
			Bytes: int64(len(p.Data)), RenderedBytes: int64(len(r.Data) - before),
		})
	}
	r.SHA256, r.Bytes = SHA256Hex(r.Data), int64(len(r.Data))
	return r
}

// AppendFrameHead appends to dst what the rule renders before p's bytes: a
// frame's BEGIN line for a schema or data block, nothing for an
// instruction. A rendering is the concatenation of head, bytes and tail
// (AppendFrameTail) of every part, which lets a caller hash one without
// building it.
func AppendFrameHead(dst []byte, p RenderPart) []byte {
	label, framed := frameLabel(p)
	if !framed {
		return dst
	}
	dst = append(dst, frameBegin...)
	dst = append(dst, label...)
	dst = append(dst, " ("...)
	dst = strconv.AppendInt(dst, int64(len(p.Data)), 10)
	return append(dst, frameBytes...)
}

// AppendFrameTail appends to dst what the rule renders after p's bytes: a
// frame's END line for a schema or data block, nothing for an
// instruction.
func AppendFrameTail(dst []byte, p RenderPart) []byte {
	label, framed := frameLabel(p)
	if !framed {
		return dst
	}
	dst = append(dst, frameEnd...)
	dst = append(dst, label...)
	return append(dst, frameClose...)
}

// FrameLen is the number of bytes AppendFrameHead and AppendFrameTail
// append for p together: a part occupies them and its own bytes.
func FrameLen(p RenderPart) int {
	label, framed := frameLabel(p)
	if !framed {
		return 0
	}
	digits := 1
	for n := len(p.Data); n >= 10; n /= 10 {
		digits++
	}
	return len(frameBegin) + len(label) + len(" (") + digits + len(frameBytes) + len(frameEnd) + len(label) + len(frameClose)
}

// The fixed text of a frame: "\n=== BEGIN <LABEL> (<n> bytes) ===\n" before
// a part's bytes, "\n=== END <LABEL> ===\n" after them.
const (
	frameBegin = "\n=== BEGIN "
	frameBytes = " bytes) ===\n"
	frameEnd   = "\n=== END "
	frameClose = " ===\n"
)

// frameLabel returns the label a part is framed with, or false for an
// instruction rendered verbatim.
func frameLabel(p RenderPart) (string, bool) {
	switch p.Kind {
	case PartKindData:
		return p.ID, true
	case PartFinalAnswerSchema:
		return "FINAL_ANSWER_SCHEMA", true
	case PartReconciliationSchema:
		return "RECONCILIATION_SCHEMA", true
	}
	return "", false
}

// SHA256Hex is the lowercase hex sha256 of data.
func SHA256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
