package rules

// Class is what a finding of a code means for the campaign: whose fault it
// is and what follows from it. Every code has exactly one class
// ([ClassOf]); docs/errors.md shows it in its severity column.
//
// The two kinds of finding are kept apart:
//
//   - A fault of the model under test (a malformed or refused answer, a
//     false citation, a missing disposition, a timeout) is the run's own
//     outcome: the run is a scored failure and the campaign is judged.
//     Such a finding never rejects.
//   - A defect of the record (manifest, receipts, meters, reservations,
//     times, identities, ratings, files) means the campaign cannot be
//     judged: its findings have severity [Reject], and a campaign with any
//     rejecting finding gets decision no_verdict, every rejecting finding
//     named in the reason.
//
// Two milder classes record what is true of a well-formed record: a cost
// the record cannot show within its bounds (the cost gates fail, the
// decision is never advance) and a note (nothing follows).
//
// A finding inside a model's answer file is the model's fault whatever its
// code: the JSON and schema codes of the loader then mean a malformed
// answer, and the run is a scored failure ([AlsoInAnswer]).
type Class string

const (
	ClassRecordDefect Class = "record_defect" // severity reject: the campaign cannot be judged (no_verdict)
	ClassModelFault   Class = "model_fault"   // severity warn: the run is a scored failure; never rejects
	ClassCostBlocking Class = "cost_blocking" // severity warn: the cost gates cannot pass
	ClassNote         Class = "note"          // severity warn: recorded, nothing follows
	ClassRefusal      Class = "refusal"       // a reason evalgate admit refuses a dispatch; never in the rejections table
)

// Severity is the severity a finding of class k has inside a campaign.
func (k Class) Severity() Severity {
	if k == ClassRecordDefect {
		return Reject
	}
	return Warn
}

// Describe is the class as docs/errors.md shows it.
func (k Class) Describe() string {
	switch k {
	case ClassRecordDefect:
		return "rejects: defect of the record"
	case ClassModelFault:
		return "scored failure: fault of the model"
	case ClassCostBlocking:
		return "cost gates fail"
	case ClassNote:
		return "note"
	case ClassRefusal:
		return "refuses admission"
	}
	return string(k)
}

// modelFaultCodes are the answer rules: the model's own failures (V3–V7).
var modelFaultCodes = []Code{
	CodeLinkDangling, CodeLinkWrongType,
	CodeEvidenceRequired, CodeCitationRequired, CodeUncertaintyLinkRequired, CodeVerificationLinkRequired, CodeCitationRangeInverted,
	CodeReconciliationMissing, CodeReconciliationUnexpected,
	CodeObligationAddressedUnlinked, CodeObligationUnresolvedUnlinked, CodeObligationExcludedUnlinked,
	CodeDispositionUsedUnsupported, CodeDispositionExcludedUnlinked, CodeExclusionReasonGeneric,
	CodeDispositionUnresolvedUnlinked, CodeDispositionDuplicate,
	CodeEvidenceUnknown, CodeDispositionMissing, CodeDispositionInvented, CodeDispositionSubstituted,
	CodeCitationPathMismatch, CodeCitationOutsideItem, CodeCitationBeyondSource, CodeCitationBytesMismatch,
	CodeInvestigationEmpty,
	// A reviewer's own faults in a reviewer benchmark: the review is a
	// schema violation, its finding is not grounded, its rating is
	// unknown or overridden, its planted defect is missed.
	CodeRbenchReviewMalformed, CodeRbenchReviewInconsistent, CodeRbenchFindingIDRepeated, CodeRbenchQuoteFabricated, CodeRbenchProbeUnbound,
	CodeRbenchInstrumentation, CodeRbenchFailureUnsupported, CodeRbenchPassOwnsBlocking, CodeRbenchPassOverridden,
	CodeRbenchWrongLocation,
}

// costBlockingCodes leave a cost or a bound unshown on an otherwise sound
// record: a missing meter or tariff, an unpriceable modifier, a session
// beyond its own ceiling or reservation, an unknown campaign total.
var costBlockingCodes = []Code{
	CodeMeterMissing, CodeMeterUnsupportedModifier, CodeTariffMissing, CodeCampaignCostUnknown,
	CodeReservationExceeded, CodeCeilingSessionWall, CodeCeilingSessionInput, CodeCeilingSessionOutput,
}

// noteCodes change nothing: import warnings, exploratory intervals, a
// rating of a run that scores without ratings, a replayed receipt of the
// same request, the infrastructure defect of an attempt replaced within
// the allowance.
var noteCodes = []Code{
	CodeInspectLogIncomplete, CodeInspectNoSamples, CodeInspectSampleNoUsage, CodeInspectProviderUnknown,
	CodeImportMapUnmatched, CodeImportNoReturnedModel, CodeImportNoMeter, CodeImportNoHost, CodeCodexNoUsage, CodeHarborNoUsage, CodeHarborNoReward,
	CodeIntervalPlanInvalid, CodeIntervalValueInvalid,
	CodeRatingUnscoreableRun, CodeBlindUnblindingAbsent, CodeLedgerRequestReplayed,
	CodeReplacedAttemptNoted, CodeRbenchAttemptReplaced, CodeEvaluatorUnverified, CodeRbenchRemoteBillMissing,
}

// refusalCodes are the verdict reasons of admission.
var refusalCodes = []Code{
	CodeAdmissionInvalidRequest, CodeAdmissionNoReservation, CodeAdmissionMissingMeter,
	CodeAdmissionUnknownCard, CodeAdmissionMissingTariff, CodeAdmissionInvalidCeiling, CodeAdmissionRequestReused,
	CodeAdmissionReservationReused,
}

var classes = func() map[Code]Class {
	m := map[Code]Class{}
	for _, set := range []struct {
		k     Class
		codes []Code
	}{{ClassModelFault, modelFaultCodes}, {ClassCostBlocking, costBlockingCodes}, {ClassNote, noteCodes}, {ClassRefusal, refusalCodes}} {
		for _, c := range set.codes {
			m[c] = set.k
		}
	}
	return m
}()

// ClassOf returns the class of code c. A code not listed as a model fault,
// a cost that cannot be shown, a note or an admission refusal is a defect
// of the record: the safe default for a new code is to reject.
func ClassOf(c Code) Class {
	if k, ok := classes[c]; ok {
		return k
	}
	return ClassRecordDefect
}

// answerCodes are the loader's strict JSON and schema codes, which also
// describe a malformed answer.
var answerCodes = []Code{
	CodeJSONSyntax, CodeDuplicateKey, CodeInvalidUTF8, CodeTrailingData, CodeTooDeep, CodeTooLarge,
	CodeUnknownKey, CodeMissingKey, CodeWrongType, CodeNullHole, CodeEnumValue, CodeStringLength,
	CodePatternMismatch, CodeNumberNotInteger, CodeNumberOutOfRange, CodeTooFewItems, CodeTooManyItems,
	CodeDuplicateItem, CodeTextEmpty, CodeTextUntrimmed, CodeTextTooLong, CodeIDInvalid, CodeIDWrongPrefix,
	CodeDuplicateID, CodePathInvalid, CodeLineInvalid,
}

// AlsoInAnswer reports whether code c, a defect of the record elsewhere,
// can be found inside a model's answer file. There, like every finding in
// an answer, it is the model's fault: the run is a scored failure.
func AlsoInAnswer(c Code) bool {
	for _, a := range answerCodes {
		if a == c {
			return true
		}
	}
	return false
}
