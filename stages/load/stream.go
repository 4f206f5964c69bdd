package load

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
)

// One decoding pass per document: a streamer reads the document's tokens
// once, checks each value against the published schema as it is read (the
// same rules and findings as the tree walker, which it reuses for checks)
// and stores it straight into the Go value, so no intermediate tree is
// built and the bytes are not tokenized a second time by Unmarshal. Values
// of Go types with their own JSON decoding (time.Time, jsontext.Value) are
// checked while streaming and then decoded from their own bytes, which the
// token offsets delimit. A Go struct member is set only from a value its
// schema rule accepts; a document whose shape is broken (shapeCodes) is
// not returned at all, as before.

// streamer is one document's pass.
type streamer struct {
	*walker
	dec  *jsontext.Decoder
	data []byte
	err  error // the first tokenizer error; the pass stops there
	// interned are recent strings, shared across documents (str).
	interned *internCache
	// in keeps one copy of each value of the fields tagged intern
	// (interner); nil when the document's values are not shared.
	in *interner
	// sharing is whether the value being read is in such a field.
	sharing bool
	// text is where a shared *string's value is read (sharedPointer).
	text string
	// path is the JSON pointer of the value being read. The ptr strings
	// the streamer passes down are views of it (pushName, pushIndex), not
	// copies: a view is valid while its value is read, and walker.add
	// copies the pointer of every finding it keeps, so no pointer string
	// is built for a member that has nothing to report.
	path []byte
	// leaf is the node of the scalar being checked, reused: checks
	// never keep the node they are given.
	leaf node
}

// pushName appends member name's reference token to the path; it returns
// the member's pointer (a view of the path) and the length to pop to.
func (s *streamer) pushName(name string) (string, int) {
	n := len(s.path)
	s.path = append(s.path, '/')
	if strings.IndexByte(name, '~') >= 0 || strings.IndexByte(name, '/') >= 0 {
		s.path = append(s.path, rules.PointerToken(name)...)
	} else {
		s.path = append(s.path, name...)
	}
	return unsafe.String(&s.path[0], len(s.path)), n
}

// pushIndex appends an array index to the path, as pushName.
func (s *streamer) pushIndex(i int) (string, int) {
	n := len(s.path)
	s.path = strconv.AppendInt(append(s.path, '/'), int64(i), 10)
	return unsafe.String(&s.path[0], len(s.path)), n
}

// pop truncates the path to n, back to the enclosing value's pointer.
func (s *streamer) pop(n int) { s.path = s.path[:n] }

// decodeStream is decodeDocInto's one pass: see decodeDocInto.
func decodeStream(data []byte, schema string, at position, out any, sink *rules.FindingCap, in *interner) (bool, rules.Findings) {
	return decodeStreamTo(data, schema, at, out, sink, in, false)
}

// decodeStreamTo is decodeStream; when zeroed, out holds its type's zero
// value and the caller discards it if the document is refused, so the
// document is read into it in place (and out is zeroed again when
// refused) instead of into a copy set only once the document is whole.
func decodeStreamTo(data []byte, schema string, at position, out any, sink *rules.FindingCap, in *interner, zeroed bool) (ok bool, _ rules.Findings) {
	target := reflect.ValueOf(out).Elem()
	dst := target
	if zeroed {
		defer func() {
			if !ok {
				target.SetZero()
			}
		}()
	} else {
		dst = reflect.New(target.Type()).Elem()
	}
	re := reusedPool.Get().(*reused)
	w := &re.w
	*w = walker{s: schemaFor(schema), at: at, sink: sink, deferSink: sink != nil}
	re.buf = *bytes.NewBuffer(data)
	re.dec.Reset(&re.buf) // read in place: a bytes.Buffer is not copied
	s := &re.s
	*s = streamer{walker: w, dec: &re.dec, data: data, path: re.path[:0], in: in}
	defer func() { // after the last use of the decoder
		re.path = s.path[:0]
		// the pool keeps no document: what the pass returned is the caller's
		re.buf, re.w, re.s = bytes.Buffer{}, walker{}, streamer{}
		reusedPool.Put(re)
	}()
	s.value(w.s.root, "", dst)
	if s.interned != nil {
		internPool.Put(s.interned)
	}
	if s.err == nil {
		if _, terr := s.dec.ReadToken(); terr != io.EOF {
			return false, rules.Findings{at.finding(rules.CodeTrailingData, "",
				fmt.Sprintf("unexpected data after the top-level value at byte offset %d", s.dec.InputOffset()))}
		}
	}
	if s.err != nil {
		return false, rules.Findings{syntaxFinding(s.dec, s.err, at)}
	}
	w.flushSink()
	found := w.out.Findings()
	if w.shapeBroken {
		return false, found
	}
	if !zeroed {
		target.Set(dst)
	}
	return true, found
}

