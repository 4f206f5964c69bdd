package load

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/rules"
)

// walker checks a parsed document against a compiled schema and collects
// every violation with its JSON pointer. It never stops at the first.
type walker struct {
	s   *compiledSchema
	at  position
	out rules.FindingCap // one document of a million bad members keeps a hundred findings per code
	// sink, when set, is where the findings go next; a finding it has no
	// room for is only counted there, so it is not formatted here either.
	sink *rules.FindingCap
	// shapeBroken records a shape code (see shapeCodes), wherever it went.
	shapeBroken bool
	// deferSink holds back what goes to sink until the document is known
	// to parse (flushSink): a streamed document may still end in a syntax
	// error, and then only that error is reported. What is held is counted
	// per code, the first of each kept, so memory does not grow with it.
	deferSink bool
	held      []heldFindings
}

// heldFindings are n findings of one code bound for the sink, the first
// of them kept; all of one document, so of one file and severity.
type heldFindings struct {
	first rules.Finding
	n     int
}

// flushSink adds the held findings to the sink, in the order their codes
// were first held, as adding them one by one would have.
func (w *walker) flushSink() {
	for _, h := range w.held {
		for range h.n {
			w.sink.Add(h.first)
		}
	}
	w.held = nil
}

// add reports a violation. Past the cap of its code (here, or in the sink)
// only the count is kept, so the message is not even formatted.
//
// ptr may be a view of a streamer's path buffer, valid only during the
// call: a finding keeps a copy.
func (w *walker) add(code rules.Code, ptr, format string, args ...any) {
	w.shapeBroken = w.shapeBroken || shapeCodes[code]
	ptr = strings.Clone(ptr)
	switch {
	case w.sink != nil && !w.sink.Room(code) && w.deferSink:
		for i := range w.held {
			if w.held[i].first.Code == code {
				w.held[i].n++
				return
			}
		}
		w.held = append(w.held, heldFindings{first: w.at.finding(code, ptr, ""), n: 1})
	case w.sink != nil && !w.sink.Room(code):
		w.sink.Add(w.at.finding(code, ptr, ""))
	case !w.out.Room(code):
		w.out.Add(w.at.finding(code, ptr, ""))
	default:
		w.out.Add(w.at.finding(code, ptr, fmt.Sprintf(format, args...)))
	}
}

// walk checks v at ptr against r.
func (w *walker) walk(r *rule, v *node, ptr string) {
	switch {
	case r.ref != "":
		if check := specialDefs[r.ref]; check != nil {
			check(w, v, ptr, w.s.defs[r.ref])
			return
		}
		w.walk(w.s.defs[r.ref], v, ptr)
		return
	case r.nullable != nil:
		if v.kind != kindNull {
			w.walk(r.nullable, v, ptr)
		}
		return
	}
	if !w.checkType(r, v, ptr) {
		return
	}
	switch v.kind {
	case kindObject:
		w.walkObject(r, v, ptr)
	case kindArray:
		w.walkArray(r, v, ptr)
	case kindString:
		w.checkString(r, v, ptr)
	case kindNumber:
		w.checkInteger(r, v, ptr)
	}
}

// checkType reports a value of the wrong JSON type. A rule with only an
// enum or const admits strings.
func (w *walker) checkType(r *rule, v *node, ptr string) bool {
	if r.kinds.has(v.kind) {
		return true
	}
	types := r.types
	if types == nil && (r.enum != nil || r.constant != nil) {
		types = []string{"string"}
	}
	if types == nil || slices.Contains(types, jsonType(v)) {
		return true
	}
	if v.kind == kindNull {
		w.add(rules.CodeWrongType, ptr, "value is null but must be %s (this member is not nullable)", strings.Join(types, " or "))
	} else {
		w.add(rules.CodeWrongType, ptr, "value is a JSON %s but must be %s", v.kind, strings.Join(types, " or "))
	}
	return false
}

// jsonType names v's type as JSON Schema does; every number is reported
// as "integer" here and its literal is checked in checkInteger.
func jsonType(v *node) string { return jsonTypeName(v.kind) }

func jsonTypeName(k nodeKind) string {
	if k == kindNumber {
		return "integer"
	}
	return k.String()
}

// kindSet is a set of node kinds, as the bits 1<<kind, known when
// kindsKnown is set: checkType's answer for the kinds it holds.
type kindSet uint8

const kindsKnown kindSet = 1

func (k kindSet) has(kind nodeKind) bool { return k&kindsKnown != 0 && k&(1<<kind) != 0 }

// kindsOf is the set of node kinds checkType admits for r.
func kindsOf(r *rule) kindSet {
	types := r.types
	if types == nil && (r.enum != nil || r.constant != nil) {
		types = []string{"string"}
	}
	set := kindsKnown
	for k := kindNull; k <= kindArray; k++ {
		if types == nil || slices.Contains(types, jsonTypeName(k)) {
			set |= 1 << k
		}
	}
	return set
}

