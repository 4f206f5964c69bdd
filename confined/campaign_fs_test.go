package confined

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// confinedDir returns a campaign directory holding one regular file, a
// FIFO, a directory, a symlink inside and three that leave it, beside a
// secret file outside.
func confinedDir(t *testing.T) *CampaignDir {
	t.Helper()
	base := t.TempDir()
	camp := filepath.Join(base, "camp")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(camp, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(base, "secret"), []byte("TOP-SECRET\n"), 0o644))
	must(os.WriteFile(filepath.Join(camp, "file"), []byte("hello\n"), 0o644))
	must(syscall.Mkfifo(filepath.Join(camp, "fifo"), 0o644))
	must(os.Symlink("file", filepath.Join(camp, "inside")))
	must(os.Symlink("../secret", filepath.Join(camp, "relative")))
	must(os.Symlink(filepath.Join(base, "secret"), filepath.Join(camp, "absolute")))
	must(os.Symlink("../..", filepath.Join(camp, "sub", "up")))
	must(os.Symlink("/dev/zero", filepath.Join(camp, "zero")))
	// the same kinds one directory down, where a path has several elements
	must(os.WriteFile(filepath.Join(camp, "sub", "file"), []byte("hello\n"), 0o644))
	must(syscall.Mkfifo(filepath.Join(camp, "sub", "fifo"), 0o644))
	must(os.Symlink("../file", filepath.Join(camp, "sub", "inside")))
	must(os.Symlink(filepath.Join(base, "secret"), filepath.Join(camp, "sub", "absolute")))
	must(os.Symlink("/dev/zero", filepath.Join(camp, "sub", "zero")))
	must(os.Symlink("sub", filepath.Join(camp, "link")))
	must(os.Symlink(base, filepath.Join(camp, "out")))
	d, err := OpenCampaignDir(camp)
	must(err)
	t.Cleanup(func() { d.Close() })
	return d
}

func TestCampaignDirConfines(t *testing.T) {
	d := confinedDir(t)
	cases := []struct {
		name string
		want error // nil: readable
	}{
		{"file", nil},
		{"inside", nil},
		{"fifo", ErrNotRegular},
		{"sub", ErrNotRegular},
		{"relative", ErrEscapes},
		{"absolute", ErrEscapes},
		{"sub/up/secret", ErrEscapes},
		{"zero", ErrEscapes},
		{"missing", fs.ErrNotExist},
		{"sub/file", nil},
		{"sub/inside", nil},
		{"link/file", nil},
		{"sub/up/camp/file", ErrEscapes}, // out and back in is out
		{"sub/fifo", ErrNotRegular},
		{"sub/absolute", ErrEscapes},
		{"sub/zero", ErrEscapes},
		{"out/secret", ErrEscapes},
		{"sub/missing", fs.ErrNotExist},
		{"missing/file", fs.ErrNotExist},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var data []byte
			var err error
			go func() {
				defer close(done)
				data, err = ReadCampaignFile(d, tc.name, 1<<20)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("ReadCampaignFile blocked") // a hang guard, not a timing assertion
			}
			if tc.want == nil {
				if err != nil || string(data) != "hello\n" {
					t.Errorf("read %q, %v; want hello", data, err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v; want %v", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error()+FileErrorMessage(err), "SECRET") {
				t.Errorf("error shows the target's bytes: %v", err)
			}
		})
	}
}

// endless is a filesystem whose one regular file claims 10 bytes and
// never ends, like /dev/zero behind a receipt that declares 2^53 bytes.
type endless struct{ fstest.MapFS }

func (e endless) Open(name string) (fs.File, error) {
	f, err := e.MapFS.Open(name)
	return endlessFile{f}, err
}

type endlessFile struct{ fs.File }

func (endlessFile) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestReadCampaignFileBounded(t *testing.T) {
	fsys := endless{fstest.MapFS{"zero": {Data: make([]byte, 10)}}}
	_, err := ReadCampaignFile(fsys, "zero", 4<<20)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != 4<<20 {
		t.Errorf("err = %v; want a TooLargeError at the 4 MiB cap", err)
	}
}

