package load

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/internal/hostile"
	"github.com/evalgate/evalgate/rules"
)

// onDisk writes the fixture into a campaign directory beside a secret file
// and returns the directory; change then makes one file hostile.
func onDisk(t *testing.T, change func(t *testing.T, camp, secret string)) rules.Findings {
	t.Helper()
	base := t.TempDir()
	camp := filepath.Join(base, "camp")
	if err := os.CopyFS(camp, newFixture().build(t)); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(base, "secret")
	if err := os.WriteFile(secret, []byte("TOP-SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	change(t, camp, secret)
	dir, err := confined.OpenCampaignDir(camp)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	done := make(chan rules.Findings)
	go func() {
		_, findings := Campaign(dir, "camp")
		done <- findings
	}()
	select {
	case findings := <-done:
		note(findings)
		return findings
	case <-time.After(20 * time.Second):
		t.Fatal("Campaign blocked") // a hang guard, not a timing assertion
		return nil
	}
}

// The hostile files of the cases, by short name.
var fifo, dir, linkOut, linkUp = hostile.FIFO, hostile.Dir, hostile.LinkOut, hostile.LinkUp

func TestConfinedCampaignFiles(t *testing.T) {
	source := "sources/" + sha256Hex([]byte(sourceText))
	cases := []struct {
		file string
		make hostile.Maker
		code rules.Code
	}{
		{"manifest.json", fifo, rules.CodeFileNotRegular},
		{"receipts.jsonl", fifo, rules.CodeFileNotRegular},
		{"adjudications.jsonl", dir, rules.CodeFileNotRegular},
		{"tasks/T1/packet.json", fifo, rules.CodeFileNotRegular},
		{"tasks/T1/truth.json", dir, rules.CodeFileNotRegular},
		{"prompts/common.md", fifo, rules.CodeFileNotRegular},
		{source, fifo, rules.CodeFileNotRegular},
		{"manifest.json", linkOut, rules.CodePathEscapes},
		{"receipts.jsonl", linkUp, rules.CodePathEscapes},
		{"tasks/T1/task.md", linkOut, rules.CodePathEscapes},
		{"tasks/T1/packet.json", linkUp, rules.CodePathEscapes},
		{source, linkOut, rules.CodePathEscapes},
		{source, linkUp, rules.CodePathEscapes},
	}
	for _, tc := range cases {
		name := fmt.Sprintf("%s_%s", tc.code, tc.file)
		t.Run(name, func(t *testing.T) {
			findings := onDisk(t, hostile.Replace(tc.file, tc.make))
			found := false
			for _, f := range findings {
				found = found || f.Code == tc.code && f.File == tc.file
				if strings.Contains(f.Message, "SECRET") || strings.Contains(f.Message, sha256Hex([]byte("TOP-SECRET\n"))) {
					t.Errorf("a finding shows the target's bytes or hash: %s", f.Error())
				}
			}
			if !found {
				t.Errorf("no %s on %s; findings:", tc.code, tc.file)
				for _, f := range findings {
					t.Errorf("  %s", f.Error())
				}
			}
		})
	}
}

func TestSymlinkInsideCampaignIsRead(t *testing.T) {
	findings := onDisk(t, func(t *testing.T, camp, _ string) {
		task := filepath.Join(camp, "tasks", "T1", "task.md")
		if err := os.Rename(task, filepath.Join(camp, "task-copy.md")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../../task-copy.md", task); err != nil {
			t.Fatal(err)
		}
	})
	if len(findings) != 0 {
		t.Errorf("a symlink inside the campaign was refused: %v", findings)
	}
}

// Every file in sources/ is checked, referenced or not.
func TestUnreferencedSourcesChecked(t *testing.T) {
	stray := "a stray file\n"
	names := []string{
		strings.Repeat("0", 64),  // a sha256, of other bytes
		"README",                 // not a sha256 at all
		"bad-\xff\xfe-name",      // not even UTF-8
		sha256Hex([]byte(stray)), // a correct content address: fine
	}
	findings := onDisk(t, func(t *testing.T, camp, _ string) {
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(camp, "sources", n), []byte(stray), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})
	want := map[string]bool{"sources/" + names[0]: true, "sources/README": true, `sources/bad-\xff\xfe-name`: true}
	for _, f := range findings {
		if f.Code != rules.CodeHashMismatch || !want[f.File] {
			t.Errorf("unexpected finding %s", f.Error())
		}
		delete(want, f.File)
	}
	for f := range want {
		t.Errorf("no hash_mismatch on %s", f)
	}
}

// A million `{}` receipt lines keep a hundred findings per code and one
// summary per code: memory follows what is reported.
func TestFindingsCappedPerCode(t *testing.T) {
	fx := newFixture()
	fx.files["receipts.jsonl"] = strings.Repeat("{}\n", 5000)
	_, findings := Campaign(fx.build(t), "fixture")
	note(findings)
	perCode := map[rules.Code]int{}
	for _, f := range findings {
		perCode[f.Code]++
	}
	if perCode[rules.CodeMissingKey] != rules.MaxFindingsPerCode {
		t.Errorf("%d missing_key findings; want the cap %d", perCode[rules.CodeMissingKey], rules.MaxFindingsPerCode)
	}
	if perCode[rules.CodeFindingsCapped] != 1 || !findings.Rejected() {
		t.Errorf("want one rejecting findings_capped summary; got %v", perCode)
	}
}
