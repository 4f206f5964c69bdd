// Package intervals is the sixth stage: exploratory family-clustered bootstrap intervals (SPEC B1); they never change a gate.
package intervals

import "github.com/evalgate/evalgate/tables"

// Run fills s.Intervals from the campaign and the earlier stages' tables,
// appending any finding to s.Rejections.
func Run(c *tables.Campaign, s *tables.Set) {
	panic("stages/intervals: Run: being written")
}
