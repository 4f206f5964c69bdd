package rules

// Codes emitted by stages/intervals (rule B1). Both are Warn: intervals are
// exploratory, so a bad plan or an unusable value only removes intervals
// (or the value from them) and never changes admissibility or a gate.
const (
	// CodeIntervalPlanInvalid: manifest.intervals asks for an unknown
	// cluster or a resample count outside 0..1,000,000; no interval is
	// computed.
	CodeIntervalPlanInvalid Code = "interval_plan_invalid"
	// CodeIntervalValueInvalid: a run value the bootstrap would use is out of
	// range (R outside [0,1] or with a zero denominator, negative cost or
	// time); the value is left out of the intervals, never clipped.
	CodeIntervalValueInvalid Code = "interval_value_invalid"
)

var intervalsCodes = []CodeDoc{
	{CodeIntervalPlanInvalid, "intervals", "B1", "manifest.intervals has an unknown cluster or a resample count outside 0..1000000; no interval is computed"},
	{CodeIntervalValueInvalid, "intervals", "B1", "a run's R, cost or time is out of range; the value is left out of the exploratory intervals"},
}
