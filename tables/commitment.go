package tables

// Commitment is the ledger as rule A7 keeps it, against one money cap:
// what is accounted (terminal, metered charges), what is held (uncertain
// provider charges and interrupted or unmetered requests, at their
// reservation's worst case: they are not assumed free), what admitted
// requests have reserved, committed = accounted + held + reserved, and
// remaining = cap − committed. Every amount is exact; a nil amount is
// unknown (some charge has no tariff, meter or reservation), and then
// committed and remaining are unknown too, never zero.
//
// Resuming a session reuses its receipts: a second receipt for an
// already charged request ID is a replayed ledger entry that charges
// nothing, so a duplicate dispatch is never charged twice.
type Commitment struct {
	Basis     string // reference or actual: which ledger amount and ceiling
	Cap       *Money // the campaign ceiling; nil when invalid
	Accounted *Money
	Held      *Money
	Reserved  *Money
	Committed *Money
	Remaining *Money // negative when the cap is exceeded
}

// Within reports whether the commitment is known and does not exceed its
// cap (inclusive).
func (c Commitment) Within() bool {
	return c.Cap != nil && c.Committed != nil && *c.Committed <= *c.Cap
}
