//go:build !linux

package cli

import "os"

// hasTermios reports whether f may be a terminal; off Linux the character
// device check in isTerminal is the only one made.
func hasTermios(f *os.File) bool { return true }
