//go:build !linux

package confined

// exchangeDirs is not available here; WriteOutputSet renames instead.
func exchangeDirs(a, b string) error { return errNoExchange }

// haveSyncFS: no syncfs here; each file is synced as it is written.
const haveSyncFS = false

func syncFS(string) error { return nil }
