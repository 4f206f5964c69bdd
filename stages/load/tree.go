package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
)

// maxDepth is the deepest JSON nesting any input may have.
const maxDepth = 64

// nodeKind is the JSON type of a node.
type nodeKind byte

const (
	kindNull nodeKind = iota + 1
	kindBool
	kindNumber
	kindString
	kindObject
	kindArray
)

func (k nodeKind) String() string {
	return [...]string{"invalid", "null", "boolean", "number", "string", "object", "array"}[k]
}

// node is one JSON value of a parsed document. Objects keep their members in
// document order, so findings come out in document order too.
type node struct {
	kind    nodeKind
	text    string // unescaped string, or the raw literal of a number
	boolean bool
	members []member // objects
	elems   []*node  // arrays
}

type member struct {
	name  string
	value *node
}

// get returns the member named name, or nil.
func (n *node) get(name string) *node {
	for _, m := range n.members {
		if m.name == name {
			return m.value
		}
	}
	return nil
}

// parseTree parses one JSON document into a tree. It refuses syntax
// errors, duplicate names, invalid UTF-8 (lone surrogates included),
// nesting deeper than maxDepth and anything after the top-level value. On
// failure it returns nil and exactly one finding: the tokenizer cannot go on
// past the first error.
func parseTree(data []byte, at position) (*node, rules.Findings) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	root, err := readNode(dec)
	if err == nil {
		if _, terr := dec.ReadToken(); terr != io.EOF {
			return nil, rules.Findings{at.finding(rules.CodeTrailingData, "",
				fmt.Sprintf("unexpected data after the top-level value at byte offset %d", dec.InputOffset()))}
		}
		return root, nil
	}
	return nil, rules.Findings{syntaxFinding(dec, err, at)}
}

// errTooDeep stops parsing at the first value nested deeper than maxDepth.
var errTooDeep = errors.New("nesting too deep")

func readNode(dec *jsontext.Decoder) (*node, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case 'n':
		return &node{kind: kindNull}, nil
	case 't', 'f':
		return &node{kind: kindBool, boolean: tok.Bool()}, nil
	case '0':
		return &node{kind: kindNumber, text: tok.String()}, nil
	case '"':
		return &node{kind: kindString, text: tok.String()}, nil
	case '{':
		return readObject(dec)
	case '[':
		return readArray(dec)
	}
	return nil, fmt.Errorf("unexpected token %v", tok.Kind())
}

func readObject(dec *jsontext.Decoder) (*node, error) {
	if dec.StackDepth() > maxDepth {
		return nil, errTooDeep
	}
	n := &node{kind: kindObject}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String() // a token is void after the next decoder call
		v, err := readNode(dec)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{name, v})
	}
	_, err := dec.ReadToken()
	return n, err
}

func readArray(dec *jsontext.Decoder) (*node, error) {
	if dec.StackDepth() > maxDepth {
		return nil, errTooDeep
	}
	n := &node{kind: kindArray}
	for dec.PeekKind() != ']' {
		v, err := readNode(dec)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
	}
	_, err := dec.ReadToken()
	return n, err
}

// syntaxFinding classifies a tokenizer error.
func syntaxFinding(dec *jsontext.Decoder, err error, at position) rules.Finding {
	if errors.Is(err, errTooDeep) {
		return at.finding(rules.CodeTooDeep, string(dec.StackPointer()),
			fmt.Sprintf("JSON nesting exceeds %d levels", maxDepth))
	}
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return at.finding(rules.CodeJSONSyntax, "", "the document ends before its JSON value is complete")
		}
		return at.finding(rules.CodeJSONSyntax, "", "the document is not valid JSON: "+err.Error())
	}
	ptr, detail := string(se.JSONPointer), se.Err.Error()
	switch {
	case errors.Is(se.Err, jsontext.ErrDuplicateName):
		return at.finding(rules.CodeDuplicateKey, ptr,
			fmt.Sprintf("object member name %q appears more than once (byte offset %d)", lastToken(ptr), se.ByteOffset))
	case strings.Contains(detail, "UTF-8") || strings.Contains(detail, "surrogate"):
		return at.finding(rules.CodeInvalidUTF8, ptr,
			fmt.Sprintf("string is not valid Unicode text at byte offset %d: %s", se.ByteOffset, detail))
	}
	return at.finding(rules.CodeJSONSyntax, ptr,
		fmt.Sprintf("invalid JSON at byte offset %d: %s", se.ByteOffset, detail))
}

// JSONSyntaxFinding is the finding of a JSON syntax error met while
// decoding the named file outside the loader's own reader (the importers'
// source logs), classified as the loader classifies its own.
func JSONSyntaxFinding(file string, err error) rules.Finding {
	return syntaxFinding(nil, err, position{file: file})
}

// lastToken returns the unescaped last reference token of a JSON pointer.
func lastToken(ptr string) string {
	i := strings.LastIndexByte(ptr, '/')
	return pointerUnescaper.Replace(ptr[i+1:])
}

// pointerUnescaper is built once, like rules.PointerToken's escaper.
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// appendPointer appends one reference token to a JSON pointer (RFC 6901).
func appendPointer(ptr, token string) string {
	return ptr + "/" + rules.PointerToken(token)
}

func indexPointer(ptr string, i int) string {
	return fmt.Sprintf("%s/%d", ptr, i)
}
