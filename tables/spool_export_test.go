package tables

import "testing"

// SetSpoolChunkRows makes spools encode a chunk every n rows for the rest
// of the test, so that a small campaign's tables go through the codec and
// the merge.
func SetSpoolChunkRows(t testing.TB, n int) {
	old := spoolChunkRows
	spoolChunkRows = n
	t.Cleanup(func() { spoolChunkRows = old })
}
