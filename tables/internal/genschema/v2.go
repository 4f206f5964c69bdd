package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// manifestV2 derives the v2 manifest schema from the v1 schema's bytes by
// exact edits, each of which must apply exactly once: an edit that no
// longer matches is an error, never a silently stale v2 schema. Every
// other byte of v1 is kept.
func manifestV2(v1 []byte) ([]byte, error) {
	doc := bytes.Clone(v1)
	var err error
	edit := func(f func([]byte) ([]byte, error)) {
		if err == nil {
			doc, err = f(doc)
		}
	}
	edit(inValue("/$id", `"https://evalgate.dev/schemas/manifest.schema.json"`, `"https://evalgate.dev/schemas/manifest-v2.schema.json"`))
	edit(inValue("/title", "(evalgate.manifest/v1)", "(evalgate.manifest/v2)"))
	edit(inValue("/description", "; the sha256 of its bytes is the campaign identity.", ", format 2: the design's schedule is not listed here but in the JSONL file design.schedule_file names by path and sha256 (published schema `schedule`), so the manifest stays small at any number of sessions; the sha256 of its bytes is the campaign identity."))
	edit(inValue("/properties/format/const", `"evalgate.manifest/v1"`, `"evalgate.manifest/v2"`))
	edit(member("/$defs/slot", `"scheduleFile": {
      "description": "The schedule file: one line per (task, repetition) slot in the published schema `+"`schedule`"+`; sha256 is the digest of its bytes, so the manifest's identity covers the schedule.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "path",
        "sha256"
      ],
      "properties": {
        "path": {
          "$ref": "#/$defs/path"
        },
        "sha256": {
          "$ref": "#/$defs/sha256"
        }
      }
    }`))
	edit(inValue("/$defs/design/required", `"schedule",`, `"schedule_file",`))
	edit(member("/$defs/design/properties/schedule", `"schedule_file": {
          "$ref": "#/$defs/scheduleFile"
        }`))
	if err != nil {
		return nil, err
	}
	if !jsontext.Value(doc).IsValid() {
		return nil, errors.New("the derived v2 schema is not valid JSON")
	}
	return doc, nil
}

// inValue replaces old, which must occur exactly once within the value at
// pointer, by new.
func inValue(pointer, old, new string) func([]byte) ([]byte, error) {
	return func(doc []byte) ([]byte, error) {
		start, end, err := locate(doc, pointer)
		if err != nil {
			return nil, err
		}
		value := doc[start:end]
		if n := bytes.Count(value, []byte(old)); n != 1 {
			return nil, fmt.Errorf("%s: %q occurs %d times in the v1 schema, want once", pointer, old, n)
		}
		out := append(bytes.Clone(doc[:start]), bytes.Replace(value, []byte(old), []byte(new), 1)...)
		return append(out, doc[end:]...), nil
	}
}

// member replaces the whole member at pointer, name included, by text.
func member(pointer, text string) func([]byte) ([]byte, error) {
	return func(doc []byte) ([]byte, error) {
		start, end, err := locate(doc, pointer)
		if err != nil {
			return nil, err
		}
		name := bytes.LastIndexByte(doc[:start], ':')
		name = bytes.LastIndexByte(doc[:name], '"')
		name = bytes.LastIndexByte(doc[:name], '"')
		if name < 0 {
			return nil, fmt.Errorf("%s: no member name before the value", pointer)
		}
		out := append(bytes.Clone(doc[:name]), text...)
		return append(out, doc[end:]...), nil
	}
}

// locate returns the byte range of the value of the object member at
// pointer (an RFC 6901 pointer through object names only).
func locate(doc []byte, pointer string) (start, end int64, err error) {
	dec := jsontext.NewDecoder(bytes.NewReader(doc))
	for {
		if _, err := dec.ReadToken(); err == io.EOF {
			return 0, 0, fmt.Errorf("%s: not in the v1 schema", pointer)
		} else if err != nil {
			return 0, 0, err
		}
		kind, n := dec.StackIndex(dec.StackDepth())
		if kind != '{' || n%2 != 1 || string(dec.StackPointer()) != pointer {
			continue
		}
		// The name was just read: the value follows its colon.
		start = dec.InputOffset()
		for doc[start] == ' ' || doc[start] == ':' || doc[start] == '\n' || doc[start] == '\t' || doc[start] == '\r' {
			start++
		}
		if err := dec.SkipValue(); err != nil {
			return 0, 0, err
		}
		return start, dec.InputOffset(), nil
	}
}
