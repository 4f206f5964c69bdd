package rules

// Codes of prompt custody (rules C3, V1/C17), emitted by
// stages/validate (render.go, prompt_parts.go). All reject: a session that
// did not receive its frozen input is an invalid execution, and a design
// that gives a role another role's instruction or schema cannot measure the
// intervention.
const (
	CodeRenderedInputMismatch                 Code = "rendered_input_mismatch"
	CodePairDataBlocksDiffer                  Code = "pair_data_blocks_differ"
	CodePromptKindMissing                     Code = "prompt_kind_missing"
	CodePromptPartsInvalid                    Code = "prompt_parts_invalid"
	CodePromptReconciliationInstructionLeaked Code = "prompt_reconciliation_instruction_leaked"
	CodePromptReconciliationSchemaLeaked      Code = "prompt_reconciliation_schema_leaked"
)

var promptCodes = []CodeDoc{
	{CodeRenderedInputMismatch, "validate", "C3/V1/C17", "A receipt's rendered_sha256 or rendered_bytes (or a declared data block) differs from the rendering of the campaign's own prompt, task, packet and draft files (docs/prompts.md): the session did not receive its frozen input and the execution is invalid."},
	{CodePairDataBlocksDiffer, "validate", "C3/V1", "The reviews of one repetition declare different TASK, EVIDENCE_PACKET or COMMON_DRAFT blocks: both arms of a pair must receive identical data bytes; the execution is invalid."},
	{CodePromptKindMissing, "validate", "C3/I1", "A prompt file a role receives declares no kind (common_instruction, role_instruction, final_answer_schema, ...), so its rendered parts cannot be checked."},
	{CodePromptPartsInvalid, "validate", "C3", "A role does not receive exactly its parts in order (common instruction, role instruction, final-answer schema, and for the reconciliation arm the reconciliation schema; an investigation only its investigator instruction), or roles receive different common instruction, schema or (system comparison) review bytes."},
	{CodePromptReconciliationInstructionLeaked, "validate", "C3", "The draft or an ordinary review receives the reconciliation review's instruction (by ID or identical bytes)."},
	{CodePromptReconciliationSchemaLeaked, "validate", "C3", "The draft or an ordinary review receives the reconciliation schema."},
}
