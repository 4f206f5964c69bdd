package load

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
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
	// maxJSONLFile bounds how long a streamed JSONL file is read, not
	// memory: a streamed file holds one line (maxJSONLLine) at a time, and
	// what it keeps is its decoded records.
	maxJSONLFile = 64 << 30
	sourcesDir   = "sources/"
	manifestFile = "manifest.json"
)

// readCapped reads a campaign file of at most limit bytes through
// confined.ReadCampaignFile: a regular file inside the campaign directory,
// never read past its cap. It reports a missing, irregular, escaping,
// unreadable or oversized file as a finding and returns nil.
func (l *loader) readCapped(name string, limit int64) []byte {
	data, err := confined.ReadCampaignFile(l.fsys, name, limit)
	if err != nil {
		l.fileFinding(name, err)
		return nil
	}
	return data
}

// fileFinding reports a file access error by its typed code, naming the
// path only.
func (l *loader) fileFinding(name string, err error) {
	code := rules.CodeFileUnreadable
	switch {
	case errors.Is(err, fs.ErrNotExist):
		code = rules.CodeFileMissing
	case errors.Is(err, confined.ErrTooLarge):
		code = rules.CodeTooLarge
	}
	l.add(position{file: name}.finding(confined.FileErrorCode(err, code), "", confined.FileErrorMessage(err)))
}

// checkHash reports a file whose sha256 is not want. It returns whether
// the hash matches.
func (l *loader) checkHash(name string, data []byte, want, source string) bool {
	sum := sha256.Sum256(data)
	got := hex.EncodeToString(sum[:])
	if got == want {
		return true
	}
	l.add(position{file: name}.finding(rules.CodeHashMismatch, "",
		fmt.Sprintf("file sha256 is %s but %s says %s", got, source, Clip(want))))
	return false
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
