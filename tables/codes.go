package tables

import (
	"cmp"
	"slices"
)

// CodeDoc documents one stable code: the stage that emits it, the rule of
// the contract it enforces and a one-line description.
type CodeDoc struct {
	Code  Code
	Stage string // load, validate, account, score, aggregate
	Rule  string // SPEC or seed reference, e.g. "L1", "V3/C09"
	Doc   string
}

// AllCodes returns every code the tool can emit, sorted by code. docs/errors.md
// is generated from it and a test pins it.
func AllCodes() []CodeDoc {
	all := slices.Concat(loadCodes, validateCodes, accountCodes, scoreCodes)
	slices.SortFunc(all, func(a, b CodeDoc) int { return cmp.Compare(a.Code, b.Code) })
	return all
}
