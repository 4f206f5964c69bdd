package importers

import (
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/tables"
)

// Inspect versions at which ModelUsage semantics changed
// (notes/receipts.md §2.6): from 0.3.184 input_tokens excludes cached
// tokens; Google's converter split the cache out only from 0.3.208.
var (
	inspectExclusiveSince       = inspectVersion{release: []int64{0, 3, 184}}
	inspectGoogleExclusiveSince = inspectVersion{release: []int64{0, 3, 208}}
)

// inspectVersion is a parsed PEP 440 version as Inspect writes it
// (e.g. "0.3.95.dev16+g6527d0861"): the numeric release and whether a
// pre-release (devN, aN, bN, rcN) or post-release (postN) suffix follows.
// The local part after "+" is ignored.
type inspectVersion struct {
	release   []int64
	pre, post bool
}

// parseInspectVersion parses v; ok is false when v has no numeric release.
func parseInspectVersion(v string) (inspectVersion, bool) {
	v, _, _ = strings.Cut(v, "+")
	var out inspectVersion
	for i, part := range strings.Split(v, ".") {
		n, err := strconv.ParseInt(part, 10, 64)
		if err == nil && n >= 0 && part[0] != '+' {
			if out.pre || out.post {
				return inspectVersion{}, false // a number after a suffix
			}
			out.release = append(out.release, n)
			continue
		}
		if i == 0 {
			return inspectVersion{}, false
		}
		switch {
		case strings.HasPrefix(part, "post"):
			out.post = true
		case strings.HasPrefix(part, "dev"), strings.HasPrefix(part, "rc"),
			strings.HasPrefix(part, "a"), strings.HasPrefix(part, "b"):
			out.pre = true
		default:
			return inspectVersion{}, false
		}
	}
	return out, len(out.release) > 0
}

// compareInspectVersions orders a and b: releases component by component
// (missing components are 0), then a pre-release before its release and a
// post-release after it (PEP 440: 0.3.184.dev5 < 0.3.184 < 0.3.184.post1).
func compareInspectVersions(a, b inspectVersion) int {
	for i := range max(len(a.release), len(b.release)) {
		x, y := component(a.release, i), component(b.release, i)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	rank := func(v inspectVersion) int {
		switch {
		case v.pre:
			return -1
		case v.post:
			return 1
		}
		return 0
	}
	return rank(a) - rank(b)
}

func component(r []int64, i int) int64 {
	if i < len(r) {
		return r[i]
	}
	return 0
}

// InspectShape decides the meter shape of a ModelUsage written by
// inspect_ai version for model ("provider/name"): the ≥ 0.3.184 exclusive
// semantics, the legacy inclusive semantics (OpenAI and Grok before
// 0.3.184, Google before 0.3.208), or none — ok is false when the version
// cannot be parsed or an old log's provider is not one whose semantics are
// known. It never guesses.
func InspectShape(version, model string) (shape tables.UsageShape, ok bool) {
	v, parsed := parseInspectVersion(version)
	if !parsed {
		return "", false
	}
	provider, _, _ := strings.Cut(model, "/")
	switch {
	case provider == "google" && compareInspectVersions(v, inspectGoogleExclusiveSince) < 0:
		return tables.ShapeInspectGoogle, true
	case compareInspectVersions(v, inspectExclusiveSince) >= 0:
		return tables.ShapeInspect, true
	case provider == "openai", provider == "grok":
		return tables.ShapeInspectInclusive, true
	case provider == "anthropic":
		return tables.ShapeInspect, true
	}
	return "", false
}

// HiddenTokensOutput is the one convention a user may declare for the
// hidden tokens of an inclusive Inspect meter (`import inspect
// --hidden-tokens output`): the excess of total_tokens over input_tokens +
// output_tokens is hidden reasoning the provider bills at the output rate.
const HiddenTokensOutput = "output"

// DeclareHiddenOutput applies the user's HiddenTokensOutput declaration to
// log: every inspect.model_usage.inclusive meter whose total exceeds input
// + output takes the shape inspect.model_usage.declared_hidden_output, so
// the account stage counts the excess as reasoning billed as output. Every
// other meter keeps its shape: an inclusive meter whose total is input +
// output already holds its reasoning inside output (nothing changes), and
// the exclusive and Google shapes have conventions of their own. A usage
// whose counts cannot be read keeps its shape, for the account stage to
// report.
func DeclareHiddenOutput(log *InspectLog) {
	for i := range log.Samples {
		for j := range log.Samples[i].Usage {
			u := &log.Samples[i].Usage[j]
			if u.Shape == tables.ShapeInspectInclusive && hidesTokens(u.Usage) {
				u.Shape = tables.ShapeInspectDeclaredHidden
			}
		}
	}
}

// hidesTokens says whether an inclusive ModelUsage's total_tokens exceeds
// input_tokens + output_tokens, all three present and non-negative.
func hidesTokens(usage []byte) bool {
	var u struct {
		In    *int64 `json:"input_tokens"`
		Out   *int64 `json:"output_tokens"`
		Total *int64 `json:"total_tokens"`
	}
	if json.Unmarshal(usage, &u) != nil || u.In == nil || u.Out == nil || u.Total == nil ||
		*u.In < 0 || *u.Out < 0 || *u.Total < 0 {
		return false
	}
	return *u.Total-*u.In > *u.Out // no overflow: every count is non-negative
}