// reused is what one document's pass needs and the next may reuse: the
// decoder (Reset keeps its stacks), the buffer it reads the document
// from, the path buffer, and the pass's own state.
type reused struct {
	dec  jsontext.Decoder
	buf  bytes.Buffer
	path []byte
	w    walker
	s    streamer
}

var reusedPool = sync.Pool{New: func() any { return new(reused) }}

// read reads one token, recording the first error.
func (s *streamer) read() jsontext.Token {
	if s.err != nil {
		return jsontext.Token{}
	}
	tok, err := s.dec.ReadToken()
	if err != nil {
		s.err = err
	}
	return tok
}

// peek is the kind of the next token, 0 after an error.
func (s *streamer) peek() jsontext.Kind {
	if s.err != nil {
		return 0
	}
	return s.dec.PeekKind()
}

// open reads '{' or '[' and refuses nesting deeper than maxDepth.
func (s *streamer) open() bool {
	s.read()
	if s.err == nil && s.dec.StackDepth() > maxDepth {
		s.err = errTooDeep
	}
	return s.err == nil
}

// skip reads past one value, still refusing nesting deeper than maxDepth
// (jsontext's SkipValue would allow far more).
func (s *streamer) skip() {
	for depth := 0; s.err == nil; {
		switch s.peek() {
		case '{', '[':
			if !s.open() {
				return
			}
			depth++
			continue
		case '}', ']':
			s.read()
			depth--
		default:
			s.read()
		}
		if depth == 0 {
			return
		}
	}
}

// start is the input offset where the next value begins.
func (s *streamer) start() int64 { return s.dec.InputOffset() }

// raw is the bytes of the value read since start.
func (s *streamer) raw(start int64) []byte {
	b := s.data[start:s.dec.InputOffset()]
	for len(b) > 0 {
		switch b[0] {
		case ' ', '\t', '\r', '\n', ',', ':':
			b = b[1:]
			continue
		}
		break
	}
	return b
}

// nodeKinds maps a token kind to the tree's node kind.
func nodeKindOf(k jsontext.Kind) nodeKind {
	switch k {
	case 'n':
		return kindNull
	case 't', 'f':
		return kindBool
	case '0':
		return kindNumber
	case '"':
		return kindString
	case '{':
		return kindObject
	case '[':
		return kindArray
	}
	return 0
}

// value reads the next value, checks it against r at ptr and, when dst is
// valid, stores it there. A string value's text is returned for
// uniqueItems.
func (s *streamer) value(r *rule, ptr string, dst reflect.Value) (text string, isString bool) {
	for r.ref != "" {
		if r.check != nil {
			return s.special(r.check, r.def, ptr, dst)
		}
		r = r.def
	}
	k := s.peek()
	if s.err != nil {
		return "", false
	}
	if s.shapeBroken {
		dst = reflect.Value{} // the document will not be returned: store nothing more
	}
	if dst.IsValid() && dst.Kind() == reflect.Pointer {
		if k == 'n' {
			if r.nullable == nil {
				s.checkType(r, &node{kind: kindNull}, ptr)
			}
			s.read() // the pointer stays nil
			return "", false
		}
		if s.sharing && dst.Type() == stringPointer {
			return s.sharedPointer(r, ptr, dst)
		}
		dst.Set(reflect.New(dst.Type().Elem()))
		dst = dst.Elem()
	}
	if r.nullable != nil {
		if k == 'n' {
			s.read()
			return "", false
		}
		return s.value(r.nullable, ptr, dst)
	}
	if dst.IsValid() && r.decodesItself(dst.Type()) {
		start := s.start()
		text, isString = s.value(r, ptr, reflect.Value{})
		s.store(dst, s.raw(start), ptr)
		return text, isString
	}
	if !s.checkType(r, &node{kind: nodeKindOf(k)}, ptr) {
		s.skip()
		return "", false
	}
	switch k {
	case '{':
		s.object(r, ptr, dst)
	case '[':
		s.array(r, ptr, dst)
	default:
		return s.scalar(r, ptr, dst, func(v *node) {
			switch v.kind {
			case kindString:
				s.checkString(r, v, ptr)
			case kindNumber:
				s.checkInteger(r, v, ptr)
			}
		})
	}
	return "", false
}

