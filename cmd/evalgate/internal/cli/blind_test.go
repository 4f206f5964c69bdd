package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/tables"
)

// TestBlindRoundTrip exports the example, turns its adjudications into
// grader ratings keyed by label (using only the sealed key), imports them
// and expects the example's adjudications.jsonl back byte for byte.
func TestBlindRoundTrip(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "export")
	if code, _, stderr := blindMain(t, "blind", "export", "--out", out, "--seed", "11"); code != ExitOK {
		t.Fatalf("export exit %d: %s", code, stderr)
	}
	var key tables.BlindKey
	data, err := os.ReadFile(filepath.Join(out, "key.sealed.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &key); err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{}
	for _, e := range key.Entries {
		labels[e.SessionID] = e.Label
	}
	example, _ := fixtures.Example(fixtures.DefaultExample)
	want, err := fs.ReadFile(example, "adjudications.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ratings := filepath.Join(dir, "ratings.jsonl")
	writeRatings(t, ratings, want, labels)
	adj := filepath.Join(dir, "adjudications.jsonl")
	args := []string{"blind", "import", "--key", filepath.Join(out, "key.sealed.json"), "--ratings", ratings,
		"--items", filepath.Join(out, "items")}

	t.Run("ratings before unblinding import", func(t *testing.T) {
		code, stdout, stderr := blindMain(t, append(args, "--unblinded-at", "2026-10-04T00:00:00Z", "--out", adj)...)
		if code != ExitOK || stdout != "" || stderr != "" {
			t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
		}
		got, err := os.ReadFile(adj)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("imported adjudications differ from the example's (err %v)", err)
		}
	})
	t.Run("stdout when no --out", func(t *testing.T) {
		code, stdout, _ := blindMain(t, append(args, "--unblinded-at", "2026-10-04T00:00:00Z")...)
		if code != ExitOK || stdout != string(want) {
			t.Fatalf("exit %d", code)
		}
	})
	t.Run("a rating after unblinding is refused", func(t *testing.T) {
		// The example's last ratings are frozen at 2026-10-03T09:45:00Z.
		os.Remove(adj)
		code, _, stderr := blindMain(t, append(args, "--unblinded-at", "2026-10-03T09:40:00Z", "--out", adj)...)
		if code != ExitRejected || !strings.Contains(stderr, "rating_after_unblinding") {
			t.Fatalf("exit %d, stderr %s", code, stderr)
		}
		if _, err := os.Stat(adj); err == nil {
			t.Fatal("adjudications written despite a refused rating")
		}
	})
	t.Run("a tampered item is refused", func(t *testing.T) {
		item := filepath.Join(out, "items", key.Entries[0].Label+".json")
		orig, _ := os.ReadFile(item)
		defer os.WriteFile(item, orig, 0o644)
		os.WriteFile(item, bytes.Replace(orig, []byte(`"final"`), []byte(`"final" `), 1), 0o644)
		code, _, stderr := blindMain(t, append(args, "--unblinded-at", "2026-10-04T00:00:00Z")...)
		if code != ExitRejected || !strings.Contains(stderr, key.Entries[0].Label+".json: blind_item_tampered") {
			t.Fatalf("exit %d, stderr %s", code, stderr)
		}
	})
}

// writeRatings rewrites each adjudication line as a blind rating line:
// the session_id member becomes the label member.
func writeRatings(t *testing.T, path string, adjudications []byte, labels map[string]string) {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(string(adjudications), "\n"), "\n") {
		var a tables.Adjudication
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatal(err)
		}
		if labels[a.SessionID] == "" {
			t.Fatalf("session %s was not exported", a.SessionID)
		}
		b.WriteString(strings.Replace(line, `"format":"evalgate.adjudication/v1","session_id":"`+a.SessionID+`"`,
			`"format":"evalgate.blind-rating/v1","label":"`+labels[a.SessionID]+`"`, 1) + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func blindMain(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}
