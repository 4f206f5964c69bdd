package rules

// Codes emitted by stages/load (rules L1–L3 and the input rules of I1–I7).
// Syntax codes come from the JSON tokenizer; schema codes from walking a
// document against its published JSON Schema (tables/schemas); campaign
// codes from reading the campaign directory and cross-checking its files.
const (
	// JSON syntax and resource limits.
	CodeJSONSyntax   Code = "json_syntax"
	CodeDuplicateKey Code = "duplicate_key"
	CodeInvalidUTF8  Code = "invalid_utf8"
	CodeTrailingData Code = "trailing_data"
	CodeTooDeep      Code = "too_deep"
	CodeTooLarge     Code = "too_large"

	// Generic JSON Schema keywords.
	CodeUnknownKey        Code = "unknown_key"
	CodeMissingKey        Code = "missing_key"
	CodeWrongType         Code = "wrong_type"
	CodeNullHole          Code = "null_hole"
	CodeEnumValue         Code = "enum_value"
	CodeFormatUnsupported Code = "format_unsupported"
	CodeStringLength      Code = "string_length"
	CodePatternMismatch   Code = "pattern_mismatch"
	CodeNumberNotInteger  Code = "number_not_integer"
	CodeNumberOutOfRange  Code = "number_out_of_range"
	CodeTooFewItems       Code = "too_few_items"
	CodeTooManyItems      Code = "too_many_items"
	CodeDuplicateItem     Code = "duplicate_item"

	// evalgate's own $defs.
	CodeTextEmpty         Code = "text_empty"
	CodeTextUntrimmed     Code = "text_untrimmed"
	CodeTextTooLong       Code = "text_too_long"
	CodeIDInvalid         Code = "id_invalid"
	CodeIDWrongPrefix     Code = "id_wrong_prefix"
	CodeDuplicateID       Code = "duplicate_id"
	CodePathInvalid       Code = "path_invalid"
	CodeLineInvalid       Code = "line_invalid"
	CodeHashInvalid       Code = "hash_invalid"
	CodeTimestampInvalid  Code = "timestamp_invalid"
	CodeDateInvalid       Code = "date_invalid"
	CodeIdentifierInvalid Code = "identifier_invalid"
	CodeDecimalInvalid    Code = "decimal_invalid"
	CodePriceInvalid      Code = "price_invalid"
	CodeIdentityMissing   Code = "identity_missing"

	// Campaign files and cross-checks.
	CodeFileMissing            Code = "file_missing"
	CodeFileUnreadable         Code = "file_unreadable"
	CodeHashMismatch           Code = "hash_mismatch"
	CodeResponseSchemaMismatch Code = "response_schema_mismatch"
	CodeUnknownTask            Code = "unknown_task"
	CodeUnknownArm             Code = "unknown_arm"
	CodeUnknownPrompt          Code = "unknown_prompt"
	CodeOrderNotPermutation    Code = "order_not_permutation"
	CodeSlotDuplicate          Code = "slot_duplicate"
	CodeSlotMissing            Code = "slot_missing"
	CodeSlotOutOfRange         Code = "slot_out_of_range"
	CodeDesignInvalid          Code = "design_invalid"
	CodeDesignNoTreatment      Code = "design_no_treatment"
	CodePacketItemCount        Code = "packet_item_count"
	CodeTaskMismatch           Code = "task_mismatch"
	CodeLineRangeInvalid       Code = "line_range_invalid"
	CodeSourceLinesOutOfRange  Code = "source_lines_out_of_range"
	CodePacketTextMismatch     Code = "packet_text_mismatch"
	CodeTruthAnswerableTooFew  Code = "truth_answerable_too_few"
	CodeUnknownEvidenceID      Code = "unknown_evidence_id"
	CodeBlankLine              Code = "blank_line"
	CodeLineTooLong            Code = "line_too_long"
	CodeKindUnsupported        Code = "kind_unsupported"
	CodeOracleNotIndependent   Code = "oracle_not_independent"
)

