package tables

// PromptOverhead is what a non-baseline arm's prompts add to the
// baseline's in a paired review (rule C3): the instruction and schema
// parts that differ between the two arms, the rendered bytes each session
// of the arm receives beyond the baseline's (data blocks are identical
// within a pair, so they cancel), and the input tokens the receipts count
// for that difference.
type PromptOverhead struct {
	Arm, Baseline string
	// ArmOnly and BaselineOnly are the prompt parts one arm receives and
	// the other does not (same ID and bytes is the same part), in render
	// order, each with the bytes it occupies in the rendering.
	ArmOnly, BaselineOnly []PromptPartBytes
	// Bytes is Σ ArmOnly − Σ BaselineOnly rendered bytes.
	Bytes int64
	// Pairs is the number of (task, repetition) whose two reviews were both
	// dispatched; MeteredPairs those whose two reviews both have a meter,
	// and InputTokens the sum over them of the arm's cumulative input minus
	// the baseline's.
	Pairs, MeteredPairs, InputTokens int64
}

// PromptPartBytes is one prompt part of a rendering and its rendered bytes
// (framing included).
type PromptPartBytes struct {
	ID, Kind      string
	RenderedBytes int64
}
