package validate

import (
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// PromptParts runs the prompt-part rules (rule C3: which parts each role
// receives, in which order, and that no reconciliation instruction or
// schema leaks) on c's manifest and prompt files alone, as a preflight
// does before any session exists. Run applies the same rules.
func PromptParts(c *tables.Campaign) rules.Findings {
	v := newRunner(c, nil)
	v.promptParts()
	return v.findings
}
