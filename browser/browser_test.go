// Package browser_test loads report.html in a real headless Chromium and
// checks what a reader gets: the decision in the DOM, every expected plot
// drawn, no input text turned into an element, and no console message
// (Content-Security-Policy violations included).
//
// `make test` installs Debian's chromium when it is absent. Outside CI
// (CI unset) a machine without chromium skips these tests; in CI
// (CI=true) a missing chromium fails them.
package browser_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// chromium returns the browser to test with.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if bin, err := exec.LookPath(name); err == nil {
			return bin
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed; in CI `make test` installs it (apt-get install -y chromium)")
	}
	t.Skip("chromium not installed (make test installs it; CI=true makes this a failure)")
	return ""
}

// withBrowser starts one browser for the whole test.
func withBrowser(t *testing.T) (*browser, context.Context) {
	t.Helper()
	bin := chromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	b, err := startBrowser(ctx, bin, filepath.Join(t.TempDir(), "profile"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.close(); err != nil {
			t.Logf("closing chromium: %v", err)
		}
	})
	return b, ctx
}
