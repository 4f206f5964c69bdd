package load

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/evalgate/evalgate/tables"
)

// Size caps of the campaign format (docs/format.md).
const (
	mib          = 1 << 20
	maxManifest  = 1 * mib
	maxPacket    = 8 * mib
	maxTruth     = 1 * mib
	maxTaskText  = 1 * mib
	maxPrompt    = 1 * mib
	maxSource    = 16 * mib
	maxJSONLLine = 1 * mib
	maxJSONLFile = 256 * mib
	sourcesDir   = "sources/"
	manifestFile = "manifest.json"
)

// readCapped reads a campaign file of at most limit bytes. It reports a
// missing, unreadable or oversized file as a finding and returns nil.
func (l *loader) readCapped(name string, limit int64) []byte {
	at := position{file: name}
	f, err := l.fsys.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			l.add(at.finding(tables.CodeFileMissing, "", "file does not exist"))
		} else {
			l.add(at.finding(tables.CodeFileUnreadable, "", "file cannot be opened: "+err.Error()))
		}
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > limit {
		l.add(at.finding(tables.CodeTooLarge, "", fmt.Sprintf("file has %d bytes; the cap is %d", st.Size(), limit)))
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	switch {
	case err != nil:
		l.add(at.finding(tables.CodeFileUnreadable, "", "file cannot be read: "+err.Error()))
		return nil
	case int64(len(data)) > limit:
		l.add(at.finding(tables.CodeTooLarge, "", fmt.Sprintf("file has more than %d bytes, its cap", limit)))
		return nil
	}
	return data
}

// checkHash reports a file whose sha256 is not want. It returns whether
// the hash matches.
func (l *loader) checkHash(name string, data []byte, want, source string) bool {
	sum := sha256.Sum256(data)
	got := hex.EncodeToString(sum[:])
	if got == want {
		return true
	}
	l.add(position{file: name}.finding(tables.CodeHashMismatch, "",
		fmt.Sprintf("file sha256 is %s but %s says %s", got, source, clip(want))))
	return false
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
