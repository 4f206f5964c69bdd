package account

import (
	"math"
	"reflect"
	"strings"
	"sync"
)

// A fast path of decoder.unmarshal for the usual usage object: members
// the shape defines, each once, whose values are non-negative integers
// written plainly ("0", "1234") or, for a shape's nested object, an object
// of the same kind; JSON whitespace between tokens. The json package
// decodes such a text to exactly these values without an error, so the
// fast path gives what it gives; any other text (an unknown, repeated or
// escaped name, null, a sign, a fraction or exponent, a count beyond
// int64, trailing bytes, anything else) is left to the json package, which
// also words the problem (TestFastUsageMatchesJSON).

// usageTable is where a shape's members go: a *int64 field, or a pointer
// to a struct of *int64 fields. A shape has a handful of members, so they
// are looked up by a scan rather than a map's hash.
type usageTable struct {
	members []usageMember
}

type usageMember struct {
	name   string
	index  int         // the field's index in the shape
	object bool        // a pointer to a struct of counts, whose members are nested
	nested []usageLeaf // for an object: its members
}

type usageLeaf struct {
	name  string
	index int
}

// member is the member named name, or nil.
func (t *usageTable) member(name []byte) *usageMember {
	for i := range t.members {
		if t.members[i].name == string(name) {
			return &t.members[i]
		}
	}
	return nil
}

// leaf is the index of m's nested member named name, or -1.
func (m *usageMember) leaf(name []byte) int {
	for _, l := range m.nested {
		if l.name == string(name) {
			return l.index
		}
	}
	return -1
}

var usageTables sync.Map // reflect.Type → *usageTable, nil for a type the fast path does not take

// usageTableOf is t's table, nil unless every field of t is a *int64 or a
// pointer to a struct of *int64 fields, each named by a plain json tag.
func usageTableOf(t reflect.Type) *usageTable {
	if tab, ok := usageTables.Load(t); ok {
		return tab.(*usageTable)
	}
	tab := buildUsageTable(t)
	usageTables.Store(t, tab)
	return tab
}

var int64Ptr = reflect.TypeFor[*int64]()

func buildUsageTable(t reflect.Type) *usageTable {
	names := func(st reflect.Type, leaf func(f reflect.StructField) bool) ([]usageLeaf, bool) {
		var out []usageLeaf
		for i := range st.NumField() {
			f := st.Field(i)
			name, ok := f.Tag.Lookup("json")
			if !ok || f.Anonymous || !f.IsExported() || name == "" || name == "-" || strings.ContainsAny(name, `,\"`) || !leaf(f) || i >= 64 {
				return nil, false
			}
			for _, o := range out {
				if o.name == name {
					return nil, false
				}
			}
			out = append(out, usageLeaf{name: name, index: i})
		}
		return out, true
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	top, ok := names(t, func(f reflect.StructField) bool {
		return f.Type == int64Ptr || (f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct)
	})
	if !ok {
		return nil
	}
	tab := &usageTable{}
	for _, l := range top {
		m := usageMember{name: l.name, index: l.index}
		if ft := t.Field(l.index).Type; ft != int64Ptr {
			m.object = true
			if m.nested, ok = names(ft.Elem(), func(f reflect.StructField) bool { return f.Type == int64Ptr }); !ok {
				return nil
			}
		}
		tab.members = append(tab.members, m)
	}
	return tab
}

// fastUnmarshal decodes usage into v (a pointer to a zero shape) and
// reports whether it took the text; when it did not, v may hold part of
// it.
func fastUnmarshal(usage []byte, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer {
		return false
	}
	rv = rv.Elem()
	tab := usageTableOf(rv.Type())
	if tab == nil {
		return false
	}
	p := usageParser{b: usage}
	var seen uint64 // the shape's fields met, by index (a shape has fewer than 64)
	ok := p.object(func(name []byte) bool {
		m := tab.member(name)
		if m == nil || seen&(1<<m.index) != 0 {
			return false
		}
		seen |= 1 << m.index
		f := rv.Field(m.index)
		if !m.object {
			n, ok := p.count()
			if ok {
				f.Set(reflect.ValueOf(&n))
			}
			return ok
		}
		f.Set(reflect.New(f.Type().Elem()))
		s := f.Elem()
		var seenNested uint64
		return p.object(func(name []byte) bool {
			j := m.leaf(name)
			if j < 0 || seenNested&(1<<j) != 0 {
				return false
			}
			seenNested |= 1 << j
			n, ok := p.count()
			if ok {
				s.Field(j).Set(reflect.ValueOf(&n))
			}
			return ok
		})
	})
	p.space()
	return ok && p.i == len(p.b)
}

// usageParser reads the fast path's JSON: objects, plain names and plain
// non-negative integers.
type usageParser struct {
	b []byte
	i int
}

func (p *usageParser) space() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

func (p *usageParser) eat(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// object reads an object, calling member with each name once the parser
// stands before its value; member reads the value.
func (p *usageParser) object(member func(name []byte) bool) bool {
	if !p.eat('{') {
		return false
	}
	if p.eat('}') {
		return true
	}
	for {
		name, ok := p.name()
		if !ok || !p.eat(':') {
			return false
		}
		p.space()
		if !member(name) {
			return false
		}
		if p.eat(',') {
			continue
		}
		return p.eat('}')
	}
}

// name reads a member name of printable ASCII without an escape or a quote.
func (p *usageParser) name() ([]byte, bool) {
	if !p.eat('"') {
		return nil, false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return p.b[start : p.i-1], true
		case c < ' ' || c > '~' || c == '\\':
			return nil, false
		}
		p.i++
	}
	return nil, false
}

// count reads a non-negative integer written plainly that fits in an int64.
func (p *usageParser) count() (int64, bool) {
	start := p.i
	var n uint64
	for p.i < len(p.b) && '0' <= p.b[p.i] && p.b[p.i] <= '9' {
		if p.i-start == 19 {
			return 0, false
		}
		n = n*10 + uint64(p.b[p.i]-'0')
		p.i++
	}
	digits := p.i - start
	if digits == 0 || (digits > 1 && p.b[start] == '0') || n > math.MaxInt64 {
		return 0, false
	}
	return int64(n), true
}
