package validate

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/stages/load"
)

// TestPromptVersions: the development-rounds example's table (rule G8).
// By hand from its manifest and prompt files: the draft's instruction
// (draft) and A's (review-a) are unrevised, received by every round; B's
// review-b (3 lines) is version 1.0 of round 1 and review-b-v1-1 (the
// same 3 lines, a blank line and one added sentence) version 1.1 of round
// 2 on, frozen 2026-10-01T08:30:39Z.
func TestPromptVersions(t *testing.T) {
	f := exampleMapFS(t, "development-rounds")
	c, found := load.Campaign(f, "example")
	if found.Rejected() {
		t.Fatalf("load rejected: %v", found)
	}
	sum := func(path string) string {
		s := sha256.Sum256(f[path].Data)
		return hex.EncodeToString(s[:])
	}
	type want struct{ role, arm, version, prompt, rounds string }
	wants := []want{
		{"draft", "", "1.0", "draft", "every round and evaluation"},
		{"review", "A", "1.0", "review-a", "every round and evaluation"},
		{"review", "B", "1.0", "review-b", "round 1"},
		{"review", "B", "1.1", "review-b-v1-1", "round 2 and evaluation"},
	}
	rows := PromptVersions(c)
	if len(rows) != len(wants) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(wants), rows)
	}
	for i, w := range wants {
		r := rows[i]
		arm := ""
		if r.Arm != nil {
			arm = *r.Arm
		}
		path := "prompts/" + w.prompt + ".md"
		if r.Role != w.role || arm != w.arm || r.Version != w.version || r.PromptID != w.prompt || r.Rounds != w.rounds ||
			r.SHA256 != sum(path) || r.Bytes != int64(len(f[path].Data)) {
			t.Errorf("row %d: %+v, want %+v with the sha256 and size of %s", i, r, w, path)
		}
		if (r.Diff != nil) != (w.version == "1.1") || (r.Replaces != nil) != (w.version == "1.1") || (r.FrozenAt != nil) != (w.version == "1.1") {
			t.Errorf("row %d: diff, replaces and frozen_at must be set for the revision only: %+v", i, r)
		}
	}
	rv := rows[3]
	if *rv.Replaces != "review-b" || *rv.FrozenAt != mustTime(t, "2026-10-01T08:30:39Z").UnixNano() {
		t.Errorf("revision replaces %s, frozen %d", *rv.Replaces, *rv.FrozenAt)
	}
	old := strings.Split(strings.TrimSuffix(string(f["prompts/review-b.md"].Data), "\n"), "\n")
	var wantDiff strings.Builder
	for _, l := range old {
		wantDiff.WriteString(" " + l + "\n")
	}
	wantDiff.WriteString("+\n+Before the final answer, check that every excluded evidence item's reason names what the item lacks for the task.\n")
	if *rv.Diff != wantDiff.String() {
		t.Errorf("diff\n%s\nwant\n%s", *rv.Diff, wantDiff.String())
	}
	c.Manifest.Design.Development = nil
	if rows := PromptVersions(c); rows != nil {
		t.Errorf("without a development flow: %d rows, want none", len(rows))
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}