var stringPointer = reflect.TypeFor[*string]()

// sharedPointer reads the value of a *string field tagged intern into
// dst as a pointer shared with every equal value (interner.pointer).
func (s *streamer) sharedPointer(r *rule, ptr string, dst reflect.Value) (string, bool) {
	s.text = ""
	text, isString := s.value(r, ptr, reflect.ValueOf(&s.text).Elem())
	dst.Set(reflect.ValueOf(s.in.pointer(s.text)))
	s.text = ""
	return text, isString
}

// scalar reads a string, number, boolean or null of rule r, checks it and
// stores it.
func (s *streamer) scalar(r *rule, ptr string, dst reflect.Value, check func(*node)) (string, bool) {
	start := s.start()
	tok := s.read()
	if s.err != nil {
		return "", false
	}
	v := &s.leaf
	*v = node{kind: nodeKindOf(tok.Kind())}
	switch v.kind {
	case kindString:
		if s.sharing {
			v.text = s.internStr(tok, start)
		} else {
			v.text = s.str(tok, start)
		}
	case kindNumber:
		// a view of the literal as read, not a copy: a number's text is
		// only parsed and formatted into messages, never kept
		raw := s.raw(start)
		v.text = unsafe.String(unsafe.SliceData(raw), len(raw))
	case kindBool:
		v.boolean = tok.Bool()
	}
	shape := s.shapeBroken
	s.shapeBroken = false
	check(v)
	ok := !s.shapeBroken
	s.shapeBroken = s.shapeBroken || shape
	if ok && dst.IsValid() {
		s.setScalar(r, dst, v, ptr, start)
	}
	return v.text, v.kind == kindString
}

// str is a string token's text, shared with an equal earlier string when
// it is short and unescaped: a million receipts naming the same model,
// shape and hashes keep one copy of each, as Unmarshal's cache did.
func (s *streamer) str(tok jsontext.Token, start int64) string {
	raw := s.raw(start)
	if len(raw) < 2 || len(raw) > 2+maxInterned || bytes.IndexByte(raw, '\\') >= 0 {
		return tok.String()
	}
	b := raw[1 : len(raw)-1]
	if s.interned == nil {
		s.interned = internPool.Get().(*internCache)
	}
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	slot := &s.interned[h%uint32(len(s.interned))]
	if *slot != string(b) {
		*slot = string(b)
	}
	return *slot
}

// internStr is a string token's text from the interner: the value of a
// field tagged intern.
func (s *streamer) internStr(tok jsontext.Token, start int64) string {
	if raw := s.raw(start); len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 {
		return s.in.bytes(raw[1 : len(raw)-1])
	}
	return s.in.string(tok.String())
}

// maxInterned is the longest string str shares: a sha256 in hex.
const maxInterned = 64

// internCache is a fixed table of recent strings, one per hash slot.
type internCache [1024]string

var internPool = sync.Pool{New: func() any { return new(internCache) }}

