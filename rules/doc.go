// Package rules states evalgate's rules once: the rule registry (docs/rules.md
// is generated from [Rules], [Gates] and [Presets]), the stable finding codes
// with their stage, rule and class (docs/errors.md is generated from
// [AllCodes] and [ClassOf]), the [Finding] every stage reports and the caps on
// how many are listed, the gates with their units and the presets that give
// their thresholds, and the campaign kinds.
//
// A stage that adds a finding code adds it here, in the codes file of its
// stage (codes_load.go, codes_validate.go, ...), with the rule it enforces;
// a gate or preset is added in gates.go and gate_units.go. The package
// imports nothing of evalgate: every other package may import it.
package rules
