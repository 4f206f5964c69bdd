package tables

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/go-json-experiment/json/jsontext"
)

// Input documents of the reviewer-benchmark kind (rules I8, G6): a reviewer
// profile is measured against audited task families, each an audited
// clean case and one-defect variants. The benchmark's labels (cases.json)
// are private to the scorer; what a reviewer may see is the frozen task
// files of a case (inventory.json, bytes under sources/), its bound probe
// trials, and nothing else. docs/format.md describes the layout.

// Format versions of the reviewer-benchmark documents.
const (
	FormatCases = "evalgate.cases/v2"
	// FormatCasesV1 is the first cases format, without second reviewers,
	// mutation rationales or the register of excluded cases: refused
	// (benchmark_cases_format_old), never read as if it had them.
	FormatCasesV1             = "evalgate.cases/v1"
	FormatInventory           = "evalgate.inventory/v1"
	FormatReview              = "evalgate.review/v1"
	FormatFindingAdjudication = "evalgate.finding-adjudication/v1"
)

// BenchmarkPlan is the manifest member that freezes a reviewer
// benchmark's cases and task files by sha256. Required for kind
// reviewer-benchmark, refused for every other kind.
type BenchmarkPlan struct {
	CasesPath       string `json:"cases_path"`
	CasesSHA256     string `json:"cases_sha256"`
	InventoryPath   string `json:"inventory_path"`
	InventorySHA256 string `json:"inventory_sha256"`
	// FinalRetired marks the final split as consumed by tuning: its
	// results are reported, but it is no longer a fresh holdout and the
	// promotion decision cannot rest on it.
	FinalRetired bool `json:"final_retired"`
	// Models are further model strata besides identities.returned_model:
	// a review receipt's returned model must be one of them or that one.
	// Metrics are reported per stratum and every promotion comparison is
	// made within each stratum, never on pooled strata.
	Models []string `json:"models,omitzero"`
	// Profiles freeze each profile's review terms in each model stratum:
	// one entry per design profile × stratum (identities.returned_model
	// and each of Models). Both profiles of one stratum have equal terms;
	// a review receipt records the settings it ran with.
	Profiles []BenchmarkProfile `json:"profiles,omitzero"`
}

// BenchmarkProfile is one profile's frozen review terms in one model
// stratum: its generation settings, its tool limits and its per-attempt
// budget. A nil member is not frozen.
type BenchmarkProfile struct {
	Profile    string              `json:"profile"` // a design arm ID
	Model      string              `json:"model"`   // a model stratum
	Settings   *GenerationSettings `json:"settings,omitzero"`
	ToolLimits *ToolLimits         `json:"tool_limits,omitzero"`
	Budget     *AttemptBudget      `json:"budget,omitzero"`
}

// GenerationSettings are the generation settings of a review session
// (what a provider request is generated with, as its record states
// them). A nil member is the provider's default, recorded as such: an
// empty object states that every setting was the default. Temperature
// and TopP are exact decimal strings, compared as numbers ("1" equals
// "1.0").
type GenerationSettings struct {
	Temperature     *string `json:"temperature,omitzero"`
	TopP            *string `json:"top_p,omitzero"`
	MaxOutputTokens *int64  `json:"max_output_tokens,omitzero"`
	ReasoningEffort *string `json:"reasoning_effort,omitzero"`
	Seed            *int64  `json:"seed,omitzero"`
}

// ToolLimits bound what a review session may do besides generating:
// MaxCalls is the most tool calls of one attempt (required); Tools, when
// given, are the only tool names it may call; MaxReadRounds and
// MaxContextChars are the evidence allowance (additional read rounds,
// characters of context) the reviewer ran under.
type ToolLimits struct {
	MaxCalls        *int64   `json:"max_calls,omitzero"`
	Tools           []string `json:"tools,omitzero"`
	MaxReadRounds   *int64   `json:"max_read_rounds,omitzero"`
	MaxContextChars *int64   `json:"max_context_chars,omitzero"`
}

