// Package aggregate is the fifth stage: task medians, macro-averages, repository summaries, conjunctive gates and the decision (SPEC G1–G7).
package aggregate

import "github.com/evalgate/evalgate/tables"

// Run fills s.Tasks, s.Repositories, s.Gates and s.Decision from the campaign and the earlier stages' tables,
// appending any finding to s.Rejections.
func Run(c *tables.Campaign, s *tables.Set) {
	panic("stages/aggregate: Run: being written")
}
