package load

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/tables"
)

// rawRule is one JSON Schema object as published. Only the subset of
// draft 2020-12 evalgate's schemas use is accepted; an unknown keyword
// makes compilation fail, so the published schema can never promise a
// rule this interpreter does not enforce.
type rawRule struct {
	Schema      string              `json:"$schema"`
	ID          string              `json:"$id"`
	Title       string              `json:"title"`
	Description string              `json:"description"`
	Ref         string              `json:"$ref"`
	Defs        map[string]*rawRule `json:"$defs"`
	Type        jsontext.Value      `json:"type"`
	Properties  jsontext.Value      `json:"properties"` // kept raw to preserve member order
	Required    []string            `json:"required"`
	AddlProps   *bool               `json:"additionalProperties"`
	Items       *rawRule            `json:"items"`
	MinItems    *int                `json:"minItems"`
	MaxItems    *int                `json:"maxItems"`
	UniqueItems bool                `json:"uniqueItems"`
	Enum        []string            `json:"enum"`
	Const       *string             `json:"const"`
	Minimum     jsontext.Value      `json:"minimum"`
	Maximum     jsontext.Value      `json:"maximum"`
	MinLength   *int                `json:"minLength"`
	MaxLength   *int                `json:"maxLength"`
	Pattern     string              `json:"pattern"`
	OneOf       []*rawRule          `json:"oneOf"`
}

// rule is a compiled schema object.
type rule struct {
	ref         string       // name of a $defs entry
	def         *rule        // the $defs entry ref names (set by link)
	check       specialCheck // the Go check of that entry, if it has one
	types       []string     // allowed JSON types; empty = any
	props       []prop       // in schema order
	required    []string
	closed      bool // additionalProperties: false
	items       *rule
	minItems    int
	maxItems    int // -1: no cap
	uniqueItems bool
	enum        []string
	constant    *string
	minimum     *big.Int
	maximum     *big.Int
	minLength   int
	maxLength   int // -1: no cap
	pattern     *regexp.Regexp
	nullable    *rule // oneOf [{"type":"null"}, X]: X
	// fields caches where the streamer stores each property (fieldsIn).
	kinds  kindSet // the node kinds types admits (set by link)
	fields atomic.Pointer[propFields]
	self   atomic.Pointer[selfDecodes] // and whether its Go type decodes itself
}

type prop struct {
	name string
	rule *rule
	// required is the index of name in the rule's required, or -1.
	required int
}

// compiledSchema is one published schema ready to walk.
type compiledSchema struct {
	name string
	root *rule
	defs map[string]*rule
}

var (
	schemasOnce sync.Once
	schemas     map[string]*compiledSchema
	schemasErr  error
)

// schemaFor returns the compiled published schema of the named document.
// The embedded schemas are part of the binary, so failure to compile one
// is a programmer error caught by TestSchemasCompile.
func schemaFor(name string) *compiledSchema {
	schemasOnce.Do(func() {
		schemas = map[string]*compiledSchema{}
		for _, n := range tables.SchemaNames() {
			data, _ := tables.Schema(n)
			s, err := compileSchema(n, data)
			if err != nil {
				schemasErr = err
				return
			}
			schemas[n] = s
		}
	})
	if schemasErr != nil {
		panic("stages/load: " + schemasErr.Error())
	}
	s, ok := schemas[name]
	if !ok {
		panic("stages/load: no published schema " + name)
	}
	return s
}

func compileSchema(name string, data []byte) (*compiledSchema, error) {
	var raw rawRule
	if err := json.Unmarshal(data, &raw, json.RejectUnknownMembers(true)); err != nil {
		return nil, fmt.Errorf("schema %s: %v", name, err)
	}
	s := &compiledSchema{name: name, defs: map[string]*rule{}}
	for _, def := range sortedKeys(raw.Defs) {
		r, err := compileRule(raw.Defs[def], specialDefs[def] != nil)
		if err != nil {
			return nil, fmt.Errorf("schema %s: $defs/%s: %v", name, def, err)
		}
		s.defs[def] = r
	}
	raw.Defs = nil
	root, err := compileRule(&raw, false)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %v", name, err)
	}
	s.root = root
	for _, def := range sortedKeys(s.defs) {
		if err := s.link(s.defs[def]); err != nil {
			return nil, err
		}
	}
	return s, s.link(root)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// compileRule compiles one schema object. special is true for $defs
// that a Go check enforces; their patterns use ECMA-262 look-ahead and
// are documentation for other validators, not compiled here.
func compileRule(raw *rawRule, special bool) (*rule, error) {
	if raw.Defs != nil {
		return nil, fmt.Errorf("$defs allowed only at the root")
	}
	r := &rule{closed: raw.AddlProps != nil && !*raw.AddlProps, required: raw.Required,
		uniqueItems: raw.UniqueItems, enum: raw.Enum, constant: raw.Const, maxItems: -1, maxLength: -1}
	if raw.AddlProps != nil && *raw.AddlProps {
		return nil, fmt.Errorf("additionalProperties: true is not supported; omit it")
	}
	if raw.Ref != "" {
		name, ok := strings.CutPrefix(raw.Ref, "#/$defs/")
		if !ok {
			return nil, fmt.Errorf("$ref %q: only #/$defs/NAME is supported", raw.Ref)
		}
		r.ref = name
	}
	if err := r.compileTypes(raw.Type); err != nil {
		return nil, err
	}
	if err := r.compileProps(raw.Properties, special); err != nil {
		return nil, err
	}
	if err := r.compileLimits(raw, special); err != nil {
		return nil, err
	}
	if raw.OneOf != nil {
		if len(raw.OneOf) != 2 || !slices.Equal(raw.OneOf[0].typeNames(), []string{"null"}) {
			return nil, fmt.Errorf(`oneOf is supported only as [{"type":"null"}, X]`)
		}
		x, err := compileRule(raw.OneOf[1], special)
		if err != nil {
			return nil, err
		}
		r.nullable = x
	}
	if r.ref != "" && (r.types != nil || r.props != nil || r.items != nil || r.nullable != nil || r.enum != nil) {
		return nil, fmt.Errorf("$ref must stand alone")
	}
	return r, nil
}

