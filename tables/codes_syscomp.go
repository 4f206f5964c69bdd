package tables

// Codes of the system-comparison campaign kind (SPEC G5, seed 000 §6 and
// "Conditional system comparison: frozen investigation and packet
// procedure"), emitted by stages/load, stages/validate and
// stages/aggregate.
const (
	CodeComparatorRoles          Code = "comparator_roles_invalid"
	CodeComparatorRoleUnexpected Code = "comparator_role_unexpected"
	CodeOrderUnbalanced          Code = "order_unbalanced"
	CodeObservationsUnexpected   Code = "observations_unexpected"
	CodeObservationsMismatch     Code = "observations_mismatch"
	CodeObservationsNotRaw       Code = "observations_not_raw"
	CodeObservationOrder         Code = "observation_order"
	CodeObservationsMissing      Code = "observations_missing"
	CodeInvestigationEmpty       Code = "investigation_empty"
	CodeSetupMissing             Code = "setup_missing"
	CodeSetupDuplicate           Code = "setup_duplicate"
	CodeSetupNotFirst            Code = "setup_not_first"
	CodeGatePresetKind           Code = "gate_preset_kind_mismatch"
)

var syscompCodes = []CodeDoc{
	{CodeComparatorRoles, "load", "I1/G5", "A system-comparison design does not name exactly one baseline (the first arm) and one candidate, at most one comparator, and a role for every arm."},
	{CodeComparatorRoleUnexpected, "load", "I1", "An arm names a comparator_role although the campaign kind is not system-comparison."},
	{CodeOrderUnbalanced, "load", "G5", "The system orders of a system-comparison schedule are not balanced: permutation counts differ by more than one."},
	{CodeObservationsUnexpected, "load", "I5/G5", "A receipt carries observations although it is not an investigation session of a system comparison."},
	{CodeObservationsMismatch, "load", "I5/G5", "A raw-observation packet does not have the receipt's sha256 and byte count, or names another task or repository."},
	{CodeObservationsNotRaw, "load", "I2/G5", "A packet is used in the wrong place: a raw-observation packet as a task packet, or an investigation's packet without raw_observations true."},
	{CodeObservationOrder, "load", "G5", "Raw observations are not numbered E1..EN in completion order."},
	{CodeObservationsMissing, "validate", "V2/G5", "An investigation session that returned a response recorded no raw-observation packet, so its review's evidence is unknown; the execution is invalid."},
	{CodeInvestigationEmpty, "validate", "V7/G5", "An investigation returned an empty or non-UTF-8 draft: a valid investigation-stage system failure of the model, not infrastructure."},
	{CodeSetupMissing, "validate", "V2/G5", "A (system, repository) of a system comparison has no preparation (cold setup) receipt."},
	{CodeSetupDuplicate, "validate", "V2/G5", "A (system, repository) of a system comparison has more than one preparation receipt."},
	{CodeSetupNotFirst, "validate", "G5", "A preparation receipt is not charged to its system's first workflow in that repository (schedule order)."},
	{CodeGatePresetKind, "aggregate", "G2/G5", "The gate preset does not fit the campaign kind (system-comparison-v1 judges only system comparisons, the paired presets only paired reviews)."},
}
