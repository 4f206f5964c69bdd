package tables

import "github.com/evalgate/evalgate/rules"

// PreflightItem is one line of the checklist a runner must satisfy before
// a campaign's first dispatch (`evalgate preflight`, stages.Preflight):
// one identity, prompt file, ceiling, rate card or task file. Its status is
// missing when the item is absent, empty, a placeholder, or refused by a
// finding at its position.
type PreflightItem struct {
	Item    string `json:"item"`    // what is checked, e.g. "identity returned_model"
	File    string `json:"file"`    // campaign-relative file the item lives in
	Pointer string `json:"pointer"` // JSON pointer within File, "" for the whole file
	Status  string `json:"status"`  // PreflightOK or PreflightMissing
	Detail  string `json:"detail"`  // the value found, or the reason of its own it is missing
	// Findings are the rejecting findings at the item's position (or in
	// its file) that make it missing.
	Findings []rules.Finding `json:"findings"`
}

// Preflight statuses.
const (
	PreflightOK      = "ok"
	PreflightMissing = "missing"
)
