package confined

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tree reads every regular file under dir, by slash-separated name.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func commitFiles(files map[string]string) []CommitFile {
	var out []CommitFile
	for _, name := range []string{"answers/s1.json", "receipts.jsonl", "imports.jsonl"} {
		data, ok := files[name]
		if !ok {
			continue
		}
		out = append(out, CommitFile{Name: name, Fill: func(w io.Writer) error {
			_, err := io.WriteString(w, data)
			return err
		}})
	}
	return out
}

// TestCommitAtEveryStep kills a commit (a panic from the step hook: nothing
// after it runs, deferred cleanups included) at every step, then recovers
// as the next writer does: the directory holds the complete old contents
// or the complete new ones, never a receipt without its ledger line, and
// no pending file or journal is left.
func TestCommitAtEveryStep(t *testing.T) {
	old := map[string]string{"receipts.jsonl": "r1\n", "imports.jsonl": "l1\n", "manifest.json": "{}"}
	next := map[string]string{"answers/s1.json": "{\"a\":1}", "receipts.jsonl": "r1\nr2\n", "imports.jsonl": "l1\nl2\n"}
	want := map[string]string{"manifest.json": "{}"}
	maps.Copy(want, next)
	sawOld, sawNew := false, false
	for kill := 1; ; kill++ {
		dir := t.TempDir()
		for name, data := range old {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Mkdir(filepath.Join(dir, "answers"), 0o755); err != nil {
			t.Fatal(err)
		}
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		step := 0
		commitHook = func(string) {
			if step++; step == kill {
				panic(killed{})
			}
		}
		completed := func() bool {
			defer func() {
				if r := recover(); r != nil {
					if _, ok := r.(killed); !ok {
						panic(r)
					}
				}
			}()
			if err := Commit(root, commitFiles(next)); err != nil {
				t.Fatal(err)
			}
			return true
		}()
		commitHook = nil
		if completed {
			if got := tree(t, dir); !maps.Equal(got, want) {
				t.Fatalf("a completed commit left %v", got)
			}
			if kill < 5 {
				t.Errorf("only %d steps checked", kill-1)
			}
			break
		}
		note, err := RecoverCommit(root, "answers")
		if err != nil {
			t.Fatalf("killed at step %d: %v", kill, err)
		}
		switch got := tree(t, dir); {
		case maps.Equal(got, old):
			sawOld = true
		case maps.Equal(got, want):
			sawNew = true
		default:
			t.Fatalf("killed at step %d, then recovered (%s): %v", kill, note, got)
		}
		if note == "" {
			t.Errorf("killed at step %d: recovery says it did nothing", kill)
		}
		if note, err := RecoverCommit(root, "answers"); note != "" || err != nil {
			t.Errorf("a second recovery did something: %q %v", note, err)
		}
		root.Close()
	}
	if !sawOld || !sawNew {
		t.Errorf("recoveries kept the old contents: %v, the new: %v; want both seen", sawOld, sawNew)
	}
}

// TestRemoveLeftoverFiles removes only what its match accepts: a user's
// hidden file that looks like a temporary file stays.
func TestRemoveLeftoverFiles(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{".receipts.jsonl.tmp-123", ".notes.tmp-keep", "receipts.jsonl", ".imports.jsonl.tmp-9"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	n, err := RemoveLeftoverFiles(root, ".", func(name string) bool {
		of, ok := AtomicTempOf(name)
		return ok && strings.HasSuffix(of, ".jsonl")
	})
	if err != nil || n != 2 {
		t.Fatalf("removed %d (%v), want 2", n, err)
	}
	got := tree(t, dir)
	if _, ok := got[".notes.tmp-keep"]; !ok || len(got) != 2 {
		t.Errorf("left %v", got)
	}
	if n, err := RemoveLeftoverFiles(root, "missing", func(string) bool { return true }); n != 0 || err != nil {
		t.Errorf("a missing directory: %d %v", n, err)
	}
}

// TestLockWaits takes one lock twice: the second taker is told it waits,
// and gets the lock once the first releases it.
func TestLockWaits(t *testing.T) {
	for _, byDir := range []bool{false, true} {
		dir := t.TempDir()
		take := func(waiting func()) (*Lock, error) {
			if byDir {
				return LockDir(dir, waiting)
			}
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			return LockRoot(root, LockName, waiting)
		}
		first, err := take(func() { t.Error("the first lock waited") })
		if err != nil {
			t.Fatal(err)
		}
		waiting := make(chan bool)
		got := make(chan error)
		go func() {
			second, err := take(func() { waiting <- true })
			if err == nil {
				err = second.Unlock()
			}
			got <- err
		}()
		<-waiting // the second taker found the lock held
		select {
		case err := <-got:
			t.Fatalf("the second lock was taken while the first was held (%v)", err)
		default:
		}
		if err := first.Unlock(); err != nil {
			t.Fatal(err)
		}
		if err := <-got; err != nil {
			t.Fatal(err)
		}
	}
}

// TestLockRefusesFIFO never blocks on a FIFO planted as the lock file.
func TestLockRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, LockName), 0o644); err != nil {
		t.Skip(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if l, err := LockRoot(root, LockName, nil); err == nil {
		l.Unlock()
		t.Fatal("a FIFO was taken as the lock file")
	}
}

// TestCheckOutputSet tells the files of a set from a user's and from
// changed ones.
func TestCheckOutputSet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteOutputSet(dir, writeSet(oldSet, func(string) {})); err != nil {
		t.Fatal(err)
	}
	m, problems, err := CheckOutputSet(dir)
	if err != nil || len(problems) != 0 || len(m.Files) != len(oldSet) {
		t.Fatalf("a fresh set: %v %v %v", m, problems, err)
	}
	os.WriteFile(filepath.Join(dir, ".notes.tmp-keep"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(dir, "report.html"), []byte("my own"), 0o644)
	os.Remove(filepath.Join(dir, "a.parquet"))
	_, problems, err = CheckOutputSet(dir)
	want := []SetProblem{{".notes.tmp-keep", "not listed"}, {"a.parquet", "missing"}, {"report.html", "changed"}}
	if err != nil || len(problems) != len(want) {
		t.Fatalf("got %v %v, want %v", problems, err, want)
	}
	for i := range want {
		if problems[i] != want[i] {
			t.Errorf("problem %d: %v, want %v", i, problems[i], want[i])
		}
	}
	os.Remove(filepath.Join(dir, SetManifestName))
	if _, _, err := CheckOutputSet(dir); err != ErrNoSetManifest {
		t.Errorf("without a manifest: %v", err)
	}
}
