package rules

import (
	"cmp"
	"slices"
)

// CodeDoc documents one stable code: the stage that emits it, the rule of
// the contract it enforces and a one-line description.
type CodeDoc struct {
	Code  Code
	Stage string // load, validate, account, score, aggregate
	Rule  string // the rules it enforces (rules.Rules IDs), e.g. "L1", "V3/C09"
	Doc   string
}

// AllCodes returns every code the tool can emit, sorted by code. docs/errors.md
// is generated from it and a test pins it.
func AllCodes() []CodeDoc {
	all := slices.Concat(loadCodes, fileCodes, validateCodes, designCodes, accountCodes, scoreCodes, intervalsCodes, blindCodes, syscompCodes, providerCodes, developmentCodes, importCodes, rbenchCodes, promptCodes, policyCodes())
	slices.SortFunc(all, func(a, b CodeDoc) int { return cmp.Compare(a.Code, b.Code) })
	return all
}

// stageOrder is the pipeline order used to group codes in docs/errors.md.
var stageOrder = []string{"load", "validate", "account", "score", "aggregate", "intervals"}

// CodesByStage returns every code grouped by stage in pipeline order,
// sorted by code within a stage.
func CodesByStage() []CodeDoc {
	all := AllCodes()
	rank := func(s string) int {
		if i := slices.Index(stageOrder, s); i >= 0 {
			return i
		}
		return len(stageOrder)
	}
	slices.SortStableFunc(all, func(a, b CodeDoc) int {
		return cmp.Or(cmp.Compare(rank(a.Stage), rank(b.Stage)), cmp.Compare(a.Stage, b.Stage), cmp.Compare(a.Code, b.Code))
	})
	return all
}