var loadCodes = []CodeDoc{
	{CodeJSONSyntax, "load", "L1", "The document is not well-formed JSON."},
	{CodeDuplicateKey, "load", "L1", "An object has two members with the same name."},
	{CodeInvalidUTF8, "load", "L1", "A string holds invalid UTF-8 or an escaped lone surrogate."},
	{CodeTrailingData, "load", "L1", "Something follows the document's single top-level value."},
	{CodeTooDeep, "load", "L2", "JSON nesting is deeper than 64 levels."},
	{CodeTooLarge, "load", "L2", "A file or JSONL line exceeds its documented size cap."},
	{CodeUnknownKey, "load", "L1", "An object has a member its schema does not define."},
	{CodeMissingKey, "load", "L1", "A required member is absent (nullable members are required too)."},
	{CodeWrongType, "load", "L1", "A value has the wrong JSON type, including null where the schema does not allow it."},
	{CodeNullHole, "load", "L1", "An array element is null (arrays are dense)."},
	{CodeEnumValue, "load", "L1", "A string is not one of the values its schema enumerates."},
	{CodeFormatUnsupported, "load", "I1", "The document's format member names a format or major version this reader does not know."},
	{CodeStringLength, "load", "L1", "A string is shorter or longer than its schema allows."},
	{CodePatternMismatch, "load", "L1", "A string does not match its schema pattern."},
	{CodeNumberNotInteger, "load", "L1", "A number that must be an integer has a fraction or an exponent (1.0 and 1e2 are refused)."},
	{CodeNumberOutOfRange, "load", "L1", "An integer lies outside its schema's minimum..maximum."},
	{CodeTooFewItems, "load", "L1", "An array has fewer elements than its schema requires."},
	{CodeTooManyItems, "load", "L1", "An array has more elements than its cap."},
	{CodeDuplicateItem, "load", "L1", "An ID or evidence array repeats an element."},
	{CodeTextEmpty, "load", "L1", "A text field is empty."},
	{CodeTextUntrimmed, "load", "L1", "A text field has leading or trailing white space."},
	{CodeTextTooLong, "load", "L1", "A text field has more than 2,048 Unicode scalar values."},
	{CodeIDInvalid, "load", "L1", "An ID is not a type letter followed by a decimal integer without leading zeros."},
	{CodeIDWrongPrefix, "load", "L1", "A well-formed ID has a type letter the field does not accept."},
	{CodeDuplicateID, "load", "L1", "Two records of the same type share an ID."},
	{CodePathInvalid, "load", "L1", "A path is not POSIX relative without '..', '.', empty segments, backslashes or NUL."},
	{CodeLineInvalid, "load", "L1", "A line number is not a positive JSON integer at most 2^53-1."},
	{CodeHashInvalid, "load", "I1", "A sha256 is not 64 lowercase hex digits or a commit not 40."},
	{CodeTimestampInvalid, "load", "I5", "A timestamp is not RFC 3339 in UTC with a literal Z."},
	{CodeDateInvalid, "load", "I1", "A date is not a valid YYYY-MM-DD calendar date."},
	{CodeIdentifierInvalid, "load", "I1", "A campaign-level identifier does not match ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$."},
	{CodeDecimalInvalid, "load", "A1", "A money or threshold decimal is not a non-negative decimal with at most 12 fractional digits in range."},
	{CodePriceInvalid, "load", "A1", "A price is not a non-negative decimal with at most 6 fractional digits."},
	{CodeIdentityMissing, "load", "I1", "A required execution identity of the manifest is empty; it is never filled in."},
	{CodeFileMissing, "load", "I1", "A file the campaign format or the manifest requires does not exist."},
	{CodeFileUnreadable, "load", "L2", "A file exists but cannot be read."},
	{CodeHashMismatch, "load", "I1", "A file's sha256 differs from the hash the manifest or its content address names."},
	{CodeResponseSchemaMismatch, "load", "L3", "The manifest's response_schema_sha256 is not the digest of the published answer schema."},
	{CodeUnknownTask, "load", "I1", "A schedule slot names a task the design does not list."},
	{CodeUnknownArm, "load", "I1", "A schedule order names an arm the design does not list."},
	{CodeUnknownPrompt, "load", "I1", "An arm or the draft names a prompt ID the manifest does not list."},
	{CodeOrderNotPermutation, "load", "I1", "A schedule order is not a permutation of the design's arms."},
	{CodeSlotDuplicate, "load", "I1", "A (task, repetition) slot is scheduled more than once."},
	{CodeSlotMissing, "load", "I1", "A (task, repetition) slot for repetition 1..repetitions is not scheduled."},
	{CodeSlotOutOfRange, "load", "I1", "A schedule slot's repetition exceeds design.repetitions."},
	{CodeDesignInvalid, "load", "I1", "design.packet_item_min exceeds design.packet_item_max."},
	{CodeDesignNoTreatment, "load", "I1", "The design lists only the baseline arm, so no treatment arm can be judged against it and the campaign gets no verdict."},
	{CodePacketItemCount, "load", "I2", "A packet's item count lies outside design.packet_item_min..packet_item_max."},
	{CodeTaskMismatch, "load", "I2", "A packet or truth names a different task or repository than the manifest's task entry."},
	{CodeLineRangeInvalid, "load", "I2", "A packet item's start_line exceeds its end_line."},
	{CodeSourceLinesOutOfRange, "load", "I3/C09", "A packet item's lines lie beyond the source file's physical lines."},
	{CodePacketTextMismatch, "load", "I2/I3", "A packet item's text is not the exact bytes of its source lines."},
	{CodeTruthAnswerableTooFew, "load", "I4", "A truth has fewer than two answerable obligations."},
	{CodeUnknownEvidenceID, "load", "I4", "A truth obligation names an evidence ID its task's packet does not have."},
	{CodeBlankLine, "load", "I5", "A JSONL file has a blank line."},
	{CodeLineTooLong, "load", "L2", "A JSONL line exceeds the 1 MiB line cap."},
	{CodeKindUnsupported, "load", "I1", "The manifest's kind is one this version of evalgate cannot evaluate yet; it is refused, never judged as another kind."},
	{CodeOracleNotIndependent, "load", "I4", "A truth's oracle names the same person as truth checker and second source reviewer; the oracle needs two people."},
}