func (raw *rawRule) typeNames() []string {
	r := &rule{}
	if r.compileTypes(raw.Type) != nil {
		return nil
	}
	return r.types
}

func (r *rule) compileTypes(v jsontext.Value) error {
	if len(v) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(v, &one) == nil {
		r.types = []string{one}
	} else if err := json.Unmarshal(v, &r.types); err != nil {
		return fmt.Errorf("type: %v", err)
	}
	for _, t := range r.types {
		if !slices.Contains([]string{"null", "boolean", "integer", "string", "object", "array"}, t) {
			return fmt.Errorf("type %q is not supported", t)
		}
	}
	return nil
}

func (r *rule) compileProps(v jsontext.Value, special bool) error {
	if len(v) == 0 {
		return nil
	}
	dec := jsontext.NewDecoder(strings.NewReader(string(v)))
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for dec.PeekKind() == '"' {
		tok, _ := dec.ReadToken()
		name := tok.String()
		var raw rawRule
		if err := json.UnmarshalDecode(dec, &raw, json.RejectUnknownMembers(true)); err != nil {
			return fmt.Errorf("properties/%s: %v", name, err)
		}
		sub, err := compileRule(&raw, special)
		if err != nil {
			return fmt.Errorf("properties/%s: %v", name, err)
		}
		r.props = append(r.props, prop{name: name, rule: sub, required: slices.Index(r.required, name)})
	}
	for i, req := range r.required {
		if r.prop(req) == nil {
			return fmt.Errorf("required %q has no property schema", req)
		}
		if slices.Index(r.required, req) != i {
			return fmt.Errorf("required %q is listed twice", req)
		}
	}
	return nil
}

func (r *rule) prop(name string) *rule {
	if i := r.propIndex(name, 0); i >= 0 {
		return r.props[i].rule
	}
	return nil
}

// propIndexBytes is propIndex of a name given by its bytes.
func (r *rule) propIndexBytes(name []byte, hint int) int {
	if hint < len(r.props) && r.props[hint].name == string(name) {
		return hint
	}
	for i := range r.props {
		if r.props[i].name == string(name) {
			return i
		}
	}
	return -1
}

// propIndex is the index in r.props of the property named name, or -1;
// the search starts at hint, where a document written in schema order has
// its next member.
func (r *rule) propIndex(name string, hint int) int {
	if hint < len(r.props) && r.props[hint].name == name {
		return hint
	}
	for i := range r.props {
		if r.props[i].name == name {
			return i
		}
	}
	return -1
}

func (r *rule) compileLimits(raw *rawRule, special bool) error {
	var err error
	if raw.Items != nil {
		if r.items, err = compileRule(raw.Items, special); err != nil {
			return fmt.Errorf("items: %v", err)
		}
	}
	r.minItems, r.maxItems = deref(raw.MinItems, 0), deref(raw.MaxItems, -1)
	r.minLength, r.maxLength = deref(raw.MinLength, 0), deref(raw.MaxLength, -1)
	if r.minimum, err = bigInt(raw.Minimum); err != nil {
		return fmt.Errorf("minimum: %v", err)
	}
	if r.maximum, err = bigInt(raw.Maximum); err != nil {
		return fmt.Errorf("maximum: %v", err)
	}
	if slices.Contains(r.types, "integer") && (r.minimum == nil || r.maximum == nil) {
		return fmt.Errorf("an integer needs both minimum and maximum so that it fits its Go type")
	}
	if raw.Pattern != "" && !special {
		if r.pattern, err = regexp.Compile(raw.Pattern); err != nil {
			return fmt.Errorf("pattern: %v", err)
		}
	}
	return nil
}

func deref(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

func bigInt(v jsontext.Value) (*big.Int, error) {
	if len(v) == 0 {
		return nil, nil
	}
	n, ok := new(big.Int).SetString(string(v), 10)
	if !ok {
		return nil, fmt.Errorf("%s is not an integer", v)
	}
	return n, nil
}

// link makes sure every $ref names an existing $defs entry, resolves
// each to its entry and Go check, and notes each rule's JSON types as a
// set of node kinds.
func (s *compiledSchema) link(r *rule) error {
	if r == nil {
		return nil
	}
	r.kinds = kindsOf(r)
	if r.ref != "" {
		def, ok := s.defs[r.ref]
		if !ok {
			return fmt.Errorf("schema %s: $ref to unknown $defs/%s", s.name, r.ref)
		}
		r.def, r.check = def, specialDefs[r.ref] // resolved once, not per value
	}
	for _, p := range r.props {
		if err := s.link(p.rule); err != nil {
			return err
		}
	}
	if err := s.link(r.items); err != nil {
		return err
	}
	return s.link(r.nullable)
}