func TestEscapeText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain name.json", "plain name.json"},
		{"résumé ✓", "résumé ✓"},
		{"a\nb.jsonl", `a\nb.jsonl`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"nul\x00", `nul\x00`},
		{"tab\tcr\r", `tab\tcr\r`},
		{"gpj.\u202eexe", `gpj.\u202eexe`},
		{"iso\u2066x\u2069", `iso\u2066x\u2069`},
		{"c1\u009b", `c1\u009b`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"del\x7f", `del\x7f`},
	} {
		if got := EscapeText(tc.in); got != tc.want {
			t.Errorf("EscapeText(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

// TestCampaignDirBusyDirectory: once a directory has been asked for often
// enough to be opened as a root of its own (dirRoots), every file of it
// reads, and every refusal says, exactly what the path from the campaign's
// root gives: a symlink to a file beside the directory still reads, one
// leaving the campaign is still an escape, a FIFO is still not regular.
func TestCampaignDirBusyDirectory(t *testing.T) {
	base := t.TempDir()
	camp := filepath.Join(base, "camp")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(camp, "answers", "deeper"), 0o755))
	must(os.WriteFile(filepath.Join(base, "secret"), []byte("TOP-SECRET\n"), 0o644))
	must(os.WriteFile(filepath.Join(camp, "beside"), []byte("beside\n"), 0o644))
	for i := range 2 * dirUses {
		must(os.WriteFile(filepath.Join(camp, "answers", "a"+string(rune('a'+i))), []byte("answer\n"), 0o644))
	}
	must(syscall.Mkfifo(filepath.Join(camp, "answers", "fifo"), 0o644))
	must(os.Symlink("../beside", filepath.Join(camp, "answers", "up")))
	must(os.Symlink("../../secret", filepath.Join(camp, "answers", "out")))
	must(os.Symlink("/dev/zero", filepath.Join(camp, "answers", "zero")))
	must(os.Symlink("aa", filepath.Join(camp, "answers", "inside")))
	names := []string{"answers/aa", "answers/inside", "answers/up", "answers/out", "answers/zero", "answers/fifo",
		"answers/deeper", "answers/missing", "answers/../beside", "answers/./aa", "answers//aa"}
	read := func(d *CampaignDir, name string) string {
		data, err := ReadCampaignFile(d, name, 1<<20)
		if err != nil {
			return "error: " + err.Error()
		}
		return string(data)
	}
	want := map[string]string{}
	for _, name := range names {
		fresh, err := OpenCampaignDir(camp)
		must(err)
		want[name] = read(fresh, name) // the first use: the full path
		fresh.Close()
	}
	d, err := OpenCampaignDir(camp)
	must(err)
	defer d.Close()
	for i := range 2 * dirUses {
		if got := read(d, "answers/a"+string(rune('a'+i))); got != "answer\n" {
			t.Fatalf("answers/a%c: %q", 'a'+i, got)
		}
	}
	if d.dirs.roots["answers"] == nil {
		t.Fatal("answers/ was not opened as a root of its own")
	}
	for _, name := range names {
		if got := read(d, name); got != want[name] {
			t.Errorf("%s: %q from the busy directory, %q from the campaign's root", name, got, want[name])
		}
	}
	// OpenCampaignFileReader: the same bytes and refusals, its regular
	// files of the busy directory opened by openRaw where there is one
	readOnce := func(name string) string {
		f, info, err := OpenCampaignFileReader(d, name)
		if err != nil {
			return "error: " + err.Error()
		}
		defer f.Close()
		data, err := ReadBounded(f, name, 1<<20)
		if err != nil {
			return "error: " + err.Error()
		}
		if info.Size() != int64(len(data)) || !info.Mode().IsRegular() {
			return fmt.Sprintf("info: %d bytes, mode %v", info.Size(), info.Mode())
		}
		return string(data)
	}
	for _, name := range names {
		if got := readOnce(name); got != want[name] {
			t.Errorf("%s: %q through OpenCampaignFileReader, %q from the campaign's root", name, got, want[name])
		}
	}
	if f, _, err := OpenCampaignFileReader(d, "answers/ab"); err != nil {
		t.Error(err)
	} else {
		if _, raw := f.(*rawFile); !raw && runtime.GOOS == "linux" {
			t.Errorf("answers/ab was opened as %T, not by openRaw", f)
		}
		if err := f.Close(); err != nil {
			t.Error(err)
		}
		if err := f.Close(); err == nil {
			t.Error("a second Close did not fail")
		}
	}
	if !strings.Contains(want["answers/out"], "leaves") || !strings.Contains(want["answers/fifo"], "regular") || want["answers/up"] != "beside\n" {
		t.Errorf("the full path's results are not the expected ones: %q", want)
	}
}