// setScalar stores an accepted scalar of rule r in dst.
func (s *streamer) setScalar(r *rule, dst reflect.Value, v *node, ptr string, start int64) {
	if r.decodesItself(dst.Type()) {
		s.store(dst, s.raw(start), ptr)
		return
	}
	fits := false
	switch v.kind {
	case kindString:
		if fits = dst.Kind() == reflect.String; fits {
			dst.SetString(v.text)
		}
	case kindBool:
		if fits = dst.Kind() == reflect.Bool; fits {
			dst.SetBool(v.boolean)
		}
	case kindNumber:
		switch dst.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n, err := strconv.ParseInt(v.text, 10, 64)
			fits = err == nil && !dst.OverflowInt(n)
			if fits {
				dst.SetInt(n)
			}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			n, err := strconv.ParseUint(v.text, 10, 64)
			fits = err == nil && !dst.OverflowUint(n)
			if fits {
				dst.SetUint(n)
			}
		}
	case kindNull:
		fits = true // the zero value, as Unmarshal leaves it
	}
	if !fits {
		s.misfit(ptr, fmt.Sprintf("a JSON %s cannot be stored in a Go %s", v.kind, dst.Type()))
	}
}

// store decodes raw, one value's bytes, into dst with Unmarshal: the Go
// types that decode themselves.
func (s *streamer) store(dst reflect.Value, raw []byte, ptr string) {
	if s.err != nil || s.shapeBroken {
		return
	}
	switch v := dst.Addr().Interface().(type) {
	case *jsontext.Value:
		// what Unmarshal stores: the value's bytes as read, which the
		// pass has already checked with the same decoder options
		*v = append(jsontext.Value(nil), raw...)
		return
	case *time.Time:
		if t, ok := timestampOf(raw); ok {
			*v = t
			return
		}
	}
	if err := json.Unmarshal(raw, dst.Addr().Interface(), json.RejectUnknownMembers(true)); err != nil {
		var se *json.SemanticError
		if errors.As(err, &se) {
			ptr += string(se.JSONPointer)
		}
		s.misfit(ptr, err.Error())
	}
}

// timestampOf is the time.Time Unmarshal stores for raw, a JSON string
// without escapes, when Unmarshal accepts it: time.Time.UnmarshalText and
// the RFC 3339 checks the json package adds to it. Any other raw is
// false, and left to Unmarshal (and its error).
func timestampOf(raw []byte) (time.Time, bool) {
	var t time.Time
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return t, false
	}
	b := raw[1 : len(raw)-1]
	if t.UnmarshalText(b) != nil || len(b) < len("2006-01-02T15:04:05Z") {
		return time.Time{}, false
	}
	dec2 := func(b []byte) byte { return 10*(b[0]-'0') + (b[1] - '0') }
	switch {
	case b[len("2006-01-02T")+1] == ':', // hour must be two digits
		b[len("2006-01-02T15:04:05")] == ',': // sub-second separator must be a period
		return time.Time{}, false
	case b[len(b)-1] != 'Z' && (dec2(b[len(b)-len("07:00"):]) >= 24 || dec2(b[len(b)-len("00"):]) >= 60):
		return time.Time{}, false // the zone's hour or minute out of range
	}
	return t, true
}

// misfit reports a value the schema accepts but the Go type cannot hold.
// Unreachable when the schema and the Go type agree (a test pins that
// they do); still a finding, never a panic.
func (s *streamer) misfit(ptr, why string) {
	s.add(rules.CodeWrongType, ptr, "document does not fit its Go type: %s", why)
}

// special applies a Go-enforced $def. A scalar is checked as read; any
// other value is read into a tree for the check, then decoded from its
// bytes.
func (s *streamer) special(check specialCheck, def *rule, ptr string, dst reflect.Value) (string, bool) {
	k := s.peek()
	if s.err != nil {
		return "", false
	}
	if s.shapeBroken {
		dst = reflect.Value{}
	}
	if dst.IsValid() && dst.Kind() == reflect.Pointer && k != 'n' {
		dst.Set(reflect.New(dst.Type().Elem()))
		dst = dst.Elem()
	}
	if k != '{' && k != '[' {
		return s.scalar(def, ptr, dst, func(v *node) { check(s.walker, v, ptr, def) })
	}
	start := s.start()
	v, err := readNode(s.dec)
	if err != nil {
		s.err = err
		return "", false
	}
	before := s.shapeBroken
	s.shapeBroken = false
	check(s.walker, v, ptr, def)
	ok := !s.shapeBroken
	s.shapeBroken = s.shapeBroken || before
	if ok && dst.IsValid() {
		s.store(dst, s.raw(start), ptr)
	}
	return "", false
}

