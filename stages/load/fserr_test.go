package load

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/evalgate/evalgate/rules"
)

// faultyFS fails to open one file, or reports a huge size for it.
type faultyFS struct {
	fstest.MapFS
	name string
	huge bool
}

func (f faultyFS) Open(name string) (fs.File, error) {
	if name != f.name {
		return f.MapFS.Open(name)
	}
	if !f.huge {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	file, err := f.MapFS.Open(name)
	return hugeFile{file}, err
}

type hugeFile struct{ fs.File }

func (h hugeFile) Stat() (fs.FileInfo, error) {
	st, err := h.File.Stat()
	return hugeInfo{st}, err
}

type hugeInfo struct{ fs.FileInfo }

func (hugeInfo) Size() int64 { return maxJSONLFile + 1 }

func TestCampaignFileErrors(t *testing.T) {
	cases := []struct {
		name string
		file string
		huge bool
		code rules.Code
	}{
		{"manifest unreadable", "manifest.json", false, rules.CodeFileUnreadable},
		{"receipts unreadable", "receipts.jsonl", false, rules.CodeFileUnreadable},
		{"receipts over the file cap", "receipts.jsonl", true, rules.CodeTooLarge},
		{"adjudications over the file cap", "adjudications.jsonl", true, rules.CodeTooLarge},
		{"packet over its cap", "tasks/T1/packet.json", true, rules.CodeTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := faultyFS{newFixture().build(t), tc.file, tc.huge}
			_, findings := Campaign(fsys, "fixture")
			note(findings)
			wantOnly(t, findings, tc.code, "")
			if len(findings) == 1 && findings[0].File != tc.file {
				t.Errorf("finding in %s, want %s", findings[0].File, tc.file)
			}
		})
	}
}