// AttemptBudget is one attempt's worst-case bound: the reservation every
// review session of the profile and stratum makes.
type AttemptBudget struct {
	InputTokens  int64  `json:"input_tokens"`
	OutputTokens int64  `json:"output_tokens"`
	Cost         string `json:"cost"` // decimal in the campaign currency
}

// Profile returns the frozen terms of profile in model stratum model, or
// nil.
func (p *BenchmarkPlan) Profile(profile, model string) *BenchmarkProfile {
	if p == nil {
		return nil
	}
	for i := range p.Profiles {
		if p.Profiles[i].Profile == profile && p.Profiles[i].Model == model {
			return &p.Profiles[i]
		}
	}
	return nil
}

// Splits of a reviewer benchmark, frozen before tuning.
const (
	SplitDevelopment = "development"
	SplitSelection   = "selection"
	SplitFinal       = "final"
)

// BenchmarkSplits lists the splits in report order.
var BenchmarkSplits = []string{SplitDevelopment, SplitSelection, SplitFinal}

// Case kinds.
const (
	CaseClean   = "clean"
	CaseVariant = "variant"
)

// Label statuses. Only audited labels are eligible for detection and
// blocking-on-clean; provisional ones are reported apart.
const (
	LabelAudited     = "audited"
	LabelProvisional = "provisional"
)

// Review criteria (rule I8: findings and evidence), in report
// order.
const (
	CriterionRequirementAlignment = "requirement_alignment"
	CriterionFeasibilityAssets    = "feasibility_assets"
	CriterionReferenceCorrectness = "reference_correctness"
	CriterionVerifierCoverage     = "verifier_coverage"
	CriterionValidAlternatives    = "valid_alternatives"
	CriterionRewardGaming         = "reward_gaming"
	CriterionLeakage              = "leakage"
	CriterionRolloutGrade         = "rollout_grade_agreement"
)

// Criteria lists every criterion in report order.
var Criteria = []string{
	CriterionRequirementAlignment, CriterionFeasibilityAssets, CriterionReferenceCorrectness,
	CriterionVerifierCoverage, CriterionValidAlternatives, CriterionRewardGaming,
	CriterionLeakage, CriterionRolloutGrade,
}

// Defect categories shared by planted defects and reviewer findings:
// detection requires the finding's category to equal the planted one.
var DefectCategories = []string{
	"unconditional_reward", "hidden_gate", "missing_asset", "answer_exposure",
	"report_forgery", "removed_assertion", "undocumented_exception_wording",
	"private_state_overfitting", "ordering_tolerance_mismatch", "stale_output_acceptance",
	"other",
}

// Cases is cases.json: the benchmark's private labels.
type Cases struct {
	Format string `json:"format"` // FormatCases
	Cases  []Case `json:"cases"`
	// Excluded is the register of excluded cases with their reasons
	// (rule I8: "Retain exclusions and reasons; they affect achieved
	// corpus size"): proposed cases left out of the scored corpus, for
	// example a clean label the second reviewer disputed. Required in v2
	// ([] for none), so a pointer: nil when the member is absent.
	Excluded *[]ExcludedCase `json:"excluded,omitzero"`
}

// ExcludedCase is one proposed case left out of the scored corpus.
type ExcludedCase struct {
	ID     string `json:"id"`
	Family string `json:"family"`
	Reason string `json:"reason"`
}

// Case is one benchmark case: the clean task of a family or one
// one-defect variant of it. Everything here is hidden from reviewers.
type Case struct {
	ID           string         `json:"id"`
	Family       string         `json:"family"`
	LineageGroup string         `json:"lineage_group"` // PR/commit lineage; never crosses splits
	Split        string         `json:"split"`         // development, selection, final
	Kind         string         `json:"kind"`          // clean, variant
	Label        string         `json:"label"`         // audited, provisional
	Regression   bool           `json:"regression"`    // a known regression case the candidate must get right
	Variant      *string        `json:"variant"`       // the variant's name; null for a clean case
	Defect       *PlantedDefect `json:"defect"`        // null for a clean case
	// SecondReviewer is who checked the proposed clean case or the
	// variant's mutation rationale (rule I8: "A second reviewer checks
	// each proposed clean case and each mutation rationale"); required for
	// an audited case, absent (nil) for a provisional one.
	SecondReviewer *string `json:"second_reviewer,omitzero"`
	// MutationRationale is a variant's reason its one planted defect is a
	// defect and what it tests; absent (nil) for a clean case.
	MutationRationale *string `json:"mutation_rationale,omitzero"`
}