// object reads an object: each member against its property's rule, into
// the struct field of the same JSON name.
func (s *streamer) object(r *rule, ptr string, dst reflect.Value) {
	if !s.open() {
		return
	}
	var fields *propFields // by property: the Go field's index, nil for none
	if dst.IsValid() {
		if dst.Kind() == reflect.Struct {
			fields = r.fieldsIn(dst.Type())
		} else {
			s.misfit(ptr, "a JSON object cannot be stored in a Go "+dst.Type().String())
			dst = reflect.Value{}
		}
	}
	var seen uint64 // bit i: r.required[i] was read
	var seenMore []bool
	if len(r.required) > 64 {
		seenMore = make([]bool, len(r.required))
	}
	next := 0 // where the next member is, when written in schema order
	for s.peek() == '"' {
		name, i := s.name(r, next)
		p, up := s.pushName(name)
		if i < 0 {
			if r.closed {
				s.add(rules.CodeUnknownKey, p, "member %q is not part of the format", name)
			} else if dst.IsValid() {
				s.misfit(p, fmt.Sprintf("member %q has no Go field", name))
			}
			s.skip()
			s.pop(up)
			continue
		}
		next = i + 1
		if req := r.props[i].required; req >= 64 {
			seenMore[req] = true
		} else if req >= 0 {
			seen |= 1 << req
		}
		var field reflect.Value
		sharing := s.sharing
		s.sharing = false
		if dst.IsValid() {
			if index := fields.index[i]; index != nil {
				field = dst.FieldByIndex(index)
				s.sharing = s.in != nil && fields.intern[i]
			} else {
				s.misfit(p, fmt.Sprintf("member %q has no Go field", name))
			}
		}
		s.value(r.props[i].rule, p, field)
		s.sharing = sharing
		s.pop(up)
	}
	s.read() // '}'
	if s.err != nil {
		return
	}
	for i, name := range r.required {
		if i < 64 && seen&(1<<i) == 0 || i >= 64 && !seenMore[i] {
			s.add(rules.CodeMissingKey, appendPointer(ptr, name), "required member %q is missing (nullable members are required too)", name)
		}
	}
}

// name reads a member name and finds it among r's properties (the index,
// or -1), looking first at hint. A property's name is the schema's own
// string, compared with the unescaped bytes as read, so it costs no copy;
// another name is shared (str).
func (s *streamer) name(r *rule, hint int) (string, int) {
	start := s.start()
	tok := s.read()
	if s.err != nil {
		return "", -1
	}
	if raw := s.raw(start); len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 {
		if i := r.propIndexBytes(raw[1:len(raw)-1], hint); i >= 0 {
			return r.props[i].name, i
		}
	}
	name := s.str(tok, start)
	return name, r.propIndex(name, hint)
}

// array reads an array into a slice: elements past maxItems are refused
// by the count finding and not checked one by one, but still decoded, as
// Unmarshal decoded them.
func (s *streamer) array(r *rule, ptr string, dst reflect.Value) {
	start := s.start()
	if !s.open() {
		return
	}
	var buf *scratch // the elements, copied into a slice of their number at the end
	if dst.IsValid() {
		if dst.Kind() == reflect.Slice {
			buf = takeScratch(dst.Type())
			defer buf.give()
			dst.Set(buf.kind.empty) // an empty array is an empty slice, not nil
		} else {
			s.misfit(ptr, "a JSON array cannot be stored in a Go "+dst.Type().String())
			dst = reflect.Value{}
		}
	}
	var seen uniqueTexts
	n := 0
	for ; s.err == nil && s.peek() != ']'; n++ {
		if s.shapeBroken {
			dst = reflect.Value{}
		}
		var elem reflect.Value
		if dst.IsValid() {
			elem = buf.next()
		}
		p, up := s.pushIndex(n)
		s.element(r, n, p, elem, &seen)
		s.pop(up)
	}
	s.read() // ']'
	if s.err != nil {
		return
	}
	if dst.IsValid() && n > 0 && s.sharing {
		s.in.list(dst, buf.v, s.raw(start))
	} else if dst.IsValid() && n > 0 {
		dst.SetZero()
		dst.Grow(n) // from nil: room for exactly n
		dst.SetLen(n)
		reflect.Copy(dst, buf.v)
	}
	if n < r.minItems {
		s.add(rules.CodeTooFewItems, ptr, "array has %d elements; at least %d are required", n, r.minItems)
	} else if r.maxItems >= 0 && n > r.maxItems {
		s.add(rules.CodeTooManyItems, ptr, "array has %d elements; at most %d are allowed", n, r.maxItems)
	}
}