func (w *walker) walkObject(r *rule, v *node, ptr string) {
	for _, m := range v.members {
		p := appendPointer(ptr, m.name)
		if sub := r.prop(m.name); sub != nil {
			w.walk(sub, m.value, p)
		} else if r.closed {
			w.add(rules.CodeUnknownKey, p, "member %q is not part of the format", m.name)
		}
	}
	for _, name := range r.required {
		if v.get(name) == nil {
			w.add(rules.CodeMissingKey, appendPointer(ptr, name), "required member %q is missing (nullable members are required too)", name)
		}
	}
}

func (w *walker) walkArray(r *rule, v *node, ptr string) {
	if n := len(v.elems); n < r.minItems {
		w.add(rules.CodeTooFewItems, ptr, "array has %d elements; at least %d are required", n, r.minItems)
	} else if r.maxItems >= 0 && n > r.maxItems {
		w.add(rules.CodeTooManyItems, ptr, "array has %d elements; at most %d are allowed", n, r.maxItems)
	}
	elems := v.elems
	if r.maxItems >= 0 && len(elems) > r.maxItems {
		// The elements past the cap are refused by the finding above;
		// walking them too would let one array of a capped document yield
		// millions of findings.
		elems = elems[:r.maxItems]
	}
	seen := map[string]int{}
	for i, e := range elems {
		p := indexPointer(ptr, i)
		if e.kind == kindNull && !w.allowsNull(r.items) {
			w.add(rules.CodeNullHole, p, "array element %d is null; arrays must be dense", i)
			continue
		}
		if r.items != nil {
			w.walk(r.items, e, p)
		}
		if r.uniqueItems && e.kind == kindString {
			if first, dup := seen[e.text]; dup {
				w.add(rules.CodeDuplicateItem, p, "%q repeats element %d; elements must be unique", e.text, first)
			} else {
				seen[e.text] = i
			}
		}
	}
}

// allowsNull reports whether r admits null.
func (w *walker) allowsNull(r *rule) bool {
	switch {
	case r == nil:
		return true
	case r.ref != "":
		return specialDefs[r.ref] == nil && w.allowsNull(w.s.defs[r.ref])
	case r.nullable != nil:
		return true
	}
	return r.types == nil && r.enum == nil && r.constant == nil || slices.Contains(r.types, "null")
}

func (w *walker) checkString(r *rule, v *node, ptr string) {
	s := v.text
	if r.constant != nil && s != *r.constant {
		w.add(rules.CodeFormatUnsupported, ptr, "format %q is not supported; this reader knows %q", s, *r.constant)
		return
	}
	if r.enum != nil && !slices.Contains(r.enum, s) {
		w.add(rules.CodeEnumValue, ptr, "%q is not one of %s", s, strings.Join(r.enum, ", "))
		return
	}
	if !lengthWithin(s, r.minLength, r.maxLength) {
		w.add(rules.CodeStringLength, ptr, "string has %d characters; %s", utf8.RuneCountInString(s), lengthRange(r.minLength, r.maxLength))
		return
	}
	if r.pattern != nil && !r.pattern.MatchString(s) {
		w.add(rules.CodePatternMismatch, ptr, "%q does not match %s", Clip(s), r.pattern)
	}
}

// lengthWithin reports whether s has lo to hi Unicode scalar values (hi
// < 0: no cap), counting them only when its byte length cannot tell (a
// string has no more characters than bytes, and a non-empty one at least
// one).
func lengthWithin(s string, lo, hi int) bool {
	if lo <= 1 && (hi < 0 || len(s) <= hi) {
		return len(s) >= lo
	}
	n := utf8.RuneCountInString(s)
	return n >= lo && (hi < 0 || n <= hi)
}

func lengthRange(lo, hi int) string {
	if hi < 0 {
		return fmt.Sprintf("at least %d are required", lo)
	}
	return fmt.Sprintf("%d to %d are allowed", lo, hi)
}

func (w *walker) checkInteger(r *rule, v *node, ptr string) {
	if !isIntegerLiteral(v.text) {
		w.add(rules.CodeNumberNotInteger, ptr, "%s is not an integer; write integers without fraction or exponent", Clip(v.text))
		return
	}
	if r.minimum == nil && r.maximum == nil {
		return
	}
	if n, err := strconv.ParseInt(v.text, 10, 64); err == nil && (r.minimum == nil || r.minimum.IsInt64()) && (r.maximum == nil || r.maximum.IsInt64()) {
		if r.minimum != nil && n < r.minimum.Int64() || r.maximum != nil && n > r.maximum.Int64() {
			w.add(rules.CodeNumberOutOfRange, ptr, "%s is outside %s..%s", Clip(v.text), r.minimum, r.maximum)
		}
		return // within int64, as are the bounds: compared without big numbers
	}
	n, _ := new(big.Int).SetString(v.text, 10)
	if r.minimum != nil && n.Cmp(r.minimum) < 0 || r.maximum != nil && n.Cmp(r.maximum) > 0 {
		w.add(rules.CodeNumberOutOfRange, ptr, "%s is outside %s..%s", Clip(v.text), r.minimum, r.maximum)
	}
}

// Clip shortens hostile text quoted in a message.
func Clip(s string) string {
	const max = 64
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max]) + "…"
}
