package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManifestV2Generated: the committed v2 manifest schema is exactly
// what genschema derives from the committed v1 schema (run "go generate
// ./tables" after editing manifest.schema.json).
func TestManifestV2Generated(t *testing.T) {
	v1, err := os.ReadFile(filepath.Join("..", "..", v1Path))
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", v2Path))
	if err != nil {
		t.Fatal(err)
	}
	got, err := manifestV2(v1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, committed) {
		t.Errorf("%s is not generated from %s: run go generate ./tables", v2Path, v1Path)
	}
}

// TestManifestV2EditsMustApply: an edit that no longer matches the v1
// schema is an error, not a stale v2 schema.
func TestManifestV2EditsMustApply(t *testing.T) {
	v1, err := os.ReadFile(filepath.Join("..", "..", v1Path))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ what, old, new string }{
		{"format const", `"const": "evalgate.manifest/v1"`, `"const": "evalgate.manifest/v9"`},
		{"slot def", `"slot": {`, `"slots": {`},
		{"identity", `"$id": "https://evalgate.dev/schemas/manifest.schema.json"`, `"$id": "x"`},
	} {
		broken := strings.Replace(string(v1), c.old, c.new, 1)
		if broken == string(v1) {
			t.Fatalf("%s: test edit did not apply", c.what)
		}
		if _, err := manifestV2([]byte(broken)); err == nil {
			t.Errorf("%s changed in v1: manifestV2 succeeded", c.what)
		}
	}
}
