package account

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// maxTokens bounds every token count of a meter: far above any real session
// (10^15), and low enough that sums of a handful of counts never overflow.
const maxTokens = 1_000_000_000_000_000

// Buckets are a meter normalised into disjoint token buckets (rule A1,
// notes/receipts.md §1). Input = UncachedInput + CachedInput +
// CacheWrite5m + CacheWrite1h. Output is billed output with reasoning
// included; Reasoning is an informational subset of Output, never billed
// again.
type Buckets struct {
	UncachedInput int64
	CachedInput   int64
	CacheWrite5m  int64
	CacheWrite1h  int64
	Output        int64
	Reasoning     int64
}

// Input is the session's cumulative input: every input bucket once.
func (b Buckets) Input() int64 {
	// Each bucket is at most maxTokens, so the sum cannot overflow.
	return b.UncachedInput + b.CachedInput + b.CacheWrite5m + b.CacheWrite1h
}

// Problem is one thing wrong with a meter. Pointer is an RFC 6901 pointer
// relative to the usage object.
type Problem struct {
	Code    rules.Code
	Pointer string
	Message string
}

// Invalid reports whether p makes the meter unusable (every problem but an
// unsupported price modifier, which leaves the tokens valid and the cost
// unpriceable).
func (p Problem) Invalid() bool { return p.Code != rules.CodeMeterUnsupportedModifier }

// DecodeMeter decodes usage strictly per shape and normalises it. It never
// panics; on any invalid problem the buckets are meaningless.
func DecodeMeter(shape tables.UsageShape, usage []byte) (Buckets, []Problem) {
	var d decoder
	var b Buckets
	switch shape {
	case tables.ShapeNormalized:
		b = decodeShape(&d, usage, (*normalizedUsage).buckets)
	case tables.ShapeOpenAIResponses:
		b = decodeShape(&d, usage, (*responsesUsage).buckets)
	case tables.ShapeOpenAIChat:
		b = decodeShape(&d, usage, (*chatUsage).buckets)
	case tables.ShapeAnthropic:
		b = decodeShape(&d, usage, (*anthropicUsage).buckets)
	case tables.ShapeGemini:
		b = decodeShape(&d, usage, (*geminiUsage).buckets)
	case tables.ShapeCodexTokenCount:
		b = decodeShape(&d, usage, (*codexUsage).buckets)
	case tables.ShapeInspect:
		b = decodeShape(&d, usage, (*inspectUsage).buckets)
	case tables.ShapeInspectInclusive:
		b = decodeShape(&d, usage, (*inspectUsage).inclusiveBuckets)
	case tables.ShapeInspectGoogle, tables.ShapeInspectDeclaredHidden:
		b = decodeShape(&d, usage, (*inspectUsage).googleBuckets)
	case tables.ShapeCodexTotalTokenUsage:
		b = decodeShape(&d, usage, (*codexTokenUsage).buckets)
	case tables.ShapeHarborAgentContext:
		b = decodeShape(&d, usage, (*harborUsage).buckets)
	default:
		d.add(rules.CodeMeterUnknownShape, "", fmt.Sprintf("Meter shape %q is not one of the accepted usage shapes.", shape))
	}
	return b, d.problems
}

// decodeShape unmarshals usage into a fresh T and normalises it.
func decodeShape[T any](d *decoder, usage []byte, norm func(*T, *decoder) Buckets) Buckets {
	var v T
	if !d.unmarshal(usage, &v) {
		return Buckets{}
	}
	return norm(&v, d)
}

// decoder collects the problems of one meter.
type decoder struct {
	problems []Problem
	badCount bool // some count is missing or invalid: relations between counts are not checked
}

func (d *decoder) add(code rules.Code, ptr, msg string) {
	d.problems = append(d.problems, Problem{Code: code, Pointer: ptr, Message: msg})
}

func (d *decoder) invalid() bool {
	for _, p := range d.problems {
		if p.Invalid() {
			return true
		}
	}
	return false
}

