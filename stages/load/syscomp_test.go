package load

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// exampleFS copies an embedded example into a mutable map file system.
func exampleFS(t testing.TB, name string) fstest.MapFS {
	t.Helper()
	src, ok := fixtures.Example(name)
	if !ok {
		t.Fatalf("no example %s", name)
	}
	out := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		out[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// editDoc rewrites a JSON document through a generic map.
func editDoc(t *testing.T, fsys fstest.MapFS, path string, edit func(m map[string]any)) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(fsys[path].Data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	fsys[path] = &fstest.MapFile{Data: data}
}

// editReceipts rewrites receipts.jsonl.
func editReceipts(t *testing.T, fsys fstest.MapFS, edit func(rs []tables.Receipt)) {
	t.Helper()
	var rs []tables.Receipt
	for _, line := range splitJSONL(fsys["receipts.jsonl"].Data) {
		var r tables.Receipt
		if err := jsonv2.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	edit(rs)
	var out []byte
	for _, r := range rs {
		b, err := jsonv2.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(append(out, b...), '\n')
	}
	fsys["receipts.jsonl"] = &fstest.MapFile{Data: out}
}

func splitJSONL(data []byte) [][]byte {
	var out [][]byte
	start := 0
	for i, b := range data {
		if b == '\n' {
			out = append(out, data[start:i])
			start = i + 1
		}
	}
	return out
}

func findReceipt(t *testing.T, rs []tables.Receipt, id string) *tables.Receipt {
	t.Helper()
	for i := range rs {
		if rs[i].SessionID == id {
			return &rs[i]
		}
	}
	t.Fatalf("no receipt %s", id)
	return nil
}

func codesOf(fs rules.Findings) []rules.Code {
	var out []rules.Code
	for _, f := range fs {
		if !slices.Contains(out, f.Code) {
			out = append(out, f.Code)
		}
	}
	return out
}

func TestSystemComparisonLoads(t *testing.T) {
	c, findings := Campaign(exampleFS(t, "system-comparison"), "example")
	if len(findings) != 0 {
		t.Fatalf("findings %v", findings)
	}
	// 36 investigations each return one observation packet.
	if len(c.Observations) != 35 { // the timed-out native investigation returned none
		t.Fatalf("%d observation packets, want 35", len(c.Observations))
	}
}

func TestSystemComparisonLoadRules(t *testing.T) {
	const sys = "system-comparison"
	cases := []struct {
		name    string
		example string
		mut     func(t *testing.T, f fstest.MapFS)
		want    rules.Code
	}{
		{"first system is not the baseline", sys, func(t *testing.T, f fstest.MapFS) {
			editDoc(t, f, "manifest.json", func(m map[string]any) {
				arms := m["design"].(map[string]any)["arms"].([]any)
				arms[0].(map[string]any)["comparator_role"] = "comparator"
			})
		}, rules.CodeComparatorRoles},
		{"two candidates", sys, func(t *testing.T, f fstest.MapFS) {
			editDoc(t, f, "manifest.json", func(m map[string]any) {
				arms := m["design"].(map[string]any)["arms"].([]any)
				arms[2].(map[string]any)["comparator_role"] = "candidate"
			})
		}, rules.CodeComparatorRoles},
		{"comparator role in a paired review", "paired-review", func(t *testing.T, f fstest.MapFS) {
			editDoc(t, f, "manifest.json", func(m map[string]any) {
				arms := m["design"].(map[string]any)["arms"].([]any)
				arms[1].(map[string]any)["comparator_role"] = "candidate"
			})
		}, rules.CodeComparatorRoleUnexpected},
		{"one order used three times", sys, func(t *testing.T, f fstest.MapFS) {
			editDoc(t, f, "manifest.json", func(m map[string]any) {
				sched := m["design"].(map[string]any)["schedule"].([]any)
				sched[0].(map[string]any)["order"] = sched[1].(map[string]any)["order"]
			})
		}, rules.CodeOrderUnbalanced},
		{"observations on a review receipt", sys, func(t *testing.T, f fstest.MapFS) {
			editReceipts(t, f, func(rs []tables.Receipt) {
				findReceipt(t, rs, "S1-r1-madar-R").Observations = findReceipt(t, rs, "S1-r1-madar-I").Observations
			})
		}, rules.CodeObservationsUnexpected},
		{"observations bytes differ from the receipt", sys, func(t *testing.T, f fstest.MapFS) {
			editReceipts(t, f, func(rs []tables.Receipt) { findReceipt(t, rs, "S1-r1-madar-I").Observations.Bytes++ })
		}, rules.CodeObservationsMismatch},
		{"observations not an observation log", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-madar-I", func(m map[string]any) { m["format"] = "evalgate.packet/v1" })
		}, rules.CodeFormatUnsupported},
		{"an observation filtered out of the log", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-madar-I", func(m map[string]any) {
				obs := m["observations"].([]any)
				m["observations"] = obs[:len(obs)-1]
			})
		}, rules.CodeObservationsUnaccounted},
		{"an observation invented", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-native-I", func(m map[string]any) {
				obs := m["observations"].([]any)
				last := map[string]any{}
				for k, v := range obs[len(obs)-1].(map[string]any) {
					last[k] = v
				}
				last["id"] = fmt.Sprintf("E%d", len(obs)+1)
				last["completed_ns"] = last["completed_ns"].(float64) + 1
				m["observations"] = append(obs, last)
			})
		}, rules.CodeObservationsUnaccounted},
		{"observations reordered and renumbered", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-madar-I", func(m map[string]any) {
				obs := m["observations"].([]any)
				obs[0], obs[1] = obs[1], obs[0]
				obs[0].(map[string]any)["id"], obs[1].(map[string]any)["id"] = "E1", "E2"
			})
		}, rules.CodeObservationOrder},
		{"declared source lines not in the response", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-madar-I", func(m map[string]any) {
				m["observations"].([]any)[0].(map[string]any)["response"] = "export function somethingElse() {}\n"
			})
		}, rules.CodeObservationSourceUnseen},
		{"coordinates on an error result", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-madar-I", func(m map[string]any) {
				m["observations"].([]any)[0].(map[string]any)["status"] = "error"
			})
		}, rules.CodeObservationStatus},
		{"an empty observation with response bytes", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-madar-I", func(m map[string]any) {
				o := m["observations"].([]any)[0].(map[string]any)
				o["status"], o["source"] = "empty", nil
			})
		}, rules.CodeObservationStatus},
		{"another tool recorded as setup overhead", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-serena-I", func(m map[string]any) {
				m["setup"].([]any)[0].(map[string]any)["name"] = "find_symbol"
			})
			editReceipts(t, f, func(rs []tables.Receipt) { findReceipt(t, rs, "S1-r1-serena-I").ToolCalls[0].Name = "find_symbol" })
		}, rules.CodeSetupOverheadMisplaced},
		{"the setup manual numbered as evidence", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-serena-I", func(m map[string]any) {
				m["observations"].([]any)[0].(map[string]any)["name"] = "initial_instructions"
			})
			editReceipts(t, f, func(rs []tables.Receipt) {
				findReceipt(t, rs, "S1-r1-serena-I").ToolCalls[1].Name = "initial_instructions"
			})
		}, rules.CodeSetupOverheadMisplaced},
		{"tokens counted under another tokenizer", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-madar-I", func(m map[string]any) { m["tokenizer"] = "cl100k_base" })
		}, rules.CodeObservationTokens},
		{"more tokens than bytes", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-madar-I", func(m map[string]any) { m["packet_tokens"] = 1 << 40 })
		}, rules.CodeObservationTokens},
		{"task packet marked raw", sys, func(t *testing.T, f fstest.MapFS) {
			editDoc(t, f, "tasks/S1/packet.json", func(m map[string]any) { m["raw_observations"] = true })
			editDoc(t, f, "manifest.json", func(m map[string]any) {
				tasks := m["design"].(map[string]any)["tasks"].([]any)
				tasks[0].(map[string]any)["packet_sha256"] = sha256Hex(f["tasks/S1/packet.json"].Data)
			})
		}, rules.CodeObservationsNotRaw},
		{"observations out of completion order", sys, func(t *testing.T, f fstest.MapFS) {
			rewriteObservations(t, f, "S1-r1-madar-I", func(m map[string]any) {
				items := m["observations"].([]any)
				items[0].(map[string]any)["id"], items[1].(map[string]any)["id"] = "E2", "E1"
			})
		}, rules.CodeObservationOrder},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := exampleFS(t, tc.example)
			tc.mut(t, f)
			_, findings := Campaign(f, "example")
			note(findings)
			if got := codesOf(findings); !slices.Equal(got, []rules.Code{tc.want}) {
				t.Fatalf("codes %v, want only %s: %v", got, tc.want, findings)
			}
		})
	}
}

