// Package account is the third stage: tokens, exact money, time, ceilings and admission (SPEC A1–A8).
package account

import "github.com/evalgate/evalgate/tables"

// Run fills s.Tokens and s.Ledger from the campaign and the earlier stages' tables,
// appending any finding to s.Rejections.
func Run(c *tables.Campaign, s *tables.Set) {
	panic("stages/account: Run: being written")
}
