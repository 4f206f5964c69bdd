package account

import (
	"fmt"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// manifestLimits is parseLimits for a campaign's manifest plus the limits
// its kind imposes: a system comparison is capped at 90 model sessions,
// retries and preparation included (tables.SystemSessionLimit), whatever
// a larger ceilings.campaign.total_sessions says. Preparation sessions are
// ordinary ledger charges, so a cold setup consumes the global session,
// token and money allowance even when no workflow completes.
func manifestLimits(m *tables.Manifest) (limits, []rules.Finding) {
	l, fs := parseLimits(&m.Ceilings)
	if m.Kind != rules.KindSystemComparison || l.total == nil || *l.total <= tables.SystemSessionLimit {
		return l, fs
	}
	fs = append(fs, rules.Finding{Code: rules.CodeSystemSessionCeiling, Severity: rules.Warn, File: manifestFile,
		Pointer: "/ceilings/campaign/total_sessions",
		Message: fmt.Sprintf("The manifest allows %d sessions; a system comparison is capped at %d model sessions, retries and preparation included, and that cap applies.", *l.total, tables.SystemSessionLimit)})
	capped := tables.SystemSessionLimit
	l.total = &capped
	return l, fs
}
