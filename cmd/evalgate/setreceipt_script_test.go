package main

import (
	"bytes"
	"os"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdSetReceipt is the script command
//
//	setreceipt RECEIPTS SESSION MEMBER JSON
//
// which sets MEMBER (a dotted path such as identity.host) of session
// SESSION's receipt line in RECEIPTS to the JSON value, leaving every other
// line byte-identical: a one-edit copy of a campaign.
func cmdSetReceipt(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: setreceipt RECEIPTS SESSION MEMBER JSON")
	}
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	lines := bytes.SplitAfter(data, []byte("\n"))
	found := false
	for i, line := range lines {
		var rec map[string]any
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(bytes.TrimSpace(line), &rec) != nil || rec["session_id"] != args[1] {
			continue
		}
		var value any
		ts.Check(json.Unmarshal([]byte(args[3]), &value))
		keys := strings.Split(args[2], ".")
		obj := rec
		for _, k := range keys[:len(keys)-1] {
			next, ok := obj[k].(map[string]any)
			if !ok {
				ts.Fatalf("receipt of %s has no object %q", args[1], k)
			}
			obj = next
		}
		obj[keys[len(keys)-1]] = value
		out, err := json.Marshal(rec, json.Deterministic(true))
		ts.Check(err)
		lines[i] = append(jsontext.Value(out), '\n')
		found = true
		break
	}
	if !found {
		ts.Fatalf("no receipt of session %s in %s", args[1], args[0])
	}
	ts.Check(os.WriteFile(path, bytes.Join(lines, nil), 0o644))
}
