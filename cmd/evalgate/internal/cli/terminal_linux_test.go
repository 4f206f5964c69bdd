package cli

import (
	"os"
	"testing"
)

// TestDevNullIsNoTerminal: stderr sent to /dev/null is a character device
// but no terminal, so progress (which walks the campaign to size it) stays
// off unless --progress asks for it.
func TestDevNullIsNoTerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("open %s: %v", os.DevNull, err) // always present on Linux
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("isTerminal(%s) = true, want false", os.DevNull)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(w) {
		t.Error("isTerminal(pipe) = true, want false")
	}
}