// scratch is a reusable slice an array's elements are read into, so that
// the decoded slice is allocated once at its length rather than grown by
// doubling (and kept with up to twice the room it needs).
type scratch struct {
	kind *sliceKind
	v    reflect.Value // an addressable slice; its length is the elements read
}

// sliceKind is what the streamer keeps per Go slice type.
type sliceKind struct {
	pool  sync.Pool     // of *scratch
	empty reflect.Value // an empty, non-nil slice
}

var sliceKinds typeCache[*sliceKind]

// maxScratch is the most elements a scratch slice keeps room for.
const maxScratch = 1024

// takeScratch returns an empty scratch slice of slice type t.
func takeScratch(t reflect.Type) *scratch {
	k, ok := sliceKinds.get(t)
	if !ok {
		k = &sliceKind{empty: reflect.MakeSlice(t, 0, 0)}
		sliceKinds.put(t, k)
	}
	if b, ok := k.pool.Get().(*scratch); ok {
		return b
	}
	return &scratch{kind: k, v: reflect.New(t).Elem()}
}

// next extends the slice by one zero element and returns it.
func (b *scratch) next() reflect.Value {
	n := b.v.Len()
	if n == b.v.Cap() {
		b.v.Grow(max(8, n))
	}
	b.v.SetLen(n + 1)
	return b.v.Index(n)
}

// give clears the slice (it must keep nothing of the document alive) and
// returns it to its pool.
func (b *scratch) give() {
	if b.v.Cap() > maxScratch {
		return // a hostile array's room is not kept
	}
	b.v.Clear()
	b.v.SetLen(0)
	b.kind.pool.Put(b)
}

// element reads element n of an array of rule r at p into elem.
func (s *streamer) element(r *rule, n int, p string, elem reflect.Value, seen *uniqueTexts) {
	if r.maxItems >= 0 && n >= r.maxItems {
		start := s.start()
		s.skip()
		if elem.IsValid() {
			s.store(elem, s.raw(start), p)
		}
		return
	}
	if s.peek() == 'n' && !s.allowsNull(r.items) {
		s.add(rules.CodeNullHole, p, "array element %d is null; arrays must be dense", n)
		s.read()
		return
	}
	if r.items == nil {
		start := s.start()
		s.skip()
		if elem.IsValid() {
			s.store(elem, s.raw(start), p)
		}
		return
	}
	text, isString := s.value(r.items, p, elem)
	if r.uniqueItems && isString {
		if first, dup := seen.add(text, n); dup {
			s.add(rules.CodeDuplicateItem, p, "%q repeats element %d; elements must be unique", text, first)
		}
	}
}

// uniqueTexts are the distinct strings of an array with their first
// index: a list while short, a map past that.
type uniqueTexts struct {
	small [16]indexedText
	n     int // of small in use
	m     map[string]int
}

type indexedText struct {
	text  string
	index int
}

// add records text at index n unless it was seen; it returns the index
// of its first occurrence and whether there was one.
func (u *uniqueTexts) add(text string, n int) (int, bool) {
	if u.m != nil {
		if first, dup := u.m[text]; dup {
			return first, true
		}
		u.m[text] = n
		return 0, false
	}
	for _, t := range u.small[:u.n] {
		if t.text == text {
			return t.index, true
		}
	}
	if u.n < len(u.small) {
		u.small[u.n] = indexedText{text, n}
		u.n++
		return 0, false
	}
	u.m = make(map[string]int, 2*u.n)
	for _, t := range u.small[:u.n] {
		u.m[t.text] = t.index
	}
	u.m[text] = n
	return 0, false
}

