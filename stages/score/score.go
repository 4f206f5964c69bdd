// Package score is the fourth stage: blinded adjudications become per-run scores R and U (SPEC Q1–Q3).
package score

import "github.com/evalgate/evalgate/tables"

// Run fills s.Runs and s.Obligations from the campaign and the earlier stages' tables,
// appending any finding to s.Rejections.
func Run(c *tables.Campaign, s *tables.Set) {
	panic("stages/score: Run: being written")
}
