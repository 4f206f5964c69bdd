package rules

// Codes of the development flow of a paired review in one campaign (rule
// G8, contract #741 §5), emitted by stages/validate and stages/aggregate.
const (
	CodeDevelopmentRoundsInvalid    Code = "development_rounds_invalid"
	CodeDevelopmentRevisionRepeated Code = "development_revision_repeated"
	CodeDevelopmentRevisionScope    Code = "development_revision_scope"
	CodeDevelopmentRevisionOrder    Code = "development_revision_order"
	CodeEvaluationBeforeFreeze      Code = "evaluation_before_freeze"
	CodeEvaluationAfterFailedRound2 Code = "evaluation_after_failed_round2"
)

var developmentCodes = []CodeDoc{
	{CodeDevelopmentRoundsInvalid, "validate", "G8", "The development flow does not run exactly two rounds (round 1, the one revision, round 2): no third development round is permitted."},
	{CodeDevelopmentRevisionRepeated, "validate", "G8", "The development flow records a second revision: only one revision of B's instruction is permitted between round 1 and round 2."},
	{CodeDevelopmentRevisionScope, "validate", "G8", "A development revision changes something other than the reconciliation arm's instruction text (A's or the draft's instruction, the common instruction, a schema, an unknown prompt), or a campaign other than a paired review has a development flow."},
	{CodeDevelopmentRevisionOrder, "validate", "G8", "The revised instruction was not frozen after every round-1 session ended and before any round-2 session started."},
	{CodeEvaluationBeforeFreeze, "validate", "G8", "An evaluation session ran before the freeze that follows round 2, round 2 ended after it, or the campaign runs evaluation sessions without recording that freeze."},
	{CodeEvaluationAfterFailedRound2, "aggregate", "G8", "The campaign ran evaluation sessions although round 2 failed the development admission check: held-out execution stops after a failed round 2."},
}
