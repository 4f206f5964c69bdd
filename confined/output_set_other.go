//go:build !linux

package confined

// exchangeDirs is not available here; WriteOutputSet renames instead.
func exchangeDirs(a, b string) error { return errNoExchange }
