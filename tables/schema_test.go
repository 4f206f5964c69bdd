package tables

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/go-json-experiment/json"
)

func TestSchemaNames(t *testing.T) {
	want := []string{"adjudication", "answer", "blind-rating", "cases", "finding-adjudication", "import-map", "inventory", "manifest", "manifest-v2", "observations", "packet", "receipt", "request", "review", "schedule", "trial-result", "truth", "unblinding"}
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

// TestManifestV2SchemaInStep: the v2 manifest schema is the v1 schema with
// exactly the schedule moved out (design.schedule → design.schedule_file,
// $defs/slot → $defs/scheduleFile) and its own identity. The v2 schema is
// generated from v1 (internal/genschema); this checks, independently of
// the generator's edits, that they change nothing else.
func TestManifestV2SchemaInStep(t *testing.T) {
	load := func(name string) map[string]any {
		data, _ := Schema(name)
		var v map[string]any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"$id", "title", "description"} {
			delete(v, k)
		}
		delete(v["properties"].(map[string]any), "format")
		defs := v["$defs"].(map[string]any)
		delete(defs, "slot")
		delete(defs, "scheduleFile")
		design := defs["design"].(map[string]any)
		props := design["properties"].(map[string]any)
		delete(props, "schedule")
		delete(props, "schedule_file")
		var req []any
		for _, r := range design["required"].([]any) {
			if r != "schedule" && r != "schedule_file" {
				req = append(req, r)
			}
		}
		design["required"] = req
		return v
	}
	if v1, v2 := load("manifest"), load("manifest-v2"); !reflect.DeepEqual(v1, v2) {
		t.Error("manifest-v2 differs from manifest beyond its identity, format and schedule")
	}
}
