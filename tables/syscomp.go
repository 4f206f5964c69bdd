package tables

// Comparator roles of the arms (systems) of a system comparison (rule G5,
// rule G5): Arm.ComparatorRole.
const (
	// ComparatorBaseline is the system the candidate must beat by the
	// improvement margin (Native in the contract's example); it is the first arm.
	ComparatorBaseline = "baseline"
	// ComparatorCandidate is the system the gates judge (Madar).
	ComparatorCandidate = "candidate"
	// ComparatorComparator is the existing alternative the candidate may
	// lose to only within small bounds (Serena).
	ComparatorComparator = "comparator"
)

// ArmWithRole returns the first arm of d with the given comparator role,
// or nil.
func (d *Design) ArmWithRole(role string) *Arm {
	for i := range d.Arms {
		if d.Arms[i].ComparatorRole == role {
			return &d.Arms[i]
		}
	}
	return nil
}
