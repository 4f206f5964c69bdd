package confined

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Every output set carries its own manifest, SetManifestName, listing each
// file of the set with its size and sha256; it is written last, into the
// temporary directory, before the set is swapped into place. The manifest
// is what makes a directory evalgate's: a run replaces an output directory
// only when every entry in it is a file the manifest lists, with the bytes
// the manifest gives (a user's own report.md, or a hidden file of theirs,
// is never deleted or overwritten: the run is refused and the directory
// left as it is), and `show` accepts a directory only when the listed set
// is there, complete and unchanged, so it never reports on a mixed or
// incomplete set.

// SetManifestName is the manifest of an output set, inside the set.
const SetManifestName = ".evalgate-outputs.json"

// SetManifestFormat names the manifest's format.
const SetManifestFormat = "evalgate.output-set/1"

// maxSetManifest caps the manifest's size.
const maxSetManifest = 1 << 20

// SetManifest lists the files of an output set, in name order.
type SetManifest struct {
	Format string    `json:"format"`
	Files  []SetFile `json:"files"`
}

// SetFile is one file of an output set.
type SetFile struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Lists reports whether the manifest lists name.
func (m *SetManifest) Lists(name string) bool {
	return m != nil && slices.ContainsFunc(m.Files, func(f SetFile) bool { return f.Name == name })
}

// Errors of an output set's manifest.
var (
	// ErrNoSetManifest reports a directory without an output manifest: not
	// an output set evalgate wrote (or one an evalgate older than the
	// manifest wrote).
	ErrNoSetManifest = errors.New("no output manifest " + SetManifestName)
	// ErrSetChanged reports a file the manifest lists that is missing or
	// holds other bytes than evalgate wrote.
	ErrSetChanged = errors.New("the output set is not the one evalgate wrote")
)

// writeSetManifest lists every regular file of dir (the set just built)
// in its manifest.
func writeSetManifest(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	m := SetManifest{Format: SetManifestFormat, Files: []SetFile{}}
	for _, e := range entries {
		if e.Name() == SetManifestName {
			continue
		}
		if !e.Type().IsRegular() {
			return fmt.Errorf("%s: %w", EscapeName(e.Name()), ErrNotRegular)
		}
		f, err := hashFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		f.Name = e.Name()
		m.Files = append(m.Files, f)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, SetManifestName), append(data, '\n'), 0o644)
}

func hashFile(path string) (SetFile, error) {
	f, err := OpenRegularFile(path)
	if err != nil {
		return SetFile{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return SetFile{}, err
	}
	return SetFile{Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// ReadSetManifest reads the manifest of the output set in dir
// (ErrNoSetManifest when there is none).
func ReadSetManifest(dir string) (*SetManifest, error) {
	f, err := OpenRegularFile(filepath.Join(dir, SetManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoSetManifest
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSetManifest+1))
	if err != nil {
		return nil, err
	}
	var m SetManifest
	if len(data) > maxSetManifest || json.Unmarshal(data, &m) != nil || m.Format != SetManifestFormat {
		return nil, fmt.Errorf("%s is not an evalgate output manifest", SetManifestName)
	}
	for _, f := range m.Files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || f.Name == "." || f.Name == ".." || f.Name == SetManifestName {
			return nil, fmt.Errorf("%s lists %q, which is not a file of an output set", SetManifestName, EscapeName(f.Name))
		}
	}
	return &m, nil
}

// SetProblem is a file of an output directory that is not as its
// manifest says.
type SetProblem struct {
	Name string
	Why  string // "missing", "changed" or "not listed"
}

// CheckOutputSet compares the output directory dir with its manifest: the
// files the manifest lists that are missing or hold other bytes, and the
// entries it does not list, in name order. It returns ErrNoSetManifest
// when dir has no manifest.
func CheckOutputSet(dir string) (*SetManifest, []SetProblem, error) {
	m, err := ReadSetManifest(dir)
	if err != nil {
		return nil, nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	present := map[string]fs.DirEntry{}
	for _, e := range entries {
		present[e.Name()] = e
	}
	var out []SetProblem
	for _, f := range m.Files {
		e, ok := present[f.Name]
		delete(present, f.Name)
		if !ok {
			out = append(out, SetProblem{f.Name, "missing"})
			continue
		}
		if !e.Type().IsRegular() {
			out = append(out, SetProblem{f.Name, "changed"})
			continue
		}
		got, err := hashFile(filepath.Join(dir, f.Name))
		if err != nil {
			return nil, nil, err
		}
		if got.Bytes != f.Bytes || got.SHA256 != f.SHA256 {
			out = append(out, SetProblem{f.Name, "changed"})
		}
	}
	delete(present, SetManifestName)
	for name := range present {
		out = append(out, SetProblem{name, "not listed"})
	}
	slices.SortFunc(out, func(a, b SetProblem) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return m, out, nil
}