// decodesItself reports whether values of t decode through their own
// methods or are generic (maps, interfaces): those are checked while
// streaming and then decoded from their bytes by Unmarshal.
func decodesItself(t reflect.Type) bool {
	if self, ok := selfDecoding.get(t); ok {
		return self
	}
	p := reflect.PointerTo(t)
	self := p.Implements(reflect.TypeFor[json.Unmarshaler]()) || p.Implements(reflect.TypeFor[json.UnmarshalerFrom]()) ||
		p.Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) || t.Kind() == reflect.Map || t.Kind() == reflect.Interface
	selfDecoding.put(t, self)
	return self
}

// decodesItself is decodesItself(t) for a value of rule r; a rule is
// read into one Go type, so the last answer is kept on the rule.
func (r *rule) decodesItself(t reflect.Type) bool {
	c := r.self.Load()
	if c != nil && c.t == t {
		return c.self
	}
	self := decodesItself(t)
	if c == nil { // the first type stays: a rule read into several types does not thrash
		r.self.Store(&selfDecodes{t: t, self: self})
	}
	return self
}

// selfDecodes caches decodesItself for one type.
type selfDecodes struct {
	t    reflect.Type
	self bool
}

var (
	selfDecoding typeCache[bool]
	structFields typeCache[map[string]goField]
)

// typeCache is a map from Go types read without a lock: a writer
// replaces the whole map. The types of the formats are few, so it stops
// changing after the first documents.
type typeCache[V any] struct {
	m  atomic.Pointer[map[reflect.Type]V]
	mu sync.Mutex
}

func (c *typeCache[V]) get(t reflect.Type) (V, bool) {
	if m := c.m.Load(); m != nil {
		v, ok := (*m)[t]
		return v, ok
	}
	var zero V
	return zero, false
}

func (c *typeCache[V]) put(t reflect.Type, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	next := map[reflect.Type]V{t: v}
	if m := c.m.Load(); m != nil {
		for k, old := range *m {
			next[k] = old
		}
	}
	c.m.Store(&next)
}

// propFields are the Go fields of a rule's properties in one struct type.
type propFields struct {
	t      reflect.Type
	index  [][]int // by property; nil when t has no field of its name
	intern []bool  // by property: the field is tagged intern (interner)
}

// fieldsIn returns the index of the field of struct type t each of r's
// properties is stored in, nil where there is none. A rule is read into
// one Go type, so the last answer is kept on the rule.
func (r *rule) fieldsIn(t reflect.Type) *propFields {
	if f := r.fields.Load(); f != nil && f.t == t {
		return f
	}
	byName := fieldsOf(t)
	f := &propFields{t: t, index: make([][]int, len(r.props)), intern: make([]bool, len(r.props))}
	for i, p := range r.props {
		f.index[i], f.intern[i] = byName[p.name].index, byName[p.name].intern
	}
	r.fields.Store(f)
	return f
}

// goField is where a JSON member is stored in a struct type.
type goField struct {
	index  []int
	intern bool // tagged `intern:"true"`: its values are shared (interner)
}

// fieldsOf maps the JSON member names of struct type t to their fields,
// inline fields flattened, as the json package names them.
func fieldsOf(t reflect.Type) map[string]goField {
	if v, ok := structFields.get(t); ok {
		return v
	}
	out := map[string]goField{}
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			name, opts, _ := cutComma(tag)
			index := append(append([]int{}, prefix...), i)
			switch {
			case tag == "-":
			case hasOpt(opts, "inline") || f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
				walk(f.Type, index)
			case !f.IsExported():
			default:
				if name == "" {
					name = f.Name
				}
				out[name] = goField{index: index, intern: f.Tag.Get("intern") == "true"}
			}
		}
	}
	walk(t, nil)
	structFields.put(t, out)
	return out
}

func cutComma(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func hasOpt(opts, want string) bool {
	for opts != "" {
		var o string
		o, opts, _ = cutComma(opts)
		if o == want {
			return true
		}
	}
	return false
}
