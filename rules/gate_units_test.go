package rules

import "testing"

// Every gate of the registry has a unit, so no report prints a gate's
// observation without one.
func TestEveryGateHasAUnit(t *testing.T) {
	for _, g := range Gates() {
		if g.Name.Unit() == "" {
			t.Errorf("gate %s has no unit in gate_units.go", g.Name)
		}
	}
	if len(gateUnits) != len(Gates()) {
		t.Errorf("%d gate units for %d gates", len(gateUnits), len(Gates()))
	}
}
