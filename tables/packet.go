package tables

import "time"

// Packet is one task's immutable evidence packet (rule I2).
type Packet struct {
	Format              string       `json:"format"` // FormatPacket
	TaskID              string       `json:"task_id"`
	Repository          string       `json:"repository"`
	Commit              string       `json:"commit"` // 40 hex digits
	ConstructedComplete bool         `json:"constructed_complete"`
	Items               []PacketItem `json:"items"`
	// RawObservations marks a raw-observation packet of a system
	// comparison: the observations one investigation session actually
	// received, E1..EN in completion order, unfiltered (rule G5: "frozen
	// investigation and packet procedure"). Optional; false for the
	// authenticated excerpt packets of tasks.
	RawObservations bool `json:"raw_observations,omitzero"`
}

// PacketItem is one excerpt. Text holds the exact bytes of lines
// StartLine..EndLine of the source file whose sha256 is FileSHA256, each line
// with its terminating newline except possibly the file's last line. The
// source file itself is stored content-addressed at sources/<FileSHA256>.
type PacketItem struct {
	ID         string `json:"id"` // E<n>
	Path       string `json:"path"`
	StartLine  int64  `json:"start_line"`
	EndLine    int64  `json:"end_line"`
	FileSHA256 string `json:"file_sha256"`
	Text       string `json:"text"`
}

// Truth is the frozen oracle of one task (rule I4).
type Truth struct {
	Format      string            `json:"format"` // FormatTruth
	TaskID      string            `json:"task_id"`
	Obligations []TruthObligation `json:"obligations"` // 4–8
	Oracle      Oracle            `json:"oracle"`
}

// TruthObligation is one behaviourally meaningful obligation.
type TruthObligation struct {
	ID                   string   `json:"id"` // O<n>
	Text                 string   `json:"text"`
	Critical             bool     `json:"critical"`
	Answerable           bool     `json:"answerable"` // answerable from the packet
	SourceJustification  string   `json:"source_justification"`
	EvidenceIDs          []string `json:"evidence_ids"`
	AcceptedAlternatives []string `json:"accepted_alternatives"`
	RequiredVerification string   `json:"required_verification"`
	JustifiedExclusions  []string `json:"justified_exclusions"`
}

// Oracle records the truth checker's and second reviewer's sign-off.
type Oracle struct {
	Checker        string    `json:"checker"`
	SecondReviewer string    `json:"second_reviewer"`
	SignedOffAt    time.Time `json:"signed_off_at"`
	Defective      bool      `json:"defective"` // C22: the oracle itself was found defective
	DefectNote     *string   `json:"defect_note"`
}
