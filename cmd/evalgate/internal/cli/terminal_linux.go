package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// hasTermios reports whether f is a terminal: its terminal settings can
// be read (TCGETS), which a character device such as /dev/null refuses.
func hasTermios(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
