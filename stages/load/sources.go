package load

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/evalgate/evalgate/confined"
)

// checkSources checks every file in sources/, referenced by a packet or
// not: its name must be the sha256 of its bytes (docs/format.md). The files
// packets reference were read and checked already (see source); the others
// are read under the same cap and confinement, hashed and dropped, so a
// stray or forged file cannot sit unnoticed in the campaign.
func (l *loader) checkSources() {
	dir := strings.TrimSuffix(sourcesDir, "/")
	entries, err := fs.ReadDir(l.fsys, dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return // no sources; the packets that need one say so
	case err != nil:
		l.fileFinding(dir, err)
		return
	}
	for _, e := range entries {
		sha := e.Name()
		if _, read := l.c.Sources[sha]; read {
			continue
		}
		name := sourcesDir + sha
		shown := confined.EscapeName(name)
		data, err := confined.ReadCampaignFile(l.fsys, name, maxSource)
		if err != nil {
			l.fileFinding(shown, err)
			continue
		}
		l.checkHash(shown, data, confined.EscapeName(sha), "its content-addressed file name")
	}
}
