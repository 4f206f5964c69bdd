package tables

import (
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
)

// The typed outputs of the pipeline's stages. Each stage returns one of
// these values and reads only the outputs it is given; stages/run.go is the
// one place they are assembled into a [Set]. The types live here because a
// stage never imports another stage.

// Validated is what the validate stage produces: one session row per
// receipt and per planned session without one (spooled, sorted by task,
// repetition, attempt, role, arm, session and status), the citation and
// disposition rows of every decoded answer (spooled: only the report writes
// them), and the stage's findings, sorted.
type Validated struct {
	Sessions     *spool.Spool[Session]
	Citations    *spool.Spool[CitationRow]
	Dispositions *spool.Spool[DispositionRow]
	// CitationCounts is a column beside Sessions, the fact the score stage
	// reads of the citation rows: its i-th value belongs to the i-th row
	// Sessions.All yields and is the number of citations of the final part
	// of its session's decoded answer, or [NoCitationCount] when no answer
	// of that session decoded. Every row of a session ID has the same
	// value: a session whose receipt is duplicated has its rows twice but
	// its answer's count once (the larger, should the two answers differ).
	CitationCounts []int64
	Replacements   Replacements // the replacement allowance, a fact the aggregate stage reads
	// PromptVersions is the prompt_versions table: the role instructions
	// of a paired review's development flow and the one revision's
	// versions with its diff (rule G8); nil without a development flow.
	PromptVersions []PromptVersion
	Findings       rules.Findings
}

// NoCitationCount is the [Validated.CitationCounts] value of a session
// without a decoded answer: its citations are unknown, not zero.
const NoCitationCount = -1

// Replacements is the outcome of the infrastructure-replacement rule, which
// the validate stage owns: how many planned attempts (triplets of a paired
// review, systems of a system comparison) hold an infrastructure-invalid
// session, against the manifest's allowance. Exceeded is Invalid > Allowed.
type Replacements struct {
	Unit             string // "triplets" or "systems", for messages
	Invalid, Allowed int64
	Exceeded         bool
}

// Accounted is what the account stage produces: one token row per
// dispatched receipt (sorted by session ID), one ledger entry per receipt
// (in receipt order), and the stage's findings in the order found.
type Accounted struct {
	Tokens   *spool.Spool[Token]       // sorted by session ID, then line
	Ledger   *spool.Spool[LedgerEntry] // in receipt order
	Ceilings []Ceiling                 // every campaign ceiling with its limit, use and whether it held
	Findings rules.Findings
}

// Scored is what the score stage produces: one run row per planned run and
// one obligation row per (run, truth obligation), both in run order, sorted
// by (task, repetition, arm), and the stage's findings, sorted. The runs are
// spooled in that order (no spool order: they are added sorted), so that
// every reader iterates them and none holds them whole.
type Scored struct {
	Runs        *spool.Spool[Run]               // in run order
	Obligations *spool.Spool[ObligationOutcome] // in run order; only the report reads them
	Findings    rules.Findings
}

// Aggregated is what the aggregate stage produces: task and repository
// summaries, gate rows, one decision row per judged arm, and the stage's
// findings.
type Aggregated struct {
	Tasks        []Task
	Repositories []Repository
	Gates        []Gate
	Decision     []Decision
	Figures      Figures // every number the reports show, exact
	Findings     rules.Findings
}

// Answers reads the raw answers that receipts point to. The load stage
// implements it (stages/load.Answers); later stages never open campaign
// files themselves.
type Answers interface {
	// Read reads the file out names, bounded by the answer size cap plus
	// one byte, hashing all of it. matches is false when the file's sha256
	// or byte count differs from out; err reports a file that cannot be
	// opened or read.
	Read(out *OutputRef) (data []byte, matches bool, err error)
	// Decode strictly decodes one answer; file is used in findings. It
	// returns nil when the bytes do not decode into the contract's shape.
	Decode(file string, data []byte) (*Answer, rules.Findings)
}