// PlantedDefect is the one defect a variant introduces.
type PlantedDefect struct {
	Criterion   string   `json:"criterion"`
	Category    string   `json:"category"`
	Location    Location `json:"location"`
	Description string   `json:"description"`
}

// Location is a file and an inclusive 1-based line range of a case's task
// files.
type Location struct {
	Path      string `json:"path"`
	StartLine int64  `json:"start_line"`
	EndLine   int64  `json:"end_line"`
}

// Overlaps reports whether l and o name the same file and their line
// ranges intersect.
func (l Location) Overlaps(o Location) bool {
	return l.Path == o.Path && l.StartLine <= o.EndLine && o.StartLine <= l.EndLine
}

// Inventory is inventory.json: the frozen task files of every case,
// content-addressed under sources/<sha256>.
type Inventory struct {
	Format string      `json:"format"` // FormatInventory
	Cases  []CaseFiles `json:"cases"`
}

// CaseFiles lists one case's task files, sorted by path.
type CaseFiles struct {
	CaseID string          `json:"case_id"`
	Files  []InventoryFile `json:"files"`
}

// InventoryFile is one task file.
type InventoryFile struct {
	Path   string `json:"path"` // relative to the task directory
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// TaskChecksum is the case's task digest a bound Harbor trial's
// task_checksum must equal: the sha256 of the sorted entries
// "F\x00<path>\x00<sha256>\n", Harbor's symlink-safe directory hash.
func TaskChecksum(files []InventoryFile) string {
	entries := make([]string, len(files))
	for i, f := range files {
		entries[i] = "F\x00" + f.Path + "\x00" + f.SHA256 + "\n"
	}
	slices.Sort(entries)
	sum := sha256.Sum256([]byte(strings.Join(entries, "")))
	return hex.EncodeToString(sum[:])
}

// Ratings of a criterion.
const (
	RatingPass    = "pass"
	RatingFail    = "fail"
	RatingUnknown = "unknown"
	RatingAbsent  = "absent" // raw only: the review rated no such criterion
)

// Review outcomes.
const (
	ReviewCompleted = "completed"
	ReviewAbstained = "abstained"
)

// Finding severities and investigation conclusions.
const (
	FindingBlocking      = "blocking"
	FindingAdvisory      = "advisory"
	ConclusionSupported  = "supported"
	ConclusionDismissed  = "dismissed"
	ConclusionUnresolved = "unresolved"
)

// Response-cache states a review reports.
const (
	CacheBypassed = "bypassed"
	CacheHit      = "hit"
)

// Review is the raw output of one review session
// (reviews/<session>/review.json, the receipt's output): the reviewer's
// findings and proposed ratings.
type Review struct {
	Format        string            `json:"format"`         // FormatReview
	Profile       string            `json:"profile"`        // the reviewer profile (the arm)
	ResponseCache string            `json:"response_cache"` // bypassed, hit
	Outcome       string            `json:"outcome"`        // completed, abstained
	Summary       string            `json:"summary"`        // the reviewer's own summary
	Criteria      []CriterionRating `json:"criteria"`
	Findings      []ReviewFinding   `json:"findings"`
}

// CriterionRating is a proposed rating with the findings the reviewer
// attached to it.
type CriterionRating struct {
	Criterion  string   `json:"criterion"`
	Rating     string   `json:"rating"` // pass, fail, unknown
	FindingIDs []string `json:"finding_ids"`
}

// ReviewFinding is one issue with a stable ID (F<n>) within the review.
type ReviewFinding struct {
	ID         string     `json:"id"`
	Criterion  string     `json:"criterion"`
	Category   string     `json:"category"`
	Location   Location   `json:"location"`
	Severity   string     `json:"severity"`   // blocking, advisory
	Problem    string     `json:"problem"`    // the reviewer's statement
	Conclusion string     `json:"conclusion"` // supported, dismissed, unresolved
	Excerpts   []Excerpt  `json:"excerpts"`
	Trials     []TrialRef `json:"trials"` // probes the reviewer says ran
}

// Excerpt is quoted evidence: the exact bytes of lines StartLine..EndLine
// of the task file Path, whose sha256 is FileSHA256.
type Excerpt struct {
	Path       string `json:"path"`
	FileSHA256 string `json:"file_sha256"`
	StartLine  int64  `json:"start_line"`
	EndLine    int64  `json:"end_line"`
	Text       string `json:"text"`
}

// TrialRef binds a probe claim to a Harbor trial result.json in the
// campaign directory.
type TrialRef struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Finding adjudication outcomes.
const (
	AdjudicationUpheld        = "upheld"
	AdjudicationRejected      = "rejected"
	AdjudicationUnadjudicated = "unadjudicated"
)

// FindingAdjudication is one line of finding_adjudications.jsonl: one
// adjudicator's judgment of one finding. Disagreements are kept as
// separate lines, never deleted.
type FindingAdjudication struct {
	Format      string    `json:"format"` // FormatFindingAdjudication
	SessionID   string    `json:"session_id"`
	FindingID   string    `json:"finding_id"`
	Adjudicator string    `json:"adjudicator"`
	Outcome     string    `json:"outcome"` // upheld, rejected, unadjudicated
	Evidence    string    `json:"evidence"`
	DecidedAt   time.Time `json:"decided_at"`
}

// TrialResult is the part of a Harbor trial result.json
// (harbor.models.trial.result.TrialResult) a probe receipt is read for;
// every other Harbor member is allowed and ignored. Numbers Harbor writes
// as floats are kept as their JSON text.
type TrialResult struct {
	TaskName       string            `json:"task_name"`
	TrialName      string            `json:"trial_name"`
	TaskChecksum   string            `json:"task_checksum"`
	StartedAt      jsontext.Value    `json:"started_at"` // Harbor's timestamps, kept as written
	FinishedAt     jsontext.Value    `json:"finished_at"`
	VerifierResult *TrialVerifier    `json:"verifier_result"`
	ExceptionInfo  *TrialException   `json:"exception_info"`
	AgentResult    *TrialAgentResult `json:"agent_result"`
	AgentExecution jsontext.Value    `json:"agent_execution"` // TimingInfo, kept as written
	Verifier       jsontext.Value    `json:"verifier"`        // TimingInfo, kept as written
	Extra          jsontext.Value    `json:",unknown"`
}

// TrialVerifier is Harbor's VerifierResult.
type TrialVerifier struct {
	Rewards map[string]jsontext.Value `json:"rewards"`
	Extra   jsontext.Value            `json:",unknown"`
}

// TrialException is Harbor's ExceptionInfo.
type TrialException struct {
	ExceptionType    string         `json:"exception_type"`
	ExceptionMessage string         `json:"exception_message"`
	Extra            jsontext.Value `json:",unknown"`
}

// TrialAgentResult is Harbor's AgentContext: n_input_tokens includes the
// cache tokens.
type TrialAgentResult struct {
	NInputTokens  *int64         `json:"n_input_tokens"`
	NCacheTokens  *int64         `json:"n_cache_tokens"`
	NOutputTokens *int64         `json:"n_output_tokens"`
	CostUSD       jsontext.Value `json:"cost_usd"`
	Extra         jsontext.Value `json:",unknown"`
}

// Benchmark is the loaded reviewer-benchmark part of a campaign.
type Benchmark struct {
	Cases     []Case                     // in cases.json order
	Excluded  []ExcludedCase             // the register of excluded cases, in cases.json order
	Files     map[string][]InventoryFile // case ID → task files, sorted by path
	Checksums map[string]string          // case ID → TaskChecksum
	// Adjudications are the lines of finding_adjudications.jsonl.
	Adjudications []Line[FindingAdjudication]
}

// Case returns the case with the given ID, or nil.
func (b *Benchmark) Case(id string) *Case {
	for i := range b.Cases {
		if b.Cases[i].ID == id {
			return &b.Cases[i]
		}
	}
	return nil
}

// The reviewer benchmark's exploratory rate intervals (stages/intervals):
// one interval per statistic and scope, by one method, and only where the
// method's coverage is tested.
const (
	// RateIntervalMethod is the hull of the expanded percentile and the
	// cluster t interval: the lower of their lower bounds to the higher of
	// their upper bounds, both clipped to the statistic's range.
	RateIntervalMethod = rules.RateIntervalMethodName
	// RateCoverageUntestedFamilies: the rate is carried by a number of
	// families at which the coverage simulation did not run; no bounds.
	RateCoverageUntestedFamilies = "coverage_untested_families"
	// RateCoverageUntestedExtreme: a rate (not a difference) estimated
	// outside [RateCoverageLo, RateCoverageHi], where the simulation does
	// not establish the method's coverage; no bounds.
	RateCoverageUntestedExtreme = "coverage_untested_extreme_rate"
	// RateScopeAll is the split of a scope over every split.
	RateScopeAll = "all"
	// The estimates between which a rate's coverage is tested.
	RateCoverageLo = 0.1
	RateCoverageHi = 0.9
)

// RateCoverageFamilies are the family counts at which the intervals
// stage's coverage test establishes the rate interval's coverage (at least
// 0.92): the protocol's pilot (20 families frozen 10/5/5 into
// development, selection and final) and the embedded example (the same,
// and 19 and 9 families for blocking on clean, whose one provisional clean
// case leaves its family out of the audited rate).
var RateCoverageFamilies = []int{5, 9, 10, 19, 20}

// Equal reports whether two generation settings are the same, member by
// member (a nil member equals only a nil one).
func (s *GenerationSettings) Equal(o *GenerationSettings) bool {
	if s == nil || o == nil {
		return s == o
	}
	return decimalEqual(s.Temperature, o.Temperature) && decimalEqual(s.TopP, o.TopP) && ptrEqual(s.MaxOutputTokens, o.MaxOutputTokens) &&
		ptrEqual(s.ReasoningEffort, o.ReasoningEffort) && ptrEqual(s.Seed, o.Seed)
}

// Equal reports whether two tool limits are the same.
func (t *ToolLimits) Equal(o *ToolLimits) bool {
	if t == nil || o == nil {
		return t == o
	}
	return ptrEqual(t.MaxCalls, o.MaxCalls) && slices.Equal(t.Tools, o.Tools) &&
		ptrEqual(t.MaxReadRounds, o.MaxReadRounds) && ptrEqual(t.MaxContextChars, o.MaxContextChars)
}

// Equal reports whether two budgets are the same (costs compared as
// amounts, so 0.27 equals 0.270).
func (b *AttemptBudget) Equal(o *AttemptBudget) bool {
	if b == nil || o == nil {
		return b == o
	}
	if b.InputTokens != o.InputTokens || b.OutputTokens != o.OutputTokens {
		return false
	}
	x, errX := ParseMoney(b.Cost)
	y, errY := ParseMoney(o.Cost)
	if errX != nil || errY != nil {
		return b.Cost == o.Cost
	}
	return x == y
}

// decimalEqual compares two optional decimal strings as amounts.
func decimalEqual(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, errX := ParseMoney(*a)
	y, errY := ParseMoney(*b)
	if errX != nil || errY != nil {
		return *a == *b
	}
	return x == y
}

func ptrEqual[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
