package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/cmd/evalgate/internal/cli"
	"github.com/evalgate/evalgate/fixtures"
)

// handRendering renders one session of the embedded example from its files
// by the rule docs/prompts.md states, written here without the tool's
// renderer: the role's prompt files in the design's order, an instruction
// verbatim, a schema as a FINAL_ANSWER_SCHEMA or RECONCILIATION_SCHEMA
// block; then TASK, EVIDENCE_PACKET and, for a review, COMMON_DRAFT, each
// "\n=== BEGIN <LABEL> (<n> bytes) ===\n" <n bytes> "\n=== END <LABEL> ===\n".
func handRendering(t *testing.T, fsys fs.FS, session string) []byte {
	t.Helper()
	var m struct {
		Prompts []struct {
			ID   string `json:"id"`
			Path string `json:"path"`
			Kind string `json:"kind"`
		} `json:"prompts"`
		Design struct {
			DraftPrompts []string `json:"draft_prompts"`
			Arms         []struct {
				ID      string   `json:"id"`
				Prompts []string `json:"prompts"`
			} `json:"arms"`
			Tasks []struct {
				ID         string `json:"id"`
				TaskPath   string `json:"task_path"`
				PacketPath string `json:"packet_path"`
			} `json:"tasks"`
		} `json:"design"`
	}
	read := func(p string) []byte {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if err := json.Unmarshal(read("manifest.json"), &m, json.RejectUnknownMembers(false)); err != nil {
		t.Fatal(err)
	}
	block := func(label string, data []byte) string {
		return fmt.Sprintf("\n=== BEGIN %s (%d bytes) ===\n%s\n=== END %s ===\n", label, len(data), data, label)
	}
	// session IDs of the example are <task>-r<rep>-<D|arm>
	parts := strings.Split(session, "-")
	task, role := parts[0], parts[2]
	ids := m.Design.DraftPrompts
	for _, a := range m.Design.Arms {
		if a.ID == role {
			ids = a.Prompts
		}
	}
	var out strings.Builder
	for _, id := range ids {
		for _, p := range m.Prompts {
			switch {
			case p.ID != id:
			case p.Kind == "final_answer_schema":
				out.WriteString(block("FINAL_ANSWER_SCHEMA", read(p.Path)))
			case p.Kind == "reconciliation_schema":
				out.WriteString(block("RECONCILIATION_SCHEMA", read(p.Path)))
			default:
				out.Write(read(p.Path))
			}
		}
	}
	for _, tk := range m.Design.Tasks {
		if tk.ID == task {
			out.WriteString(block("TASK", read(tk.TaskPath)))
			out.WriteString(block("EVIDENCE_PACKET", read(tk.PacketPath)))
		}
	}
	if role != "D" {
		out.WriteString(block("COMMON_DRAFT", read("answers/"+parts[0]+"-"+parts[1]+"-D.json")))
	}
	return []byte(out.String())
}

// receiptRendered returns the rendered_sha256 and rendered_bytes the
// example's receipt of session declares.
func receiptRendered(t *testing.T, fsys fs.FS, session string) (string, int64) {
	t.Helper()
	data, err := fs.ReadFile(fsys, "receipts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r struct {
			SessionID string `json:"session_id"`
			Inputs    struct {
				SHA256 string `json:"rendered_sha256"`
				Bytes  int64  `json:"rendered_bytes"`
			} `json:"inputs"`
		}
		if err := json.Unmarshal(line, &r, json.RejectUnknownMembers(false)); err != nil {
			t.Fatal(err)
		}
		if r.SessionID == session {
			return r.Inputs.SHA256, r.Inputs.Bytes
		}
	}
	t.Fatalf("no receipt %s", session)
	return "", 0
}

// TestPromptsRenderT1R1: evalgate prompts render --raw prints, for the
// example's T1-r1 draft and both reviews, exactly the bytes of the hand
// rendering, and their sha256 and length are what the receipts declare.
// Only B's prompt carries the review-b instruction and the reconciliation
// schema, exactly once.
func TestPromptsRenderT1R1(t *testing.T) {
	fsys, _ := fixtures.Example(fixtures.DefaultExample)
	bInstruction, _ := fs.ReadFile(fsys, "prompts/review-b.md")
	for _, session := range []string{"T1-r1-D", "T1-r1-A", "T1-r1-B"} {
		t.Run(session, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := cli.Main([]string{"prompts", "render", "--session", session, "--raw"}, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			want := handRendering(t, fsys, session)
			if !bytes.Equal(stdout.Bytes(), want) {
				t.Fatalf("rendered %d bytes, hand rendering %d bytes", stdout.Len(), len(want))
			}
			sum := sha256.Sum256(want)
			sha, n := receiptRendered(t, fsys, session)
			if hex.EncodeToString(sum[:]) != sha || int64(len(want)) != n {
				t.Errorf("receipt declares %d bytes %s; the hand rendering is %d bytes %x", n, sha, len(want), sum)
			}
			wantB := 0
			if strings.HasSuffix(session, "-B") {
				wantB = 1
			}
			if got := bytes.Count(want, bInstruction); got != wantB {
				t.Errorf("B's instruction appears %d times, want %d", got, wantB)
			}
			if got := bytes.Count(want, []byte("=== BEGIN RECONCILIATION_SCHEMA (")); got != wantB {
				t.Errorf("the reconciliation schema appears %d times, want %d", got, wantB)
			}
		})
	}
}
