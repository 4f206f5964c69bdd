//go:build !unix && !windows

package confined

import (
	"errors"
	"os"
)

// errNoLock refuses every writer where no lock can be taken: writing
// unserialised could silently lose another writer's work.
var errNoLock = errors.New("this platform has no file lock, so evalgate cannot serialise writers and writes nothing")

func tryLock(*os.File) error { return errNoLock }

func waitLock(*os.File) error { return errNoLock }

func openDirLock(string) (*os.File, error) { return nil, errNoLock }
