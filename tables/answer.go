package tables

// Answer is the response contract (rules L1, V5):
// the JSON document every draft, review and reconciliation session returns.
// Every key is required, nullable keys included; no other key is allowed.
// Decoding and the structural rules live in stages/load and stages/validate;
// this file only names the shape.
type Answer struct {
	Final          Final           `json:"final"`
	Reconciliation *Reconciliation `json:"reconciliation"` // null for draft D and review A
}

// Final is the revised final answer shown to semantic graders.
type Final struct {
	Claims             []Claim        `json:"claims"`              // at most 32
	ImplementationPlan []Action       `json:"implementation_plan"` // at most 32
	VerificationPlan   []Verification `json:"verification_plan"`   // at most 32
	Uncertainties      []Uncertainty  `json:"uncertainties"`       // at most 32
	Exclusions         []Exclusion    `json:"exclusions"`          // at most 64
	Citations          []Citation     `json:"citations"`           // at most 128
}

// Claim statuses.
const (
	ClaimSourceBacked = "source_backed"
	ClaimInference    = "inference"
	ClaimUnknown      = "unknown"
)

// Support bases of actions, verifications and obligations.
const (
	BasisSource        = "source"
	BasisTask          = "task"
	BasisMissingSource = "missing_source" // verifications only
)

// Claim is one statement of the final answer.
type Claim struct {
	ID            string   `json:"id"` // C<n>
	Text          string   `json:"text"`
	Status        string   `json:"status"`       // source_backed, inference, unknown
	EvidenceIDs   []string `json:"evidence_ids"` // E<n>, unique
	UncertaintyID *string  `json:"uncertainty_id"`
}

// Action is one step of the implementation plan.
type Action struct {
	ID                     string   `json:"id"` // A<n>
	Action                 string   `json:"action"`
	Rationale              string   `json:"rationale"`
	SupportBasis           string   `json:"support_basis"` // source, task
	EvidenceIDs            []string `json:"evidence_ids"`
	VerificationIDs        []string `json:"verification_ids"` // V<n>, unique
	VerificationLimitation *string  `json:"verification_limitation"`
}

// Verification is one step of the verification plan.
type Verification struct {
	ID               string   `json:"id"` // V<n>
	ExpectedBehavior string   `json:"expected_behavior"`
	Method           string   `json:"method"`
	SupportBasis     string   `json:"support_basis"` // source, task, missing_source
	EvidenceIDs      []string `json:"evidence_ids"`
	UncertaintyID    *string  `json:"uncertainty_id"`
}

// Uncertainty names a missing fact and a bounded way to verify it.
type Uncertainty struct {
	ID                 string `json:"id"` // U<n>
	MissingInformation string `json:"missing_information"`
	Consequence        string `json:"consequence"`
	VerificationStep   string `json:"verification_step"`
}

// Exclusion is a justified scope exclusion, visible to semantic graders.
type Exclusion struct {
	ID          string   `json:"id"` // X<n>
	ScopeItem   string   `json:"scope_item"`
	Reason      string   `json:"reason"`
	EvidenceIDs []string `json:"evidence_ids"`
}

// Citation binds a physical source span of one evidence item to final records.
type Citation struct {
	EvidenceID string   `json:"evidence_id"`
	Path       string   `json:"path"`
	StartLine  int64    `json:"start_line"`
	EndLine    int64    `json:"end_line"`
	Supports   []string `json:"supports"` // nonempty; final C/A/V/X IDs
}

// Reconciliation is review B's record: obligations and one disposition per
// packet evidence ID.
type Reconciliation struct {
	Obligations          []Obligation  `json:"obligations"`           // 1–16
	EvidenceDispositions []Disposition `json:"evidence_dispositions"` // exactly the packet E-ID set
}

// Obligation statuses.
const (
	ObligationAddressed  = "addressed"
	ObligationExcluded   = "excluded"
	ObligationUnresolved = "unresolved"
)

// Obligation is one obligation derived by the reconciliation reviewer.
type Obligation struct {
	ID          string   `json:"id"` // O<n>
	Text        string   `json:"text"`
	Basis       string   `json:"basis"`  // task, source
	Status      string   `json:"status"` // addressed, excluded, unresolved
	EvidenceIDs []string `json:"evidence_ids"`
	FinalIDs    []string `json:"final_ids"` // nonempty; final C/A/V/U/X IDs
}

// Disposition statuses.
const (
	DispositionUsed       = "used"
	DispositionExcluded   = "excluded"
	DispositionUnresolved = "unresolved"
)

// Disposition is the one disposition of one packet evidence ID.
type Disposition struct {
	EvidenceID string   `json:"evidence_id"`
	Status     string   `json:"status"`    // used, excluded, unresolved
	FinalIDs   []string `json:"final_ids"` // nonempty; final C/A/V/U/X IDs
}
