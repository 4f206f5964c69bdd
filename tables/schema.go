package tables

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"slices"
	"strings"
)

// The published JSON Schemas (draft 2020-12) of every input document: the
// campaign files, the blind-rating file of `evalgate blind import` and the
// admission request of `evalgate admit` ("request"). They are embedded byte
// for byte: SchemaSHA256("answer") is the response-schema digest a manifest
// freezes (rule L3), so these files must never be reformatted without a new
// format version. manifest-v2.schema.json is generated from
// manifest.schema.json (internal/genschema): edit v1, then go generate.
//
//go:generate go run ./internal/genschema
//go:embed schemas/*.schema.json
var schemaFS embed.FS

const schemaDir, schemaSuffix = "schemas/", ".schema.json"

// Schema returns the embedded JSON Schema bytes of the named input document
// ("answer", "manifest", ...) and whether it exists. The returned slice is a
// copy; callers may modify it.
func Schema(name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, "/\\.") {
		return nil, false
	}
	b, err := schemaFS.ReadFile(schemaDir + name + schemaSuffix)
	if err != nil {
		return nil, false
	}
	return b, true
}

// SchemaNames returns the names of every embedded schema, sorted.
func SchemaNames() []string {
	entries, err := schemaFS.ReadDir(strings.TrimSuffix(schemaDir, "/"))
	if err != nil {
		panic("tables: embedded schema directory unreadable: " + err.Error()) // programmer error
	}
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), schemaSuffix); ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// SchemaSHA256 returns the lowercase hex sha256 of the exact embedded bytes
// of the named schema, or "" when there is no such schema.
func SchemaSHA256(name string) string {
	b, ok := Schema(name)
	if !ok {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
