package validate

import (
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/rules"
)

// pointer is an RFC 6901 JSON pointer kept as its reference tokens: a
// check builds one for every record it looks at, but the string is joined
// only when a finding needs it (String), so that an answer without
// findings costs no pointer strings. A pointer is a value; field and index
// return a longer one and leave p as it was.
type pointer struct {
	prefix string // tokens already joined: the root, and any past pointerTokens
	toks   [pointerTokens]token
	n      int
}

// pointerTokens is how many tokens a pointer keeps unjoined after its
// root: the answer rules' deepest pointers add three (record, field,
// element), and every pointer is copied whole at each step, so it keeps no
// more.
const pointerTokens = 3

// token is one reference token: a member name (index -1) or an array
// index (0 or more).
type token struct {
	name  string
	index int
}

// at is the pointer root, given joined and escaped ("/final/claims").
func at(root string) pointer {
	return pointer{prefix: root}
}

// field is p followed by the member name.
func (p pointer) field(name string) pointer {
	return p.push(token{name: name, index: -1})
}

// index is p followed by the array index i.
func (p pointer) index(i int) pointer {
	return p.push(token{index: max(i, 0)})
}

func (p pointer) push(t token) pointer {
	if p.n == len(p.toks) {
		p = pointer{prefix: p.String()}
	}
	p.toks[p.n] = t
	p.n++
	return p
}

// String joins the tokens, each escaped (rules.PointerToken).
func (p pointer) String() string {
	if p.n == 0 {
		return p.prefix
	}
	var b strings.Builder
	b.WriteString(p.prefix)
	for _, t := range p.toks[:p.n] {
		b.WriteByte('/')
		if t.index >= 0 {
			b.WriteString(strconv.Itoa(t.index))
		} else {
			b.WriteString(rules.PointerToken(t.name))
		}
	}
	return b.String()
}
