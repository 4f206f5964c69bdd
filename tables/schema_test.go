package tables

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"slices"
	"testing"
)

func TestSchemaNames(t *testing.T) {
	want := []string{"adjudication", "answer", "blind-rating", "cases", "finding-adjudication", "import-map", "inventory", "manifest", "observations", "packet", "receipt", "request", "review", "trial-result", "truth", "unblinding"}
	if got := SchemaNames(); !slices.Equal(got, want) {
		t.Fatalf("SchemaNames() = %v, want %v", got, want)
	}
}

func TestSchemaBytes(t *testing.T) {
	for _, name := range SchemaNames() {
		t.Run(name, func(t *testing.T) {
			got, ok := Schema(name)
			if !ok {
				t.Fatal("missing")
			}
			// The embedded bytes are the file's bytes, read independently.
			disk, err := os.ReadFile("schemas/" + name + ".schema.json")
			if err != nil || !bytes.Equal(got, disk) {
				t.Fatalf("embedded bytes differ from the file: %v", err)
			}
			if bytes.Contains(got, []byte("\r")) || !bytes.HasSuffix(got, []byte("}\n")) || bytes.HasSuffix(got, []byte("\n\n")) {
				t.Error("schema must use LF line ends and end in exactly one newline")
			}
			sum := sha256.Sum256(disk)
			if SchemaSHA256(name) != hex.EncodeToString(sum[:]) {
				t.Error("SchemaSHA256 is not the sha256 of the file")
			}
			got[0] = 'x' // Schema returns a copy
			if again, _ := Schema(name); again[0] != '{' {
				t.Error("Schema returned shared bytes")
			}
		})
	}
	for _, bad := range []string{"", "nope", "../answer", "answer.schema", "schemas/answer"} {
		t.Run("unknown "+bad, func(t *testing.T) {
			if _, ok := Schema(bad); ok || SchemaSHA256(bad) != "" {
				t.Errorf("Schema(%q) found", bad)
			}
		})
	}
}
