//go:build !unix

package confined

import "os"

// Without flock the lock is not taken: concurrent writers are not
// serialised on this platform (docs/limitations.md).
func tryLock(*os.File) error { return nil }

func waitLock(*os.File) error { return nil }
