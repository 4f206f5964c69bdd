package stages_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// TestPromptOverheadOfB computes B's prompt overhead over A independently,
// from the example's raw files, and compares it with the figure the
// pipeline reports. Bytes: B receives review-b (verbatim) and the
// reconciliation schema (framed "\n=== BEGIN RECONCILIATION_SCHEMA (n
// bytes) ===\n" … "\n=== END RECONCILIATION_SCHEMA ===\n") where A
// receives review-a; the common instruction and final-answer schema are
// the same bytes for both. Tokens: over every (task, repetition) whose A
// and B reviews both carry a meter, B's usage.input_tokens minus A's, read
// from receipts.jsonl (the openai.responses input total includes cached
// input).
func TestPromptOverheadOfB(t *testing.T) {
	fsys, _ := fixtures.Example(fixtures.DefaultExample)
	read := func(name string) []byte {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	reviewA, reviewB := len(read("prompts/review-a.md")), len(read("prompts/review-b.md"))
	rec := len(read("prompts/reconciliation.schema.json"))
	frame := len(fmt.Sprintf("\n=== BEGIN RECONCILIATION_SCHEMA (%d bytes) ===\n", rec)) + len("\n=== END RECONCILIATION_SCHEMA ===\n")
	wantBytes := int64(reviewB + rec + frame - reviewA)

	type key struct {
		task string
		rep  int64
	}
	input := map[key]map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(read("receipts.jsonl")))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			TaskID     string  `json:"task_id"`
			Repetition int64   `json:"repetition"`
			Role       string  `json:"role"`
			Arm        *string `json:"arm"`
			Status     string  `json:"status"`
			Meter      *struct {
				Usage struct {
					InputTokens int64 `json:"input_tokens"`
				} `json:"usage"`
			} `json:"meter"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r, json.RejectUnknownMembers(false)); err != nil {
			t.Fatal(err)
		}
		if r.Role != "review" || r.Arm == nil || r.Meter == nil || r.Status == "not_dispatched" {
			continue
		}
		k := key{r.TaskID, r.Repetition}
		if input[k] == nil {
			input[k] = map[string]int64{}
		}
		input[k][*r.Arm] = r.Meter.Usage.InputTokens
	}
	var wantTokens, wantPairs int64
	for _, arms := range input {
		a, okA := arms["A"]
		b, okB := arms["B"]
		if okA && okB {
			wantPairs++
			wantTokens += b - a
		}
	}

	res := stages.Run(fsys, "example", stages.Options{SkipIntervals: true})
	if len(res.Figures.PromptOverheads) != 1 {
		t.Fatalf("prompt overheads: %+v", res.Figures.PromptOverheads)
	}
	got := res.Figures.PromptOverheads[0]
	if got.Arm != "B" || got.Baseline != "A" || got.Bytes != wantBytes {
		t.Errorf("overhead %s over %s: %d bytes, want B over A %d (review-b %d + reconciliation %d + frame %d − review-a %d)",
			got.Arm, got.Baseline, got.Bytes, wantBytes, reviewB, rec, frame, reviewA)
	}
	if got.MeteredPairs != wantPairs || got.InputTokens != wantTokens {
		t.Errorf("tokens: %d over %d metered pairs, want %d over %d", got.InputTokens, got.MeteredPairs, wantTokens, wantPairs)
	}
	if wantPairs != 23 { // 24 pairs; T3-r2's draft failed, so its reviews were not dispatched
		t.Errorf("independent count found %d metered pairs, want 23", wantPairs)
	}
	if len(got.ArmOnly) != 2 || got.ArmOnly[0].ID != "review-b" || got.ArmOnly[1].Kind != tables.PartReconciliationSchema ||
		len(got.BaselineOnly) != 1 || got.BaselineOnly[0].ID != "review-a" {
		t.Errorf("differing parts: B only %+v, A only %+v", got.ArmOnly, got.BaselineOnly)
	}
}
