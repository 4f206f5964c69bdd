// Command genschema writes schemas/manifest-v2.schema.json from
// schemas/manifest.schema.json, so the v1 manifest schema is the one
// source of both: format v2 is v1 with its own identity and format and
// with the design's schedule moved out of the manifest into the file
// design.schedule_file names (the published schema `schedule`). It is run
// by "go generate ./tables"; a test fails when the committed v2 schema
// differs from what it writes.
//
// Usage (from tables/):
//
//	go run ./internal/genschema
package main

import (
	"fmt"
	"os"
)

const (
	v1Path = "schemas/manifest.schema.json"
	v2Path = "schemas/manifest-v2.schema.json"
)

func main() {
	v1, err := os.ReadFile(v1Path)
	if err == nil {
		var v2 []byte
		if v2, err = manifestV2(v1); err == nil {
			err = os.WriteFile(v2Path, v2, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genschema:", err)
		os.Exit(1)
	}
}
