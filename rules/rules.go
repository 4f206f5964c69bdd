package rules

import "slices"

// RuleID names one rule of the evaluation contract as this project states
// it: a letter for the area (I inputs, L load, V validate, A account, Q
// score, G gates and decision, F frozen policies, P system-comparison providers and design,
// B intervals, T tables, R reports, C controls, X scale) and a number,
// or C01–C23 for the contract's evaluator controls. Code comments, tests, help text, finding codes (CodeDoc.Rule),
// gates and controls cite rules by these IDs ("rule A6"); docs/rules.md is
// generated from [Rules], and a test fails when anything cites an ID that
// is not here or a rule is enforced by no code, gate or control.
type RuleID string

// Rule is one rule: its ID, its area and one line saying what holds.
type Rule struct {
	ID   RuleID
	Area string
	Text string
}

// Rules returns every rule in document order.
func Rules() []Rule { return slices.Clone(rules) }

// FindRule returns the rule with the given ID.
func FindRule(id RuleID) (Rule, bool) {
	for _, r := range rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// Rule areas, in document order.
const (
	AreaShape     = "Campaign kinds"
	AreaInputs    = "Inputs"
	AreaLoad      = "Load"
	AreaValidate  = "Validate"
	AreaAccount   = "Account"
	AreaScore     = "Score"
	AreaGates     = "Gates and decision"
	AreaProviders = "System-comparison providers and design"
	AreaPolicy    = "Frozen policies"
	AreaIntervals = "Intervals"
	AreaTables    = "Tables and reports"
	AreaControls  = "Control suite"
	AreaScale     = "Scale"
	AreaContract  = "Evaluator controls of the paired-review contract"
	AreaDesign    = "Design and custody of the paired review"
)

var rules = []Rule{
	{"K1", AreaShape, "A campaign is one of three kinds — paired-review (a shared draft and one review per arm), system-comparison (an investigation and a review per system) or reviewer-benchmark (clean and one-defect cases of audited families); a kind the tool does not support is refused."},

	{"I1", AreaInputs, "The manifest freezes the campaign: kind, synthetic flag, seed, every identity, prompt files and the response-schema digest, rate cards, ceilings, design and gate policy, and the hash of every packet, truth and task file; its sha256 is the campaign identity, and a missing identity is listed, never filled in."},
	{"I2", AreaInputs, "An evidence packet lists items with a stable E ID, commit, relative path, inclusive 1-based lines, file sha256 and exact bytes (6–12 items for a paired review)."},
	{"I3", AreaInputs, "The source files packets were cut from are stored content-addressed, so excerpts and citations are checked against their physical lines and bytes; a final newline does not make an extra line."},
	{"I4", AreaInputs, "A task's truth holds 4–8 obligations (text, critical, answerable from the packet, accepted alternatives, verification, justified exclusions), at least two answerable, signed off by a second reviewer; an oracle can be marked defective."},
	{"I5", AreaInputs, "A receipt line records one session attempt: IDs, task, repetition, role, arm, UTC and monotonic times, terminal status and error class, returned identities, input and output hashes and sizes, the meter, every tool call, the reservation, the rate card and billing basis."},
	{"I6", AreaInputs, "Answers are the raw bytes each session returned."},
	{"I7", AreaInputs, "An adjudication records, per run and rater, the outcome of every obligation, the support of every citation, critical wrong claims and false completeness claims, frozen and blinded; a third adjudicator settles each disagreement."},
	{"I8", AreaInputs, "Reviewer-benchmark inputs are cases (family, lineage group, split, clean or variant with its hidden planted defect), the findings of every review with their evidence, and the adjudication of every finding."},

	{"L1", AreaLoad, "Every file is decoded strictly: no duplicate, unknown or missing keys, no non-finite or out-of-range numbers, valid UTF-8, no trailing data or null holes; texts trimmed, non-empty and bounded; IDs, paths, lines and array sizes as the response contract states."},
	{"L2", AreaLoad, "Every rejection is typed and positioned — a stable documented code, the file, a JSON pointer or line and a sentence — and no input, however hostile, makes the tool panic, hang or exhaust memory."},
	{"L3", AreaLoad, "The response contract is published as a JSON Schema whose digest the manifest freezes."},

	{"V1", AreaValidate, "Packet, task, prompt and schema hashes and the returned model, executable hash and permissions match the manifest; a mismatch makes the execution invalid — kept, charged, and refused at admission."},
	{"V2", AreaValidate, "Every started session has exactly one terminal receipt and every planned session is accounted for; after a failed draft the reviews are not dispatched and both workflows are shared-draft failures."},
	{"V3", AreaValidate, "A citation names a packet evidence ID with its path, a line range inside the item and the file's physical lines, and the exact source bytes; every supported ID resolves in the final answer."},
	{"V4", AreaValidate, "Links resolve within the current final answer; an ID that exists only in the draft is dangling."},
	{"V5", AreaValidate, "A final answer follows the per-status rules for its claims, actions, verifications, uncertainties and exclusions."},
	{"V6", AreaValidate, "A reconciliation disposes of every packet evidence ID exactly once — used with a backed claim, action or verification, excluded with a reason, or unresolved with an uncertainty — and follows the obligation rules."},
	{"V7", AreaValidate, "Every run is classified valid, scored_failure (the model's fault), shared_draft_failure, invalid (infrastructure or identity) or not_dispatched; a failed final scores R=0 and U=0 with unknown wrong-claim counts, and a model failure is never relabelled infrastructure."},
	{"V8", AreaValidate, "Structural results are kept apart from semantic ones; a complete ledger never implies readiness."},

	{"A1", AreaAccount, "Meters in every supported provider shape are normalised into disjoint buckets: cached input is taken out of an inclusive input total exactly once and reasoning inside billed output is never counted twice."},
	{"A2", AreaAccount, "Reference cost is the exact sum of price × tokens over uncached input, cached input, cache writes and billed output per million tokens — never float; an unsupported modifier or incomplete meter means the cost gate cannot pass."},
	{"A3", AreaAccount, "Actual billing is kept apart from reference pricing; billing that cannot be attributed is unavailable, never zero."},
	{"A4", AreaAccount, "Each arm's complete workflow is the shared draft plus its own review and validation; physical campaign billing counts the draft once; review-only ratios are reported too."},
	{"A5", AreaAccount, "Operational time is the draft plus the arm's own review and validation, never the wait for a sibling arm; campaign wall time is reported apart."},
	{"A6", AreaAccount, "Ceilings are inclusive: per session wall time, input and output; per campaign sessions, wall time, tokens and cost; at most one infrastructure-invalid triplet may be replaced, and a second stops the campaign."},
	{"A7", AreaAccount, "Before each dispatch the request's worst-case tokens and price are reserved and refused when they do not fit what is left, or when a tariff, meter or reservation identity is missing; the ledger shows accounted, held and remaining allowance and never charges a replayed request twice."},
	{"A8", AreaAccount, "Cost and time are separate conjunctive gates per arm: ratio of sums of task medians ≤ 1.10, each task-median ratio ≤ 1.15, each paired workflow ratio ≤ 1.25, every session within its limits; fewer calls never excuse more time or money."},

	{"Q1", AreaScore, "Each run gets two blinded, source-based ratings frozen before arm or cost is revealed, and a third settles disagreements; graders see anonymised finals only, and a run without ratings is unscored, never zero."},
	{"Q2", AreaScore, "R is correctly addressed answerable obligations over all answerable obligations and its denominator never shrinks; U credits a named missing fact with a bounded verification, not a generic caveat, and asserting the missing fact is an unsupported claim."},
	{"Q3", AreaScore, "Every run has one record: status, R, U, critical failures, wrong-claim counts (unknown when not rated), source and protocol gates, structural and semantic pass."},

	{"G1", AreaGates, "Per-run rows, task medians over repetitions, macro-averages of task medians and repository summaries keep every run in its denominator."},
	{"G2", AreaGates, "The paired-review evaluation gates are conjunctive, with thresholds from the frozen policy: no critical or citation failure; task and macro R floors and every uncertainty case; macro gain, improved tasks and no large task drop; the protocol gate; cost and time (rule A8); no gate passes through another."},
	{"G3", AreaGates, "The decision is advance, do_not_advance (a gain but a gate failed), stop_no_gain (no gain, or a ceiling reached) or no_verdict (the record cannot be judged), with every failing gate named."},
	{"G4", AreaGates, "The development round-2 preset judges four development tasks with at least two improved, within the same bounds."},
	{"G5", AreaGates, "A system comparison scores one shared repository-answerable denominator per task; the candidate must improve cost and time by at least 15% over the baseline with no critical quality loss, lose at most 0.05 macro R and regress at most 5% against the comparator, within the task and pair bounds."},
	{"G6", AreaGates, "A reviewer benchmark reports detection, blocking-on-clean, coverage, precision, abstentions, errors, tokens, cost and latency per split and profile, derives effective ratings in code, and promotes only when false blocking falls with no detection regression within budget; labels never reach a reviewer and lineage groups never cross splits. Its one ledger holds every review execution and every auxiliary call (adjudication, second opinion, planning, probe, remote execution) under the cap, each charge rounded up to the micro-unit, known costs and unresolved holds apart; an infrastructure-invalid attempt replaced within the allowance is scored on its replacement, the original retained and charged."},
	{"G7", AreaGates, "Thresholds are inclusive; a task improves when its treatment median is strictly greater; a drop of exactly the bound is allowed; an aggregate ratio is a ratio of sums of task medians; an unrated run, an unexplained missing session or a second invalid triplet gives no_verdict, never a zero."},
	{"G8", AreaGates, "Development runs in one campaign (contract #741 §5): development tasks run two rounds and evaluation tasks their own repetitions; between round 1 and round 2 at most one revision of B's instruction text, recorded as a prompt version with its diff, frozen after round 1 and before round 2; A, D, schemas, gates and budgets unchanged; no third round; evaluation sessions only after the freeze that follows round 2, and never after a failed round 2."},

	{"P1", AreaProviders, "Each system of a system comparison pins its provider in the manifest — package, version, commit, package integrity, advertised tool-schema hash, settings, the shared ordinary tools, the global and project MCP allowlists, read-only and modes — exactly as contract #741 §6 and COMPARATOR-SELECTION freeze them (Madar 0.32.1 at 06b373a, MADAR_TOOL_PROFILE=core, seven core tools; Serena 13ac8c5, seven tools global and project, read_only, planning and no-memories); no allowlist exposes shell commands, edits, memories, onboarding or tool expansion, and what must be verified before scored use is listed by preflight."},
	{"P2", AreaProviders, "Every tool call of an investigation or cold setup is in its system's pinned allowlist; a call outside it is an undeclared permission (contract #741 §5, §6): the execution is invalid and counts against the replacement allowance."},
	{"P3", AreaProviders, "A system comparison judged by the contract's preset has the design of contract #741 §6: three systems on six evaluation tasks from three repositories, two tasks each, two repetitions — 36 workflows, 72 planned sessions; a custom policy may run another design, and every output names it as not the contract's rules."},
	{"F1", AreaPolicy, "A manifest names a preset whose thresholds, ceilings, replacement allowance and pins are frozen in code; any number that differs from the preset's, stricter or looser, rejects the campaign with a code naming the field; a custom policy runs only under a non-preset ID declared custom, and every output names it as not the frozen rules; a campaign pinning another evaluator version is refused."},

	{"B1", AreaIntervals, "Intervals are an exploratory family-clustered bootstrap, seeded and reproducible, with degenerate cases explicit; an interval never changes a gate or the decision."},

	{"T1", AreaTables, "Every output is a Parquet table with a documented data dictionary and file metadata (schema version, manifest sha256, tool version, synthetic flag)."},
	{"T2", AreaTables, "The same inputs and seed give byte-identical outputs, and every write is atomic."},
	{"T3", AreaTables, "A real engine (DuckDB) reads every table with its intended logical types, proved by a test."},
	{"R1", AreaTables, "scorecard.json is the stable machine interface; report.md and a self-contained report.html with plots are labelled SYNTHETIC when the manifest is, and escape all model-written text."},
	{"R2", AreaTables, "evalgate compare reports metric and gate differences between two output directories; a regression is a worse decision or a candidate's gate metric moving the wrong way by the gate's own comparison, while the baseline's own figures, counts and ceilings' use are changes; outputs judged under different policies are not comparable (each differing number listed) unless allowed, and then every policy number is a policy change; it exits non-zero on a regression (or, with --fail-on, on a worse decision or any change)."},
	{"R3", AreaTables, "Every command that prints results has --json with one shape per concept, exit codes are documented, and finishing a run is distinct from its decision."},

	{"C1", AreaControls, "The evaluator controls are fixtures run through the public entry point with one expected-result table, structural and semantic outcomes apart; the complete synthetic campaign is accepted."},
	{"C2", AreaControls, "Every listed mutation makes its owning control fail for the intended reason, and evalgate controls prints the mutation → control table; a verifier that rejects everything fails the suite."},
	{"C3", AreaControls, "Prompts render from the campaign's prompt files and labelled data blocks to exact bytes per role with sha256 and size; the draft and the ordinary review never receive the reconciliation instruction."},

	{"D3", AreaDesign, "Sessions run serially on one recorded host (contract #741 §2, §5): every dispatched session names the manifest's host, no session starts before the previous one ended, a review starts only after its draft's terminal receipt, and the sessions run in schedule order (each repetition's draft, then its reviews in the slot's arm order; a replacement attempt may follow later). Sessions that overlap form a run of concurrent sessions, one defect: each overlapping session is refused with the same message, naming the run, and the order of the run's sessions among themselves is not judged (each is judged against the schedule position reached before the run). A session on another host, or with no host recorded, is an invalid execution; the rest are defects of the record."},
	{"D4", AreaDesign, "Freeze times precede what they freeze (contract #741 §3, §5): the manifest is frozen and every task's truth signed off before the first session starts, and every rating is frozen after its answer's terminal receipt and before the unblinding."},
	{"D5", AreaDesign, "A fixed-evidence session has no tools (contract #741 §2, §5: all ordinary and MCP calls, zero for scored fixed-evidence sessions; §6: the review has no tools or further acquisition): any recorded ordinary or MCP call in a draft, an ordinary or reconciliation review, or a system comparison's review makes that execution invalid (undeclared permissions), counted against the replacement allowance."},
	{"D6", AreaDesign, "The draft and the ordinary review each receive exactly their named instruction (contract #741 PROMPTS, §2 \"neutral draft instructions only\"): the role instruction the design gives the draft is the contract's Draft D text and the one it gives arm A the Ordinary review A text, byte for byte, so swapping them is refused like a leaked reconciliation instruction."},
	{"D7", AreaDesign, "Allowances are the contract's (contract #741 §2, §5): no recorded reservation reserves more input or output tokens than the session ceilings allow, and the two reviews of a repetition reserve the same output allowance (their deadline is the manifest's one session wall ceiling, which no receipt may exceed)."},

	{"D8", AreaDesign, "A paired review judged by a contract preset has the contract's sample (contract #741 §2, §3): two arms, the ordinary review A and the reconciliation review B; eight evaluation tasks of three repetitions each, from four repositories with two tasks each, two of each of the four categories (behaviour explanation, change impact, correctness boundary, explicit uncertainty); development tasks, when present, four from two further repositories with two tasks each, in two rounds. With fewer than eight evaluation tasks the evaluation preset stops without an evaluation claim: no verdict, with its own code. Every other difference is a defect of the record (no verdict); a custom policy may run another design, and every output names it as not the contract's rules."},
	{"D9", AreaDesign, "The order of the arms is counterbalanced (contract #741 §2): half of the evaluation pairs run A first and half B first (12 and 12 of 24), and every evaluation task runs in both orders across its repetitions; under a contract preset another schedule is a defect of the record (no verdict)."},

	{"X1", AreaScale, "Ingestion streams, with memory bounded by the output tables rather than the answers; larger campaigns are a standard Parquet dataset for other engines."},

	{"C01", AreaContract, "A correct answer with a complete final plan and authentic citations gets full credit and a valid source."},
	{"C02", AreaContract, "A clear paraphrase of the same behaviour scores the same."},
	{"C03", AreaContract, "A different valid source-backed path is credited by equivalent behaviour, not by matching names."},
	{"C04", AreaContract, "A harmless qualified-name omission costs nothing semantically; source attribution is still checked."},
	{"C05", AreaContract, "Omitting a necessary condition whose source was supplied loses coverage and fails the critical gate when the obligation is critical."},
	{"C06", AreaContract, "An absent fact named precisely with a bounded verification earns uncertainty credit, not resolved credit."},
	{"C07", AreaContract, "A generic caveat in place of the precise unknown earns no uncertainty credit."},
	{"C08", AreaContract, "Confidently asserting the missing fact is an unsupported-claim failure, critical when applicable."},
	{"C09", AreaContract, "A citation past the file's last physical line fails; a final newline adds no phantom line."},
	{"C10", AreaContract, "A valid range that does not support its linked claim is a semantic citation failure."},
	{"C11", AreaContract, "A ledger that accounts for every evidence ID but wrongly excludes relevant evidence passes structurally and fails semantically; a ledger never marks readiness."},
	{"C12", AreaContract, "Draft links that survive renumbering in the final answer are dangling and rejected structurally."},
	{"C13", AreaContract, "A missing, duplicated, substituted or invented disposition ID fails the exact-set check."},
	{"C14", AreaContract, "Fewer calls with more total time or cost fail the benefit gates, and an individual outlier fails even when the aggregate passes."},
	{"C15", AreaContract, "A session started without a response, error or interruption receipt makes the execution invalid; attempts alone count as no success."},
	{"C16", AreaContract, "Malformed, refused or time- or token-bounded candidate output is a scored failure, never an infrastructure rerun."},
	{"C17", AreaContract, "A wrong model, source hash, task bytes, permissions or leaked arm state is an invalid execution, retained and charged, refused at admission when detectable."},
	{"C18", AreaContract, "An exhausted budget, missing tariff or insufficient reservation forbids the next dispatch, tested just below, at and above each inclusive ceiling."},
	{"C19", AreaContract, "A correct unsupported result after valid setup is an honest capability outcome, neither delivered evidence nor infrastructure failure."},
	{"C20", AreaContract, "The shared draft is allocated to both complete workflows and billed once for the campaign."},
	{"C21", AreaContract, "When every gate passes but one task or pair regression bound, the mechanism does not advance: no OR escape through another metric."},
	{"C22", AreaContract, "A defective source oracle is rejected before scoring."},
	{"C23", AreaContract, "A failed common draft is kept and charged, the reviews are not dispatched, and both workflows are shared-draft failures without shrinking a denominator; a valid but wrong draft goes to both reviews unchanged."},
}
