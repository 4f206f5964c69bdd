// Package hostile puts hostile things in a campaign directory for the
// tests of confinement: a FIFO, a directory or a symbolic link out to a
// secret file in place of a campaign file. The load stage's tests and the
// CLI's both build their cases from it.
//
// Only tests import this package.
package hostile

import (
	"os"
	"path/filepath"
	"testing"
)

// Maker puts something at path, given the path of a secret file outside
// the campaign.
type Maker func(path, secret string) error

// Replace removes the campaign file name (slash-separated, relative to
// camp) and lets make put something in its place.
func Replace(name string, make Maker) func(t *testing.T, camp, secret string) {
	return func(t *testing.T, camp, secret string) {
		t.Helper()
		path := filepath.Join(camp, filepath.FromSlash(name))
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := make(path, secret); err != nil {
			t.Fatal(err)
		}
	}
}

// FIFO makes a named pipe, which blocks a reader that waits for a writer
// (an error where the platform has none).
func FIFO(path, _ string) error { return mkfifo(path) }

// Dir makes an empty directory.
func Dir(path, _ string) error { return os.Mkdir(path, 0o755) }

// LinkOut makes an absolute symbolic link to the secret.
func LinkOut(path, secret string) error { return os.Symlink(secret, path) }

// LinkUp makes a relative symbolic link climbing out to the secret.
func LinkUp(path, secret string) error {
	rel, err := filepath.Rel(filepath.Dir(path), secret)
	if err != nil {
		return err
	}
	return os.Symlink(rel, path)
}
