package tables

import (
	"crypto/sha256"
	"encoding/hex"
)

// The contract's named role instructions (contract #741 PROMPTS: "Draft
// D" and "Ordinary review A"), each its text verbatim with one final
// newline. The draft and the ordinary review of a paired review receive
// exactly these bytes (rule D6); the reconciliation review's instruction
// may be revised once in development, so it is not fixed here.
const (
	ContractDraftInstruction          = "Inputs: TASK and EVIDENCE_PACKET.\n\nProduce one initial answer using the common instruction. Do not create a reconciliation record. Set reconciliation to null. This draft is not a graded treatment result and will be supplied unchanged to both review arms.\n"
	ContractOrdinaryReviewInstruction = "Inputs: TASK, EVIDENCE_PACKET and COMMON_DRAFT.\n\nReview the draft against the task and source evidence. Check for omitted required behavior, unsupported claims, unjustified scope exclusions, missing verification and insufficient evidence. Correct what the evidence supports; retain precise uncertainty where it does not. Produce the revised final answer once, within the same response allowance. Set reconciliation to null.\n"
)

// ContractInstructionSHA256 is the sha256 of a named instruction's bytes.
func ContractInstructionSHA256(text string) string {
	s := sha256.Sum256([]byte(text))
	return hex.EncodeToString(s[:])
}