// rewriteObservations edits an investigation's observation packet and
// keeps its receipt consistent with the new bytes.
func rewriteObservations(t *testing.T, f fstest.MapFS, session string, edit func(m map[string]any)) {
	t.Helper()
	path := "observations/" + session + ".json"
	editDoc(t, f, path, edit)
	editReceipts(t, f, func(rs []tables.Receipt) {
		r := findReceipt(t, rs, session)
		r.Observations.SHA256, r.Observations.Bytes = sha256Hex(f[path].Data), int64(len(f[path].Data))
	})
}

// FuzzObservationPacket feeds arbitrary bytes as an investigation's
// raw-observation packet (with a consistent receipt): loading never
// panics, and the campaign is admissible only if the bytes are a valid
// packet.
func FuzzObservationPacket(f *testing.F) {
	base := exampleFS(f, "system-comparison")
	const session = "S1-r1-madar-I"
	path := "observations/" + session + ".json"
	f.Add(base[path].Data)
	f.Add([]byte(`{"format":"evalgate.observations/v1","setup":[],"observations":[]}`))
	f.Add([]byte(`{"observations":[{"id":"E1","source":{"start_line":0}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{}
		for k, v := range base {
			fsys[k] = v
		}
		fsys[path] = &fstest.MapFile{Data: data}
		editReceipts(t, fsys, func(rs []tables.Receipt) {
			r := findReceipt(t, rs, session)
			r.Observations.SHA256, r.Observations.Bytes = sha256Hex(data), int64(len(data))
		})
		c, findings := Campaign(fsys, "fuzz")
		if !findings.Rejected() && c.Observations[session] == nil {
			t.Fatalf("admissible campaign without the observations of %s", session)
		}
	})
}