// unmarshal decodes usage strictly: an object, no unknown or duplicate
// members, integers only. It reports the first decoding problem.
func (d *decoder) unmarshal(usage []byte, v any) bool {
	if len(usage) == 0 || jsontext.Value(usage).Kind() != '{' {
		d.add(rules.CodeMeterMalformed, "", "The meter's usage is not a JSON object.")
		return false
	}
	if fastUnmarshal(usage, v) {
		return true
	}
	reflect.ValueOf(v).Elem().SetZero() // what the fast path set, undone
	return d.jsonUnmarshal(usage, v)
}

// jsonUnmarshal is unmarshal of an object by the json package alone, which
// words the first problem.
func (d *decoder) jsonUnmarshal(usage []byte, v any) bool {
	err := json.Unmarshal(usage, v, json.RejectUnknownMembers(true))
	if err == nil {
		return true
	}
	var serr *json.SemanticError
	var xerr *jsontext.SyntacticError
	switch {
	case errors.As(err, &serr) && errors.Is(serr.Err, json.ErrUnknownName):
		d.add(rules.CodeMeterUnknownField, string(serr.JSONPointer),
			fmt.Sprintf("The usage member %q is not defined by this meter shape.", string(serr.JSONPointer)))
	case errors.As(err, &serr):
		d.add(rules.CodeMeterMalformed, string(serr.JSONPointer),
			fmt.Sprintf("The usage value at %q is not of the expected type (a non-negative integer count or the documented object).", string(serr.JSONPointer)))
	case errors.As(err, &xerr):
		d.add(rules.CodeMeterMalformed, string(xerr.JSONPointer),
			fmt.Sprintf("The usage is not valid strict JSON at %q (e.g. a duplicate member).", string(xerr.JSONPointer)))
	default:
		d.add(rules.CodeMeterMalformed, "", "The usage cannot be decoded.")
	}
	return false
}

// need returns a required count: a missing or null member, a negative or
// an absurd value is a problem (and yields 0).
func (d *decoder) need(ptr string, v *int64) int64 {
	if v == nil {
		d.badCount = true
		d.add(rules.CodeMeterMissingField, ptr, fmt.Sprintf("The usage lacks the required count %q (or it is null).", ptr))
		return 0
	}
	return d.count(ptr, *v)
}

// opt returns an optional count: absent or null means 0.
func (d *decoder) opt(ptr string, v *int64) int64 {
	if v == nil {
		return 0
	}
	return d.count(ptr, *v)
}

func (d *decoder) count(ptr string, v int64) int64 {
	switch {
	case v < 0:
		d.badCount = true
		d.add(rules.CodeMeterNegative, ptr, fmt.Sprintf("The count %q is negative (%d).", ptr, v))
		return 0
	case v > maxTokens:
		d.badCount = true
		d.add(rules.CodeMeterOutOfRange, ptr, fmt.Sprintf("The count %q exceeds 10^15.", ptr))
		return 0
	}
	return v
}

// subset checks part ≤ whole for a count defined as a subset of another.
func (d *decoder) subset(code rules.Code, partPtr string, part int64, wholePtr string, whole int64) {
	if !d.badCount && part > whole {
		d.add(code, partPtr, fmt.Sprintf("%q (%d) exceeds %q (%d), of which it is a subset.", partPtr, part, wholePtr, whole))
	}
}

// total checks a reported total against the sum its shape defines.
func (d *decoder) total(ptr string, reported int64, rule string, parts ...int64) {
	if d.badCount {
		return
	}
	var sum int64
	for _, p := range parts {
		sum += p // each part ≤ maxTokens: no overflow
	}
	if reported != sum {
		d.add(rules.CodeMeterTotalMismatch, ptr, fmt.Sprintf("%q is %d but %s is %d.", ptr, reported, rule, sum))
	}
}

// modifier records an unsupported price modifier.
func (d *decoder) modifier(ptr, what string) {
	d.add(rules.CodeMeterUnsupportedModifier, ptr, fmt.Sprintf("The meter reports %s at %q, which the reference rate card cannot price.", what, ptr))
}
