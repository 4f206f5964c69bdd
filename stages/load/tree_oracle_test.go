package load

import (
	"bytes"
	stdjson "encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalgate/evalgate/rules"
)

// The JSON tree parser against an independent oracle, encoding/json of
// the standard library: what the oracle decides, parseTree must decide the
// same, and an accepted document must have the oracle's value.

// oracle decodes data with encoding/json and returns its value (numbers as
// json.Number literals) and whether it is acceptable by the format's rules:
// valid JSON, valid UTF-8, no duplicate member names, nesting at most
// maxDepth. decided is false for documents the oracle cannot judge: strings
// holding U+FFFD, which is how encoding/json silently replaces an escaped
// lone surrogate that the format refuses.
func oracle(data []byte) (v any, ok, decided bool) {
	if !stdjson.Valid(data) || !utf8.Valid(data) {
		return nil, false, true
	}
	dec := stdjson.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, ok, decided = oracleValue(dec, 0)
	return v, ok, decided
}

func oracleValue(dec *stdjson.Decoder, depth int) (any, bool, bool) {
	tok, err := dec.Token()
	if err != nil {
		return nil, false, true
	}
	switch t := tok.(type) {
	case stdjson.Delim:
		if depth+1 > maxDepth {
			return nil, false, true
		}
		if t == '[' {
			arr := []any{}
			for dec.More() {
				e, ok, decided := oracleValue(dec, depth+1)
				if !ok || !decided {
					return nil, ok, decided
				}
				arr = append(arr, e)
			}
			dec.Token()
			return arr, true, true
		}
		obj := map[string]any{}
		for dec.More() {
			nt, err := dec.Token()
			if err != nil {
				return nil, false, true
			}
			name := nt.(string)
			if strings.ContainsRune(name, utf8.RuneError) {
				return nil, false, false
			}
			if _, dup := obj[name]; dup {
				return nil, false, true
			}
			e, ok, decided := oracleValue(dec, depth+1)
			if !ok || !decided {
				return nil, ok, decided
			}
			obj[name] = e
		}
		dec.Token()
		return obj, true, true
	case string:
		if strings.ContainsRune(t, utf8.RuneError) {
			return nil, false, false
		}
		return t, true, true
	}
	return tok, true, true // bool, nil or json.Number
}

// treeValue converts a parsed tree to the oracle's representation.
func treeValue(n *node) any {
	switch n.kind {
	case kindNull:
		return nil
	case kindBool:
		return n.boolean
	case kindNumber:
		return stdjson.Number(n.text)
	case kindString:
		return n.text
	case kindArray:
		arr := []any{}
		for _, e := range n.elems {
			arr = append(arr, treeValue(e))
		}
		return arr
	}
	obj := map[string]any{}
	for _, m := range n.members {
		obj[m.name] = treeValue(m.value)
	}
	return obj
}

func FuzzParseTreeOracle(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `0`, `-1.5e3`, `"a\u00e9"`, `{"a":1,"a":2}`, `{"a":{"b":[1,2,{"c":null}]}}`,
		"[\"\xff\"]", `"\ud800"`, `"\ud83d\ude00"`, `[1,]`, `{} {}`, ` {"x": true} `,
		strings.Repeat("[", 64) + strings.Repeat("]", 64), strings.Repeat("[", 65) + strings.Repeat("]", 65),
	} {
		f.Add([]byte(s))
	}
	f.Add(seedOf(f, validAnswer()))
	f.Fuzz(func(t *testing.T, data []byte) {
		root, findings := parseTree(data, position{file: "f"})
		want, ok, decided := oracle(data)
		if root != nil && len(findings) != 0 || root == nil && len(findings) != 1 {
			t.Fatalf("parseTree returned a tree %v with %d findings", root != nil, len(findings))
		}
		if !decided {
			return
		}
		switch {
		case ok && root == nil:
			t.Fatalf("encoding/json accepts %q; parseTree refuses it: %v", data, findings)
		case !ok && root != nil:
			t.Fatalf("parseTree accepts %q, which breaks the format's JSON rules", data)
		case ok && !reflect.DeepEqual(treeValue(root), want):
			t.Fatalf("values differ for %q:\n tree   %#v\n oracle %#v", data, treeValue(root), want)
		}
		if root == nil {
			switch c := findings[0].Code; c {
			case rules.CodeJSONSyntax, rules.CodeTrailingData, rules.CodeDuplicateKey, rules.CodeInvalidUTF8, rules.CodeTooDeep:
			default:
				t.Fatalf("refusal with code %s", c)
			}
		}
	})
}
