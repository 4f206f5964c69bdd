package cli

import (
	"crypto/sha256"
	"encoding/hex"
	stdjson "encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/confined"
)

// TestShowExitCodes: show prints a run's summary (0); a directory that is
// not an output set is a usage error (2); a table that exists but does not
// read is an I/O failure (3).
func TestShowExitCodes(t *testing.T) {
	base := t.TempDir()
	out := filepath.Join(base, "out")
	runInto(t, out)
	noScorecard := filepath.Join(base, "empty")
	if err := os.Mkdir(noScorecard, 0o755); err != nil {
		t.Fatal(err)
	}
	notScorecard := filepath.Join(base, "other")
	if err := os.CopyFS(notScorecard, os.DirFS(out)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notScorecard, "scorecard.json"), []byte(`{"campaign_id": "x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(base, "corrupt")
	if err := os.CopyFS(corrupt, os.DirFS(out)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corrupt, "campaign_findings.parquet"), []byte("PAR1 not parquet PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The same corruption with an output manifest that lists it: the set
	// is as evalgate "wrote" it, and the table does not read (an I/O
	// failure, 3), where the two edits above are refused as a set that is
	// not evalgate's (2).
	listed := filepath.Join(base, "listed")
	if err := os.CopyFS(listed, os.DirFS(corrupt)); err != nil {
		t.Fatal(err)
	}
	relist(t, listed, "campaign_findings.parquet")
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"summary", []string{out}, ExitOK, ""},
		{"json", []string{out, "--json"}, ExitOK, ""},
		{"no_argument", nil, ExitUsage, "exactly one output directory"},
		{"two_arguments", []string{out, out}, ExitUsage, "exactly one output directory"},
		{"missing", []string{filepath.Join(base, "nope")}, ExitUsage, "is not a directory"},
		{"no_scorecard", []string{noScorecard}, ExitUsage, "has no scorecard.json"},
		{"edited_scorecard", []string{notScorecard}, ExitUsage, "scorecard.json is changed"},
		{"edited_table", []string{corrupt}, ExitUsage, "campaign_findings.parquet is changed"},
		{"corrupt_table", []string{listed}, ExitFailure, "campaign_findings.parquet"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := mainCmd(append([]string{"show"}, c.args...)...)
			if code != c.code || !strings.Contains(stderr, c.stderr) || (c.stderr == "" && stderr != "") {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, c.code, c.stderr)
			}
			if code != ExitOK && stdout != "" {
				t.Errorf("stdout on error: %q", stdout)
			}
		})
	}
}

// TestShowCurrency: the money of a gate prints in the rate cards'
// currency, read from the first row of tokens.parquet (the example's rate
// card is in USD); a missing table gives none.
func TestShowCurrency(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	runInto(t, out)
	if got := readCurrency(filepath.Join(out, "tokens.parquet")); got != "USD" {
		t.Errorf("currency %q, want USD", got)
	}
	if got := readCurrency(filepath.Join(out, "nope.parquet")); got != "" {
		t.Errorf("currency of a missing table %q", got)
	}
}

// relist rewrites the output manifest of dir so that it lists name with
// its bytes now.
func relist(t *testing.T, dir, name string) {
	t.Helper()
	path := filepath.Join(dir, confined.SetManifestName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m confined.SetManifest
	if err := stdjson.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	for i := range m.Files {
		if m.Files[i].Name == name {
			m.Files[i].Bytes, m.Files[i].SHA256 = int64(len(body)), hex.EncodeToString(sum[:])
		}
	}
	if data, err = stdjson.Marshal(m); err == nil {
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}
